import OpenCoreData

/// The Swift type of a generated attribute property, as Xcode chooses it.
enum AttributeTypes {
    /// The type spelling for `attribute`. Numbers and booleans are scalars
    /// when the attribute uses scalar values (`scalarDefault` when the model
    /// doesn't say: Xcode defaults to scalars for Swift models); every other
    /// type is optional, as in Xcode's code, because an object exists before
    /// its values are set.
    static func swiftType(of attribute: NSAttributeDescription, scalarDefault: Bool) -> String {
        let scalar = attribute.usesScalarValueType ?? scalarDefault
        switch attribute.attributeType {
        case .integer16AttributeType: return scalar ? "Int16" : "NSNumber?"
        case .integer32AttributeType: return scalar ? "Int32" : "NSNumber?"
        case .integer64AttributeType: return scalar ? "Int64" : "NSNumber?"
        case .doubleAttributeType: return scalar ? "Double" : "NSNumber?"
        case .floatAttributeType: return scalar ? "Float" : "NSNumber?"
        case .booleanAttributeType: return scalar ? "Bool" : "NSNumber?"
        case .decimalAttributeType: return "NSDecimalNumber?"
        case .stringAttributeType: return "String?"
        case .dateAttributeType: return "Date?"
        case .binaryDataAttributeType: return "Data?"
        case .UUIDAttributeType: return "UUID?"
        case .URIAttributeType: return "URL?"
        case .objectIDAttributeType: return "NSManagedObjectID?"
        case .compositeAttributeType: return "[String: Any]?"
        case .transformableAttributeType, .undefinedAttributeType:
            return (customClassName(of: attribute) ?? "NSObject") + "?"
        }
    }

    /// The custom class a transformable attribute names, without module prefix.
    static func customClassName(of attribute: NSAttributeDescription) -> String? {
        guard attribute.attributeType == .transformableAttributeType || attribute.attributeType == .undefinedAttributeType,
              let name = attribute.attributeValueClassName?.trimmingCharacters(in: .whitespaces), !name.isEmpty
        else { return nil }
        let unprefixed = name.replacingOccurrences(of: "$(PRODUCT_MODULE_NAME).", with: "")
        // `MyApp.Box` is the app's own `Box`; the generated code lives in that module.
        let components = unprefixed.split(separator: ".")
        if components.count == 2, components.allSatisfy({ $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } }) {
            return String(components[1])
        }
        return unprefixed
    }
}
