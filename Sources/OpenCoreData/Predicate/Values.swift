/// Normalising the values that key paths and constants produce.
enum Values {
    /// `nil`, `NSNull` and optionals boxed in `Any` all become `nil`; other values pass through.
    ///
    /// Cost: two dynamic casts.
    static func normalized(_ value: Any?) -> Any? {
        guard let value else { return nil }
        if let optional = value as? AnyOptional { return normalized(optional.wrappedAny) }
        if value is NSNull { return nil }
        return value
    }

    /// The value as a Swift string, for `String`, `NSString` and `Substring`.
    static func string(_ value: Any) -> String? {
        if let s = value as? String { return s }
        if let s = value as? Substring { return String(s) }
        if let s = value as? NSString { return String(s) }
        return nil
    }

    /// The value as a date, for `Date` and `NSDate`.
    static func date(_ value: Any) -> Date? {
        if let d = value as? Date { return d }
        if let d = value as? NSDate { return Date(timeIntervalSinceReferenceDate: d.timeIntervalSinceReferenceDate) }
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
