/// Converting a stored value to a typed property's declared type.
enum ManagedValue {
    static func cast<Value>(_ value: Any?, key: String, in object: NSManagedObject) -> Value {
        if let typed = value as? Value { return typed }
        if value == nil, let none = Optional<Any>.none as? Value { return none }
        if let number = value as? any BinaryInteger, let converted = convertInteger(number, to: Value.self) {
            return converted
        }
        if value == nil, let zero = zeroScalar(Value.self) { return zero }
        let given = value.map { "\(Swift.type(of: $0))" } ?? "nil"
        preconditionFailure("Property \(key) of entity \(object.entity.name ?? "") holds \(given), not \(Value.self)")
    }

    private static func convertInteger<Value>(_ number: any BinaryInteger, to: Value.Type) -> Value? {
        guard let type = Value.self as? any FixedWidthInteger.Type else { return nil }
        return type.init(exactly: number) as? Value
    }

    /// Scalar properties read 0/false for nil, as Core Data's scalar accessors do.
    private static func zeroScalar<Value>(_ type: Value.Type) -> Value? {
        if let integer = type as? any FixedWidthInteger.Type { return integer.zero as? Value }
        if let floating = type as? any BinaryFloatingPoint.Type { return floating.init(0) as? Value }
        if type == Bool.self { return false as? Value }
        return nil
    }
}
