import OpenCoreData

/// The accessors Xcode generates for a to-many relationship (`addToPhotos(_:)`,
/// `insertIntoPhotos(_:at:)`, ...), with the same signatures. They change the
/// relationship through `mutableSetValue(forKey:)` /
/// `mutableOrderedSetValue(forKey:)`, so inverses and change tracking follow.
struct RelationshipAccessorsTemplate {
    let relationship: NSRelationshipDescription
    let className: String
    let destinationName: String

    func text() -> String {
        let key = relationship.name
        let suffix = SwiftIdentifier.capitalized(key)
        let value = destinationName
        var methods: [String] = []
        if relationship.isOrdered {
            let ordered = "self.mutableOrderedSetValue(forKey: \"\(key)\")"
            methods += [
                method("insertInto\(suffix)(_ value: \(value), at idx: Int)", "\(ordered).insert(value, at: idx)"),
                method("removeFrom\(suffix)(at idx: Int)", "\(ordered).removeObject(at: idx)"),
                method("insertInto\(suffix)(_ values: [\(value)], at indexes: NSIndexSet)",
                       "let set = \(ordered)\n        for (value, index) in zip(values, indexes) { set.insert(value, at: index) }"),
                method("removeFrom\(suffix)(at indexes: NSIndexSet)",
                       "let set = \(ordered)\n        for index in indexes.reversed() { set.removeObject(at: index) }"),
                method("replace\(suffix)(at idx: Int, with value: \(value))", "\(ordered).replaceObject(at: idx, with: value)"),
                method("replace\(suffix)(at indexes: NSIndexSet, with values: [\(value)])",
                       "let set = \(ordered)\n        for (index, value) in zip(indexes, values) { set.replaceObject(at: index, with: value) }"),
                method("addTo\(suffix)(_ value: \(value))", "\(ordered).add(value)"),
                method("removeFrom\(suffix)(_ value: \(value))", "\(ordered).remove(value)"),
                method("addTo\(suffix)(_ values: NSOrderedSet)",
                       "let set = \(ordered)\n        for value in values.array { set.add(value) }"),
                method("removeFrom\(suffix)(_ values: NSOrderedSet)",
                       "let set = \(ordered)\n        for value in values.array { set.remove(value) }"),
            ]
        } else {
            let unordered = "self.mutableSetValue(forKey: \"\(key)\")"
            methods += [
                method("addTo\(suffix)(_ value: \(value))", "\(unordered).add(value)"),
                method("removeFrom\(suffix)(_ value: \(value))", "\(unordered).remove(value)"),
                method("addTo\(suffix)(_ values: NSSet)",
                       "let set = \(unordered)\n        for value in values.allObjects { set.add(value) }"),
                method("removeFrom\(suffix)(_ values: NSSet)",
                       "let set = \(unordered)\n        for value in values.allObjects { set.remove(value) }"),
            ]
        }
        return "// MARK: Generated accessors for \(key)\nextension \(className) {\n\n" + methods.joined() + "}\n"
    }

    private func method(_ signature: String, _ body: String) -> String {
        "    public func \(signature) {\n        \(body)\n    }\n\n"
    }
}
