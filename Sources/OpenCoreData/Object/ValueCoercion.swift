/// Checking and converting attribute values on set, as Core Data's typed
/// accessors do: the stored value always has the attribute's Swift type.
enum ValueCoercion {
    /// `value` as the Swift type of `attribute`'s type; stops the program when
    /// it can't be (a programmer error, as Core Data raises for it).
    static func coerce(_ value: Any?, for attribute: NSAttributeDescription) -> Any? {
        guard let value else { return nil }
        // A value already of the stored type (the usual case) is kept as it
        // is: converting it meant a cast and a new box. Checked before
        // unwrapping, which such a value (never an Optional) does not need.
        let stored = storedType(attribute.attributeType)
        if let stored, Swift.type(of: value) == stored { return value }
        guard let value = unwrapped(value) else { return nil }
        if let stored, Swift.type(of: value) == stored { return value }
        if let converted = convert(value, to: attribute.attributeType) { return converted }
        preconditionFailure(
            "Unacceptable type of value for attribute: property = \"\(attribute.name)\"; entity = \"\(attribute.entity?.name ?? "")\"; desired type = \(storedType(attribute.attributeType).map { "\($0)" } ?? attribute.attributeValueClassName ?? "Any"); given type = \(Swift.type(of: value)); value = \(value).")
    }

    /// `value` as `attribute`'s slot value, as `coerce(_:for:)` makes it: a
    /// value already of the stored type (every set through a typed accessor,
    /// most through `setValue`) goes into the slot as it came, without the
    /// copies through `Any?` that `coerce` costs.
    static func slotValue(_ value: consuming Any?, for attribute: NSAttributeDescription) -> SlotValue {
        slotValue(value, type: attribute.attributeType) { attribute }
    }

    /// `slotValue(_:for:)` for an attribute of `type`, which `attribute`
    /// gives only when the value needs converting: a set of a value of the
    /// stored type neither retains nor casts the attribute.
    static func slotValue(_ value: consuming Any?, type: NSAttributeType,
                          attribute: () -> NSAttributeDescription) -> SlotValue {
        guard let value else { return .none }
        // One look at the type the value is stored as decides: a value of the
        // attribute's own type is stored as that type, and anything else (a
        // class instance, an `Any` boxed again) takes the converting path,
        // which asks the runtime. The switch by attribute type mirrors
        // `SlotValue(attribute:)`'s by value type: checking the stored type
        // first and then calling that cost ~80 instructions more per set.
        let given = AnyContainer.read(value) { $0.storedType }
        switch type {
        case .integer64AttributeType where given == Int64.self: return .int64(SlotValue.unboxed(value))
        case .integer32AttributeType where given == Int32.self: return .int32(SlotValue.unboxed(value))
        case .integer16AttributeType where given == Int16.self: return .int16(SlotValue.unboxed(value))
        case .booleanAttributeType where given == Bool.self: return .bool(SlotValue.unboxed(value))
        case .doubleAttributeType where given == Double.self: return .double(SlotValue.unboxed(value))
        case .floatAttributeType where given == Float.self: return .float(SlotValue.unboxed(value))
        case .dateAttributeType where given == Date.self: return .date(SlotValue.unboxed(value))
        case .stringAttributeType where given == String.self: return .string(SlotValue.unboxed(value))
        case .decimalAttributeType where given == Decimal.self, .binaryDataAttributeType where given == Data.self,
             .UUIDAttributeType where given == UUID.self, .URIAttributeType where given == URL.self:
            return .boxed(value)
        default: return SlotValue(attribute: coerce(value, for: attribute()))
        }
    }

    /// `value` as the Swift type of `attribute`'s type, or nil when it can't be.
    static func converted(_ value: Any, for attribute: NSAttributeDescription) -> Any? {
        convert(value, to: attribute.attributeType)
    }

    private static func convert(_ value: Any, to type: NSAttributeType) -> Any? {
        switch type {
        case .integer16AttributeType: return integer(value, as: Int16.self)
        case .integer32AttributeType: return integer(value, as: Int32.self)
        case .integer64AttributeType: return integer(value, as: Int64.self)
        case .doubleAttributeType: return floatingPoint(value).map { Double($0) }
        case .floatAttributeType: return floatingPoint(value).map { Float($0) }
        case .decimalAttributeType:
            if let decimal = value as? Decimal { return decimal }
            if let int = value as? any BinaryInteger, let exact = Int64(exactly: int) { return Decimal(exact) }
            if let double = value as? Double { return Decimal(double) }
            if let number = value as? NSNumber { return number.decimalValue }
            return nil
        case .booleanAttributeType:
            if let bool = value as? Bool { return bool }
            if let number = value as? NSNumber { return number.boolValue }
            return nil
        case .stringAttributeType: return value as? String
        case .dateAttributeType: return value as? Date
        case .binaryDataAttributeType: return value as? Data
        case .UUIDAttributeType: return value as? UUID
        case .URIAttributeType: return value as? URL
        case .objectIDAttributeType: return value as? NSManagedObjectID
        case .undefinedAttributeType, .transformableAttributeType, .compositeAttributeType: return value
        }
    }

    /// Any number fits, as in Core Data, which takes any NSNumber (Swift's
    /// Bool and Double bridge to one): a fraction is cut toward zero, as the
    /// NSNumber's `int64Value` reads it; a value out of the type's range does not fit.
    /// Not `value is Bool` to tell numbers apart: on Linux an NSNumber holding 0 or 1
    /// (of any objCType) casts to Bool.
    private static func integer<T: FixedWidthInteger>(_ value: Any, as: T.Type) -> T? {
        if let int = value as? any BinaryInteger { return T(exactly: int) }
        guard let number = value as? NSNumber else { return nil }
        switch UInt8(bitPattern: number.objCType.pointee) {
        case UInt8(ascii: "f"), UInt8(ascii: "d"):
            let real = number.doubleValue
            return real.isFinite ? T(exactly: real.rounded(.towardZero)) : nil
        case UInt8(ascii: "Q"), UInt8(ascii: "L"): return T(exactly: number.uint64Value)
        default: return T(exactly: number.int64Value)
        }
    }

    private static func floatingPoint(_ value: Any) -> Double? {
        if let double = value as? Double { return double }
        if let float = value as? Float { return Double(float) }
        if let int = value as? any BinaryInteger { return Double(int) }
        if let number = value as? NSNumber { return number.doubleValue }
        return nil
    }

    /// The Swift type values of `type` are stored as; nil for the types that
    /// keep what they are given (or an object ID).
    private static func storedType(_ type: NSAttributeType) -> Any.Type? {
        switch type {
        case .integer16AttributeType: Int16.self
        case .integer32AttributeType: Int32.self
        case .integer64AttributeType: Int64.self
        case .doubleAttributeType: Double.self
        case .floatAttributeType: Float.self
        case .decimalAttributeType: Decimal.self
        case .booleanAttributeType: Bool.self
        case .stringAttributeType: String.self
        case .dateAttributeType: Date.self
        case .binaryDataAttributeType: Data.self
        case .UUIDAttributeType: UUID.self
        case .URIAttributeType: URL.self
        default: nil
        }
    }

    /// Looks through an `Optional` boxed in `Any`.
    static func unwrapped(_ value: Any?) -> Any? {
        guard let value else { return nil }
        // The cast to a protocol existential is a conformance lookup (a walk up
        // the superclass chain for objects) on every property of every saved
        // object; attribute values and objects are never Optional, and their
        // types are known by identity.
        let type = Swift.type(of: value)
        if isPlain(type) || type is AnyClass { return value }
        if let optional = value as? any OptionalBox { return optional.boxedValue }
        return value
    }

    /// Whether `type` is one of the attribute value types. A switch of
    /// pointer comparisons: hashing into a set cost more, three times per
    /// property of every saved object.
    private static func isPlain(_ type: Any.Type) -> Bool {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(Int64.self), ObjectIdentifier(String.self), ObjectIdentifier(Double.self), ObjectIdentifier(Date.self),
             ObjectIdentifier(Int.self), ObjectIdentifier(Int16.self), ObjectIdentifier(Int32.self), ObjectIdentifier(Float.self),
             ObjectIdentifier(Bool.self), ObjectIdentifier(Decimal.self), ObjectIdentifier(Data.self), ObjectIdentifier(UUID.self),
             ObjectIdentifier(URL.self):
            return true
        default:
            return false
        }
    }
}

protocol OptionalBox { var boxedValue: Any? { get } }
extension Optional: OptionalBox {
    var boxedValue: Any? { self.flatMap { ValueCoercion.unwrapped($0) } }
}
