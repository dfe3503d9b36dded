/// Equality of untyped values (`Any?`), as Foundation's `isEqual:` decides it
/// for property lists: numbers by value whatever their Swift type, strings,
/// dates, data, arrays and dictionaries element by element.
enum ValueEquality {
    static func equal(_ lhs: Any?, _ rhs: Any?) -> Bool {
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

    static func equalDictionaries(_ lhs: [AnyHashable: Any]?, _ rhs: [AnyHashable: Any]?) -> Bool {
        let l = lhs ?? [:], r = rhs ?? [:]
        return l.count == r.count && l.allSatisfy { key, value in r[key].map { equal(value, $0) } ?? false }
    }
}
