/// Normalising and reading the values that key paths and constants produce.
///
/// Dynamic casts to protocols and bridged Foundation types cost 50–300 ns each
/// on Linux, while comparing a value's type with a concrete type costs about
/// 5 ns; so each reader first tests the exact types that predicates meet most
/// (`Int`, `String`, `Double`, `Bool`, `Date`, class instances) and casts only
/// when it must.
enum Values {
    /// `nil`, `NSNull` and optionals boxed in `Any` all become `nil`; other values pass through.
    static func normalized(_ value: Any?) -> Any? {
        guard let value else { return nil }
        let type = type(of: value)
        if type == Int.self || type == String.self || type == Double.self || type == Bool.self { return value }
        if type is AnyObject.Type { return type is NSNull.Type ? nil : value }
        if type == AnyHashable.self, let hashable = value as? AnyHashable { return normalized(hashable.base) }
        // The metadata's kind first: a cast to the protocol of a type that does not conform to it scans every
        // conformance the process has loaded (~120–250k instructions the first time for each type).
        if isOptional(value), let optional = value as? AnyOptional { return normalized(optional.wrappedAny) }
        return value
    }

    /// Whether `value`'s dynamic type is an `Optional`, read from its type's metadata.
    static func isOptional(_ value: Any) -> Bool {
        func isOptionalType<T>(_ value: T) -> Bool { _isOptional(T.self) }
        return _openExistential(value, do: isOptionalType)
    }

    /// The value as a Swift string, for `String`, `NSString` and `Substring`.
    static func string(_ value: Any) -> String? {
        let type = type(of: value)
        if type == String.self { return value as? String }
        if type is AnyObject.Type { return type is NSString.Type ? (value as? NSString).map { String($0) } : nil }
        if type == Substring.self, let s = value as? Substring { return String(s) }
        return nil
    }

    /// The value as a date, for `Date` and `NSDate`.
    static func date(_ value: Any) -> Date? {
        let type = type(of: value)
        if type == Date.self { return value as? Date }
        if type is NSDate.Type, let d = value as? NSDate { return Date(timeIntervalSinceReferenceDate: d.timeIntervalSinceReferenceDate) }
        return nil
    }

    /// A short description of a value's type for error messages.
    static func typeName(_ value: Any?) -> String {
        guard let value else { return "nil" }
        return String(describing: type(of: value))
    }
}

/// Lets ``Values/normalized(_:)`` see through an `Optional` boxed in `Any`.
protocol AnyOptional {
    var wrappedAny: Any? { get }
}

extension Optional: AnyOptional {
    var wrappedAny: Any? {
        switch self {
        case .some(let wrapped): wrapped
        case .none: nil
        }
    }
}
