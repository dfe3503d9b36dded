import Foundation

/// What `@ManagedAccessor` functions call: Xcode's generated relationship accessors (`addToPhotos(_:)`,
/// `removeFromPhotos(at:)`, `insertIntoPhotos(_:at:)`, `replacePhotos(at:with:)`, …) carried out through the
/// relationship's mutable set or ordered set, so changes are tracked and inverses maintained. Each call costs one
/// relationship lookup and what the set operations cost.
public enum ManagedRelationshipAccessors {
    /// Adds one object, or every object of a set, ordered set or array, to the relationship.
    public static func add(_ value: Any, to relationship: String, of object: NSManagedObject) {
        append(objects(value), to: key(relationship, of: object), of: object)
    }

    /// Removes one object, or every object of a set, ordered set or array, from the relationship.
    public static func remove(_ value: Any, from relationship: String, of object: NSManagedObject) {
        remove(objects(value), from: key(relationship, of: object), of: object)
    }

    /// Adds `members` to the to-many relationship `key` of `object` (at the end when it is ordered). Only the
    /// mutable sets' primitive operations are used: Foundation on Linux implements the others on its own storage.
    static func append(_ members: [NSManagedObject], to key: String, of object: NSManagedObject) {
        if object.entity.relationshipsByName[key]?.isOrdered == true {
            let set = object.mutableOrderedSetValue(forKey: key)
            for member in members where set.index(of: member) == NSNotFound { set.insert(member, at: set.count) }
        } else {
            let set = object.mutableSetValue(forKey: key)
            for member in members { set.add(member) }
        }
    }

    /// Removes `members` from the to-many relationship `key` of `object`.
    static func remove(_ members: [NSManagedObject], from key: String, of object: NSManagedObject) {
        if object.entity.relationshipsByName[key]?.isOrdered == true {
            let set = object.mutableOrderedSetValue(forKey: key)
            for member in members {
                let index = set.index(of: member)
                if index != NSNotFound { set.removeObject(at: index) }
            }
        } else {
            let set = object.mutableSetValue(forKey: key)
            for member in members { set.remove(member) }
        }
    }

    /// The destinations of the to-many relationship `key` of `object`, in order for an ordered one.
    static func members(of key: String, of object: NSManagedObject) -> [NSManagedObject] {
        let value = object.value(forKey: key)
        return value.map(objects) ?? []
    }

    /// Removes the objects at an index or at the indexes of an index set from an ordered relationship.
    public static func remove(at index: Any, from relationship: String, of object: NSManagedObject) {
        let set = object.mutableOrderedSetValue(forKey: key(relationship, of: object))
        for position in indexes(index).reversed() { set.removeObject(at: position) }
    }

    /// Inserts one object at an index, or objects at the indexes of an index set, into an ordered relationship.
    public static func insert(_ value: Any, at index: Any, into relationship: String, of object: NSManagedObject) {
        let set = object.mutableOrderedSetValue(forKey: key(relationship, of: object))
        for (member, position) in zip(objects(value), indexes(index)) { set.insert(member, at: position) }
    }

    /// Replaces the object at an index, or the objects at the indexes of an index set, in an ordered relationship.
    public static func replace(at index: Any, with value: Any, in relationship: String, of object: NSManagedObject) {
        let set = object.mutableOrderedSetValue(forKey: key(relationship, of: object))
        for (position, member) in zip(indexes(index), objects(value)) { set.replaceObject(at: position, with: member) }
    }

    /// The relationship's name: Xcode capitalizes its first letter in the function's name.
    private static func key(_ relationship: String, of object: NSManagedObject) -> String {
        let names = object.entity.relationshipsByName
        let lowered = relationship.prefix(1).lowercased() + relationship.dropFirst()
        if names[lowered] != nil { return lowered }
        if names[relationship] != nil { return relationship }
        preconditionFailure("Entity \(object.entity.name ?? "") has no relationship '\(lowered)' for the accessors of "
            + "'\(relationship)'; its relationships are \(names.keys.sorted())")
    }

    private static func objects(_ value: Any) -> [NSManagedObject] {
        switch value {
        case let object as NSManagedObject: [object]
        case let set as NSOrderedSet: set.array.compactMap { $0 as? NSManagedObject }
        case let set as NSSet: set.allObjects.compactMap { $0 as? NSManagedObject }
        case let array as [Any]: array.compactMap { $0 as? NSManagedObject }
        case let set as Set<NSManagedObject>: Array(set)
        default: preconditionFailure("A relationship accessor was given \(type(of: value)), not objects")
        }
    }

    private static func indexes(_ value: Any) -> [Int] {
        switch value {
        case let index as Int: [index]
        case let set as IndexSet: Array(set)
        case let set as NSIndexSet: Array(set as IndexSet)
        default: preconditionFailure("A relationship accessor was given \(type(of: value)), not an index")
        }
    }
}
