/// Recognising the collections a key path can yield: Swift arrays and sets,
/// `NSArray`, `NSSet`, `NSOrderedSet`. Dictionaries and strings are not collections here.
enum Collections {
    /// The elements of a collection, in order where it has one; nil for anything else.
    ///
    /// Cost: a few dynamic casts, then a copy of the elements.
    static func elements(of value: Any) -> [Any]? {
        let type = type(of: value)
        if type == Int.self || type == String.self || type == Double.self || type == Bool.self || type == Date.self { return nil }
        if type is AnyObject.Type {
            if let array = value as? NSArray { return array.map { $0 } }
            if let set = value as? NSOrderedSet { return set.array }
            if let set = value as? NSSet { return set.allObjects }
            return nil
        }
        if let array = value as? [Any] { return array }
        if let set = value as? Set<AnyHashable> { return set.map(\.base) }
        if let array = value as? NSArray { return array.map { $0 } }
        if let set = value as? NSOrderedSet { return set.array }
        if let set = value as? NSSet { return set.allObjects }
        return nil
    }

    /// Whether a collection has an order (arrays and ordered sets do, sets do not).
    static func isOrdered(_ value: Any) -> Bool {
        !(value is Set<AnyHashable> || (value is NSSet && !(value is NSOrderedSet)))
    }

    /// The values of a dictionary (what `IN` looks through), nil for anything else.
    static func dictionaryValues(of value: Any) -> [Any]? {
        if let dictionary = value as? [AnyHashable: Any] { return Array(dictionary.values) }
        if let dictionary = value as? NSDictionary { return dictionary.allValues }
        return nil
    }
}
