// What changed in an object since it was last saved or loaded, and since
// the current event began. Each call compares every loaded property with
// the committed record, so it costs one comparison per property.

extension NSManagedObject {
    /// The properties whose values differ from the last saved ones, with
    /// their new values (to-many as sets). For a new object: every property set.
    public func changedValues() -> [String: Any] {
        guard !isFaultStorage else { return [:] }
        return changes(since: committed.map(idValues) ?? [:], all: committed == nil)
    }

    /// The properties changed since the last `processPendingChanges()`.
    public func changedValuesForCurrentEvent() -> [String: Any] {
        guard !isFaultStorage, let baseline = eventBaseline else { return [:] }
        return changes(since: baseline.mapValues(comparable), all: false)
    }

    /// Whether any persistent (non-transient) property differs from its saved value.
    public var hasPersistentChangedValues: Bool {
        changedValues().keys.contains { entity.propertiesByName[$0]?.isTransient == false }
    }

    /// The last saved values of `keys` (every property for nil), relationship
    /// destinations as objects of this context. Costs one store read if the
    /// object's record is not cached.
    public func committedValues(forKeys keys: [String]?) -> [String: Any] {
        guard let committed = committed ?? (isFaultStorage ? try? managedObjectContext?.loadSnapshot(for: objectID) : nil),
              let context = managedObjectContext else { return [:] }
        var result: [String: Any] = [:]
        for key in keys ?? entity.properties.map(\.name) {
            guard let property = entity.propertiesByName[key] else { continue }
            if let value = committed.attributes[key] { result[key] = value }
            else if let id = committed.toOne[key] { result[key] = context.object(with: id) }
            else if let relationship = property as? NSRelationshipDescription, relationship.isToMany {
                let objects = (committed.toMany[key] ?? []).map(context.object(with:))
                result[key] = relationship.isOrdered ? NSOrderedSet(array: objects) : NSSet(array: objects)
            }
        }
        return result
    }

    private func changes(since baseline: [String: Any], all: Bool) -> [String: Any] {
        var result: [String: Any] = [:]
        for property in entity.properties {
            let key = property.name
            let current = values[key].map(comparable)
            if all ? current != nil : !ComparableValue.equal(current, baseline[key]) {
                result[key] = publicValue(key, property) ?? NSNull()
            }
        }
        return result
    }

    private func publicValue(_ key: String, _ property: NSPropertyDescription) -> Any? {
        guard let relationship = property as? NSRelationshipDescription, relationship.isToMany else { return values[key] }
        let objects = related(key).objects
        return relationship.isOrdered ? NSOrderedSet(array: objects) : NSSet(array: objects)
    }

    /// A stored value in a form that compares by identity: objects by ID.
    private func comparable(_ value: Any) -> Any {
        switch value {
        case let object as NSManagedObject: return object.objectID
        case let set as ManagedObjectSet: return set.objects.map(\.objectID)
        default: return value
        }
    }

    private func idValues(_ snapshot: StoreSnapshot) -> [String: Any] {
        var result = snapshot.attributes
        for (key, id) in snapshot.toOne { result[key] = id }
        for (key, ids) in snapshot.toMany { result[key] = ids }
        return result
    }
}

/// Equality of comparable stored values; to-many compare as sets unless ordered
/// (an order change of an ordered relationship is a change).
enum ComparableValue {
    static func equal(_ lhs: Any?, _ rhs: Any?) -> Bool {
        let l = lhs.flatMap(nonEmpty), r = rhs.flatMap(nonEmpty)
        if let l = l as? [NSManagedObjectID], let r = r as? [NSManagedObjectID] { return l == r || (Set(l) == Set(r) && l.count == r.count) }
        return ValueEquality.equal(l, r)
    }

    private static func nonEmpty(_ value: Any) -> Any? {
        if let ids = value as? [NSManagedObjectID], ids.isEmpty { return nil }
        return value
    }
}
