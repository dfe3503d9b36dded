/// Attribute values written as text, the way model files state default values.
enum ModelValueText {
    /// The value `text` denotes for an attribute of `type`, or nil when it
    /// does not denote one.
    static func value(_ text: String, of type: NSAttributeType) -> Any? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        // A Boolean attribute changed to a number in Xcode keeps its YES/NO
        // default, and momc still reads it as 1/0.
        if type.isNumeric, let flag = flag(trimmed) { return value(flag ? "1" : "0", of: type) }
        switch type {
        case .integer16AttributeType: return integer(trimmed).flatMap { Int16(exactly: $0) }
        case .integer32AttributeType: return integer(trimmed).flatMap { Int32(exactly: $0) }
        case .integer64AttributeType: return integer(trimmed)
        case .decimalAttributeType: return Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX"))
        case .doubleAttributeType: return Double(trimmed)
        case .floatAttributeType: return Float(trimmed)
        case .stringAttributeType: return text
        case .booleanAttributeType: return flag(trimmed) ?? Double(trimmed).map { $0 != 0 }
        case .dateAttributeType: return Double(trimmed).map { Date(timeIntervalSinceReferenceDate: $0) }
        case .UUIDAttributeType: return UUID(uuidString: trimmed)
        case .URIAttributeType: return URL(string: trimmed)
        case .binaryDataAttributeType, .transformableAttributeType, .objectIDAttributeType,
             .compositeAttributeType, .undefinedAttributeType:
            return nil
        }
    }

    /// The model-file text of `value` for an attribute of `type`; nil for a
    /// value that has no text form (Date defaults are written as intervals).
    static func text(_ value: Any, of type: NSAttributeType) -> String? {
        switch (type, value) {
        case (.booleanAttributeType, let flag as Bool): return flag ? "YES" : "NO"
        case (.stringAttributeType, let string as String): return string
        case (.decimalAttributeType, let decimal as Decimal): return "\(decimal)"
        case (.UUIDAttributeType, let uuid as UUID): return uuid.uuidString
        case (.URIAttributeType, let url as URL): return url.absoluteString
        case (_, let number as NSNumber) where type.isNumeric || type == .booleanAttributeType:
            return type == .doubleAttributeType || type == .floatAttributeType ? "\(number.doubleValue)" : number.stringValue
        default: return nil
        }
    }

    /// YES/NO and true/false, in any case, as momc and NSPredicate read them.
    private static func flag(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "yes", "true": true
        case "no", "false": false
        default: nil
        }
    }

    private static func integer(_ text: String) -> Int64? {
        if let exact = Int64(text) { return exact }
        guard let real = Double(text), real.rounded() == real else { return nil }
        return Int64(exactly: real)
    }
}
