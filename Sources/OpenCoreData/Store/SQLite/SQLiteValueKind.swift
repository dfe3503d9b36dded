/// What a predicate compares, as far as SQL is concerned: two values of the
/// same kind compare in SQL as they do in memory; other pairs are left to
/// in-memory evaluation (which answers false or reports the mismatch).
enum SQLiteValueKind {
    case number, string, date, data, uuid, url

    /// The kind of values an attribute of `type` stores.
    init?(_ type: NSAttributeType) {
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType,
             .doubleAttributeType, .floatAttributeType, .decimalAttributeType: self = .number
        case .stringAttributeType: self = .string
        case .dateAttributeType: self = .date
        case .binaryDataAttributeType: self = .data
        case .UUIDAttributeType: self = .uuid
        case .URIAttributeType: self = .url
        default: return nil
        }
    }

    /// The kind of a predicate constant; nil for nil and for anything else.
    ///
    /// The common types are known by identity first: each `is` test below
    /// that fails on a string may try Foundation's bridging (a cast from a
    /// `String` to `Bool` cost ~8,700 instructions).
    init?(constant value: Any) {
        switch ObjectIdentifier(Swift.type(of: value)) {
        case ObjectIdentifier(String.self): self = .string; return
        case ObjectIdentifier(Int.self), ObjectIdentifier(Int64.self), ObjectIdentifier(Int32.self),
             ObjectIdentifier(Int16.self), ObjectIdentifier(Double.self), ObjectIdentifier(Bool.self):
            self = .number; return
        case ObjectIdentifier(Date.self): self = .date; return
        default: break
        }
        switch value {
        case is Bool, is any BinaryInteger, is Double, is Float, is Decimal: self = .number
        case is String, is NSString: self = .string
        case is Date, is NSDate: self = .date
        case is Data: self = .data
        case is UUID: self = .uuid
        case is URL: self = .url
        case is NSNumber: self = .number
        default: return nil
        }
    }

    /// Whether `<`, `>`, BETWEEN apply (in memory they throw for the others).
    var isOrdered: Bool { self == .number || self == .string || self == .date }
}
