/// The type of an attribute's value, with Apple's raw values (NSAttributeDescription.h).
public enum NSAttributeType: UInt, Sendable, CaseIterable {
    /// No type: legal only for transient attributes.
    case undefinedAttributeType = 0
    case integer16AttributeType = 100
    case integer32AttributeType = 200
    case integer64AttributeType = 300
    case decimalAttributeType = 400
    case doubleAttributeType = 500
    case floatAttributeType = 600
    case stringAttributeType = 700
    case booleanAttributeType = 800
    case dateAttributeType = 900
    case binaryDataAttributeType = 1000
    case UUIDAttributeType = 1100
    case URIAttributeType = 1200
    case transformableAttributeType = 1800
    case objectIDAttributeType = 2000
    case compositeAttributeType = 2100

    /// The spelling Xcode writes in a model file's `attributeType` (nil for
    /// undefined, which Xcode writes by leaving the attribute out).
    public var modelFileName: String? {
        switch self {
        case .undefinedAttributeType: return nil
        case .integer16AttributeType: return "Integer 16"
        case .integer32AttributeType: return "Integer 32"
        case .integer64AttributeType: return "Integer 64"
        case .decimalAttributeType: return "Decimal"
        case .doubleAttributeType: return "Double"
        case .floatAttributeType: return "Float"
        case .stringAttributeType: return "String"
        case .booleanAttributeType: return "Boolean"
        case .dateAttributeType: return "Date"
        case .binaryDataAttributeType: return "Binary"
        case .UUIDAttributeType: return "UUID"
        case .URIAttributeType: return "URI"
        case .transformableAttributeType: return "Transformable"
        case .objectIDAttributeType: return "ObjectID"
        case .compositeAttributeType: return "Composite"
        }
    }

    /// The type Xcode means by a model file's `attributeType` spelling.
    public init?(modelFileName: String) {
        if modelFileName == "Undefined" { self = .undefinedAttributeType; return }
        if modelFileName == "Object ID" { self = .objectIDAttributeType; return }
        guard let type = Self.allCases.first(where: { $0.modelFileName == modelFileName }) else { return nil }
        self = type
    }

    /// The class Core Data uses for values of this type (`attributeValueClassName`).
    public var valueClassName: String? {
        switch self {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType,
             .doubleAttributeType, .floatAttributeType, .booleanAttributeType:
            return "NSNumber"
        case .decimalAttributeType: return "NSDecimalNumber"
        case .stringAttributeType: return "NSString"
        case .dateAttributeType: return "NSDate"
        case .binaryDataAttributeType: return "NSData"
        case .UUIDAttributeType: return "NSUUID"
        case .URIAttributeType: return "NSURL"
        case .objectIDAttributeType: return "NSManagedObjectID"
        case .compositeAttributeType: return "NSDictionary"
        case .undefinedAttributeType, .transformableAttributeType: return nil
        }
    }

    /// Whether values of this type are numbers (integers, decimals, floating point).
    public var isNumeric: Bool {
        switch self {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType,
             .decimalAttributeType, .doubleAttributeType, .floatAttributeType:
            return true
        default: return false
        }
    }
}
