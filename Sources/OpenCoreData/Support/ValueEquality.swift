/// Equality of untyped values (`Any?`), as Foundation's `isEqual:` decides it
/// for property lists: numbers by value whatever their Swift type, strings,
/// dates, data, arrays and dictionaries element by element.
enum ValueEquality {
    static func equal(_ lhs: Any?, _ rhs: Any?) -> Bool {
        // Two values of one common attribute type, or one object twice,
        // compare directly: the unwrapping and casts below are conformance
        // lookups, and validation compares every property of every saved
        // object. Unequal ones still go through the casts, which decide them as before.
        if storedEqual(lhs, rhs) { return true }
        switch (ValueCoercion.unwrapped(lhs), ValueCoercion.unwrapped(rhs)) {
        case (nil, nil): return true
        case (nil, _), (_, nil): return false
        case let (l?, r?):
            // The same instance is equal to itself: spares comparing a to-many
            // set element by element when validation handed it back unchanged.
            if type(of: l) is AnyClass, type(of: r) is AnyClass, (l as AnyObject) === (r as AnyObject) { return true }
            if let l = l as? [Any], let r = r as? [Any] {
                return l.count == r.count && zip(l, r).allSatisfy { equal($0, $1) }
            }
            if let l = l as? [AnyHashable: Any], let r = r as? [AnyHashable: Any] {
                return equalDictionaries(l, r)
            }
            if let l = l as? AnyHashable, let r = r as? AnyHashable, l == r { return true }
            if let l = l as? NSObject, let r = r as? NSObject { return l.isEqual(r) }
            if let l = l as? NSNumber, let r = r as? NSNumber { return l == r }
            return false
        }
    }

    /// Whether `lhs` and `rhs` are both present, stored as one type (their
    /// containers' metadata words), and equal by that type's own `==` or one
    /// object. Read in place: unwrapping each `Any?` with `if let` copied its
    /// container through the value witnesses (~120 instructions each), and
    /// `type(of:)` asked the runtime (~55). An `Any?` holding a value has the
    /// layout of an `Any`; nil leaves no type metadata in the metadata word.
    private static func storedEqual(_ lhs: Any?, _ rhs: Any?) -> Bool {
        withUnsafePointer(to: lhs) { l in
            withUnsafePointer(to: rhs) { r in
                let offset = 3 * MemoryLayout<Int>.size
                let lType = UnsafeRawPointer(l).load(fromByteOffset: offset, as: UInt.self)
                // Below the first page: no metadata, so nil (Optional's extra inhabitants live there).
                guard lType >= 4096, lType == UnsafeRawPointer(r).load(fromByteOffset: offset, as: UInt.self) else {
                    return false
                }
                let type = unsafeBitCast(lType, to: Any.Type.self)
                if sameTypeEqual(UnsafeRawPointer(l), UnsafeRawPointer(r), type) { return true }
                // One object twice: compared by the references the two containers hold, where
                // `as? NSObject` cost two dynamic casts (and `as AnyObject`, below, the bridging machinery).
                let leftWord = UnsafeRawPointer(l).load(as: UInt.self)
                return type is AnyClass && leftWord == UnsafeRawPointer(r).load(as: UInt.self)
            }
        }
    }

    /// Whether the values in the containers at `l` and `r`, both stored as
    /// `type`, are equal by the type's own `==`; false for unequal values and
    /// for types not listed. Each listed type lies in the container's buffer
    /// (at most three words, moved bitwise: see `AnyContainer`), where it is
    /// read; `as!` was a dynamic cast each.
    private static func sameTypeEqual(_ l: UnsafeRawPointer, _ r: UnsafeRawPointer, _ type: Any.Type) -> Bool {
        func same<T: Equatable>(_: T.Type) -> Bool { l.load(as: T.self) == r.load(as: T.self) }
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(Int64.self): return same(Int64.self)
        case ObjectIdentifier(Int32.self): return same(Int32.self)
        case ObjectIdentifier(Int16.self): return same(Int16.self)
        case ObjectIdentifier(Int.self): return same(Int.self)
        case ObjectIdentifier(Double.self): return same(Double.self)
        case ObjectIdentifier(Float.self): return same(Float.self)
        case ObjectIdentifier(Bool.self): return same(Bool.self)
        case ObjectIdentifier(String.self): return same(String.self)
        case ObjectIdentifier(Date.self): return same(Date.self)
        case ObjectIdentifier(Data.self): return same(Data.self)
        case ObjectIdentifier(UUID.self): return same(UUID.self)
        case ObjectIdentifier(Decimal.self): return same(Decimal.self)
        case ObjectIdentifier(URL.self): return same(URL.self)
        default: return false
        }
    }

    static func equalDictionaries(_ lhs: [AnyHashable: Any]?, _ rhs: [AnyHashable: Any]?) -> Bool {
        let l = lhs ?? [:], r = rhs ?? [:]
        return l.count == r.count && l.allSatisfy { key, value in r[key].map { equal(value, $0) } ?? false }
    }
}
