// Loading objects from the store: firing faults, and refreshing objects
// from their records.

extension NSManagedObjectContext {
    /// The committed record of `objectID`, or nil when its store has none.
    func loadSnapshot(for objectID: NSManagedObjectID) throws -> StoreSnapshot? {
        guard let store = objectID.persistentStore, let coordinator = persistentStoreCoordinator else { return nil }
        return try coordinator.performStoreAccess { try store.snapshots(for: [objectID])[objectID] }
    }

    /// Loads a fault's values from its record; costs one store read.
    func fulfillFault(_ object: NSManagedObject) {
        if let snapshot = try? loadSnapshot(for: object.objectID) {
            fulfill(object, with: snapshot)
            return
        }
        guard shouldDeleteInaccessibleFaults else {
            preconditionFailure("CoreData could not fulfill a fault for '\(object.objectID)'")
        }
        object.isFaultStorage = false
        object.isInaccessible = true
        object.values = [:]
    }

    /// Loads the values of every fault among `objects` with one store read
    /// per store and batch, instead of one per object.
    func fulfillFaults(_ objects: [NSManagedObject]) {
        let faults = objects.filter { $0.isFault && $0.managedObjectContext === self && $0.objectID.persistentStore != nil }
        guard let coordinator = persistentStoreCoordinator, !faults.isEmpty else { return }
        for batch in stride(from: 0, to: faults.count, by: 1000).map({ faults[$0..<min($0 + 1000, faults.count)] }) {
            let snapshots = try? coordinator.performStoreAccess {
                try Dictionary(grouping: batch.map(\.objectID), by: { ObjectIdentifier($0.persistentStore!) }).values
                    .reduce(into: [NSManagedObjectID: StoreSnapshot]()) { all, ids in
                        all.merge(try ids[0].persistentStore!.snapshots(for: ids)) { a, _ in a }
                    }
            }
            for object in batch where object.isFault {
                if let snapshot = snapshots?[object.objectID] { fulfill(object, with: snapshot) }
            }
        }
    }

    func fulfill(_ object: NSManagedObject, with snapshot: StoreSnapshot) {
        object.isFaultStorage = false
        object.isInaccessible = false
        apply(snapshot, to: object)
        object.awakeFromFetch()
    }

    /// Makes `snapshot` the object's values and its committed state. Transient
    /// attributes start at their defaults.
    func apply(_ snapshot: StoreSnapshot, to object: NSManagedObject) {
        var values = snapshot.attributes
        for (name, attribute) in object.entity.attributesByName where attribute.isTransient {
            values[name] = attribute.defaultValue.map { ValueCoercion.coerce($0, for: attribute) } ?? nil
        }
        for (name, id) in snapshot.toOne { values[name] = self.object(with: id) }
        for (name, ids) in snapshot.toMany { values[name] = ManagedObjectSet(ids.map { self.object(with: $0) }) }
        object.values = values
        object.committed = snapshot
    }

    /// Refreshes `object` from its record. With `flag` false the object turns
    /// into a fault and loses its unsaved changes; with true its values are
    /// reloaded and its unsaved changes applied again on top.
    public func refresh(_ object: NSManagedObject, mergeChanges flag: Bool) {
        guard object.managedObjectContext === self, !object.isInsertedFlag, !object.isFault else { return }
        event.refreshed.append(object)
        if flag {
            let changes = object.changedValues()
            guard let snapshot = try? loadSnapshot(for: object.objectID) else { return }
            apply(snapshot, to: object)
            for (key, value) in changes { object.values[key] = Self.storageValue(value, for: object, key: key) }
            if changes.isEmpty, object.isUpdatedFlag {
                object.isUpdatedFlag = false
                updated.remove(object)
            }
            object.awakeFromFetch()
        } else {
            object.willTurnIntoFault()
            if object.isUpdatedFlag {
                object.isUpdatedFlag = false
                updated.remove(object)
            }
            object.values = [:]
            object.isFaultStorage = true
            object.didTurnIntoFault()
        }
    }

    /// Refreshes every registered object: changed ones keep their changes on
    /// top of reloaded values, the others turn into faults.
    public func refreshAllObjects() {
        for object in Array(registered.values) { refresh(object, mergeChanges: object.hasChanges) }
    }

    /// A public value (`NSSet` for to-many) back in storage form.
    static func storageValue(_ value: Any, for object: NSManagedObject, key: String) -> Any? {
        switch value {
        case let set as NSOrderedSet: return ManagedObjectSet(set.array.compactMap { $0 as? NSManagedObject })
        case let set as NSSet: return ManagedObjectSet(set.allObjects.compactMap { $0 as? NSManagedObject })
        case is NSNull: return nil
        default: return value
        }
    }
}
