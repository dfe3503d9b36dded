// What changed in an object since it was last saved or loaded, and since
// the current event began. Each call compares every loaded property with
// the committed record, so it costs one comparison per property.

extension NSManagedObject {
    /// The properties whose values differ from the last saved ones, with
    /// their new values (to-many as sets). For a new object: every property set.
    public func changedValues() -> [String: Any] {
        guard !isFaultStorage else { return [:] }
        return changes(since: committed.map(snapshotValues) ?? [:], all: committed == nil)
    }

    /// The properties changed since the last `processPendingChanges()`.
    public func changedValuesForCurrentEvent() -> [String: Any] {
        guard !isFaultStorage, let baseline = eventBaseline else { return [:] }
        return changes(since: baseline, all: false)
    }

    /// Whether any persistent (non-transient) property differs from its saved value.
    public var hasPersistentChangedValues: Bool {
        changedValues().keys.contains { entity.propertiesByName[$0]?.isTransient == false }
    }

    /// The last saved values of `keys` (every property for nil), relationship
    /// destinations as objects of this context. Costs one store read if the
    /// object's record is not cached.
    public func committedValues(forKeys keys: [String]?) -> [String: Any] {
        guard let committed = committed ?? (isFaultStorage ? (try? managedObjectContext?.loadRow(for: objectID))??.snapshot : nil),
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
            let changed = all ? !isEmpty(values[key]) : !same(values[key], baseline[key], property)
            if changed { result[key] = publicValue(forKey: key, property: property) ?? NSNull() }
        }
        return result
    }

    /// Whether two values of `property` are the same: attributes by value,
    /// relationships by destination IDs (in order only for ordered ones).
    private func same(_ lhs: Any?, _ rhs: Any?, _ property: NSPropertyDescription) -> Bool {
        guard let relationship = property as? NSRelationshipDescription else { return ValueEquality.equal(lhs, rhs) }
        let l = ids(lhs), r = ids(rhs)
        return relationship.isOrdered ? l == r : Set(l) == Set(r)
    }

    private func isEmpty(_ value: Any?) -> Bool {
        guard let value else { return true }
        return (value as? ManagedObjectSet)?.isEmpty ?? (value as? ToManyFault)?.ids.isEmpty ?? false
    }

    /// Destination IDs of a stored value (objects) or a snapshot value (IDs).
    private func ids(_ value: Any?) -> [NSManagedObjectID] {
        switch value {
        case let object as NSManagedObject: return [object.objectID]
        case let set as ManagedObjectSet: return set.objects.map(\.objectID)
        case let fault as ToManyFault: return fault.ids
        case let id as NSManagedObjectID: return [id]
        case let ids as [NSManagedObjectID]: return ids
        default: return []
        }
    }

    private func snapshotValues(_ snapshot: StoreSnapshot) -> [String: Any] {
        var result = snapshot.attributes
        for (key, id) in snapshot.toOne { result[key] = id }
        for (key, ids) in snapshot.toMany { result[key] = ids }
        return result
    }
}
