/// Reading key paths (`department.manager.name`, `employees.@avg.salary`) from
/// KeyValueCoding objects, dictionaries and collections.
///
/// Through a to-many relationship a key yields the collection of the related
/// objects' values (flattened when it crosses several to-many relationships,
/// as Core Data's fetches do); NULLs are dropped from such collections. A
/// collection operator (`@count`, `@sum`, …) applies to the collection before it
/// and reads the rest of the path from its elements.
enum KeyPathValue {
    /// How many values one key may yield from a collection (see ``value(of:key:)``).
    static let maximumValues = 1_000_000

    static func value(of object: Any?, keyPath: String) throws(PredicateEvaluationError) -> Any? {
        var current = Values.normalized(object)
        if !keyPath.utf8.contains(UInt8(ascii: ".")) && !keyPath.hasPrefix("@") {
            return try value(of: current, key: keyPath)  // the common single key, without splitting
        }
        var components = keyPath.split(separator: ".", omittingEmptySubsequences: false)[...]
        while let first = components.first {
            components = components.dropFirst()
            let key = String(first)
            if key.hasPrefix("@") {
                return try collectionOperator(key, on: current, rest: components.joined(separator: "."), keyPath: keyPath)
            }
            current = try value(of: current, key: key)
        }
        return current
    }

    /// One key: `SELF` is the object itself; collections map the key over their elements.
    static func value(of object: Any?, key: String) throws(PredicateEvaluationError) -> Any? {
        guard let object = Values.normalized(object) else { return nil }
        if key == "self" || key == "SELF" { return object }
        if type(of: object) is AnyObject.Type {
            // A managed object, the common case (sort keys, section names, predicates evaluated in
            // memory): a class check, where the protocol casts below look conformances up.
            if let managed = object as? NSManagedObject { return try entityValue(of: managed, key: key) }
            if let kvc = object as? KeyValueCoding { return try value(of: kvc, key: key) }
            if let dictionary = object as? NSDictionary { return Values.normalized(dictionary.object(forKey: key)) }
        } else {
            if let dictionary = object as? [String: Any] { return Values.normalized(dictionary[key]) }
            if let kvc = object as? KeyValueCoding { return try value(of: kvc, key: key) }
        }
        if let elements = Collections.elements(of: object) {
            var values: [Any] = []
            values.reserveCapacity(elements.count)
            for element in elements {
                guard let value = try self.value(of: element, key: key) else { continue }
                if let nested = Collections.elements(of: value) { values.append(contentsOf: nested) } else { values.append(value) }
                // Each to-many step multiplies (`members.team.members.team…`), so a short
                // path can ask for more values than memory holds; it fails instead.
                guard values.count <= maximumValues else {
                    throw PredicateEvaluationError("The key \"\(key)\" yields more than \(maximumValues) values; a key path through to-many relationships multiplies them at each step")
                }
            }
            return values
        }
        if let string = Values.string(object), key == "length" { return string.utf16.count }
        throw PredicateEvaluationError("\(type(of: object)) is not key value coding-compliant for the key \"\(key)\": only KeyValueCoding objects, dictionaries and collections have keys")
    }

    /// The value of `key` of a key-value coding object. An object whose keys
    /// are its entity's properties (a managed object, a stored record) has
    /// its key checked first: KeyValueCoding stops the program on an unknown
    /// key, which here, where key paths come from predicates, is an error.
    private static func value(of object: KeyValueCoding, key: String) throws(PredicateEvaluationError) -> Any? {
        if let entityObject = object as? EntityKeyValueCoding { return try entityValue(of: entityObject, key: key) }
        return Values.normalized(object.value(forKey: key))
    }

    /// The value of `key` of an object whose keys are its entity's properties.
    private static func entityValue(of object: some EntityKeyValueCoding, key: String)
        throws(PredicateEvaluationError) -> Any? {
        guard object.keyValueEntity.propertiesByName[key] != nil else {
            let entity = object.keyValueEntity.name ?? ""
            throw PredicateEvaluationError(
                "The entity \(entity) is not key value coding-compliant for the key \"\(key)\"")
        }
        return Values.normalized(object.value(forKey: key))
    }

    /// `@count`, `@sum`, `@avg`, `@min`, `@max` and the `@…UnionOf…` operators.
    private static func collectionOperator(_ name: String, on object: Any?, rest: String, keyPath: String) throws(PredicateEvaluationError) -> Any? {
        guard let object else { return nil }
        guard let elements = Collections.elements(of: object) ?? (name == "@count" ? Collections.dictionaryValues(of: object) : nil) else {
            throw PredicateEvaluationError("\(name) in \"\(keyPath)\" applies to a collection, not to \(type(of: object))")
        }
        if name == "@count" && rest.isEmpty { return elements.count }
        var values: [Any] = []
        for element in elements {
            guard let value = try rest.isEmpty ? Values.normalized(element) : value(of: element, keyPath: rest) else { continue }
            values.append(value)
        }
        switch name {
        case "@count": return values.count
        case "@sum": return try Aggregates.sum(values)
        case "@avg": return try values.isEmpty ? nil : Aggregates.average(values)
        case "@min": return try Aggregates.extreme(values, wantsMaximum: false)
        case "@max": return try Aggregates.extreme(values, wantsMaximum: true)
        case "@unionOfObjects": return values
        case "@distinctUnionOfObjects": return Aggregates.distinct(values)
        case "@unionOfArrays", "@unionOfSets":
            return values.flatMap { Collections.elements(of: $0) ?? [$0] }
        case "@distinctUnionOfArrays", "@distinctUnionOfSets":
            return Aggregates.distinct(values.flatMap { Collections.elements(of: $0) ?? [$0] })
        default:
            throw PredicateEvaluationError("Unknown collection operator \(name) in \"\(keyPath)\"")
        }
    }
}

/// Key-value coding whose keys are the properties of an entity: managed
/// objects and the stores' records (every ``FetchCandidate``).
protocol EntityKeyValueCoding: KeyValueCoding {
    /// The entity whose properties are the object's keys.
    var keyValueEntity: NSEntityDescription { get }
}
