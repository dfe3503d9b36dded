// Loading objects from the store: firing faults, and refreshing objects
// from their records.

extension NSManagedObjectContext {
    /// The committed record of `objectID`: the coordinator's cached row when
    /// one is at most `stalenessInterval` old, otherwise read from the store
    /// (and cached); nil when the store has no such record.
    func loadRow(for objectID: NSManagedObjectID) throws -> StoreRowCache.Row? {
        guard let store = objectID.persistentStore, let coordinator = persistentStoreCoordinator else { return nil }
        if let row = coordinator.rowCache.row(for: objectID, maxAge: stalenessInterval) { return row }
        // Cached inside the store access, so that no save can come between the read and its caching.
        return try coordinator.performStoreAccess {
            try store.snapshots(for: [objectID])[objectID].map(coordinator.rowCache.rememberRead)
        }
    }

    /// Loads a fault's values from its record: the cached row, or one store read.
    func fulfillFault(_ object: NSManagedObject) {
        if let row = try? loadRow(for: object.objectID) {
            fulfill(object, with: row)
            return
        }
        guard shouldDeleteInaccessibleFaults else {
            preconditionFailure("CoreData could not fulfill a fault for '\(object.objectID)'")
        }
        object.isFaultStorage = false
        object.isInaccessible = true
        object.values.removeAll()
    }

    /// Loads the values of every fault among `objects`: cached rows first, the
    /// rest with one store read per store and batch of 1000, instead of one
    /// per object.
    func fulfillFaults(_ objects: [NSManagedObject]) {
        guard let coordinator = persistentStoreCoordinator else { return }
        var faults: [NSManagedObject] = []
        for object in objects where object.isFault && object.managedObjectContext === self && object.objectID.persistentStore != nil {
            if let row = coordinator.rowCache.row(for: object.objectID, maxAge: stalenessInterval) {
                fulfill(object, with: row)
            } else {
                faults.append(object)
            }
        }
        let rows = readRows(faults.map(\.objectID))
        for object in faults where object.isFault {
            if let row = rows[object.objectID] { fulfill(object, with: row) }
        }
    }

    /// The current records of `ids` read from their stores (one read per
    /// store and batch of 1000), now the cached rows; a failed read leaves
    /// its IDs out.
    func readRows(_ ids: [NSManagedObjectID]) -> [ObjectKey: StoreRowCache.Row] {
        guard let coordinator = persistentStoreCoordinator else { return [:] }
        var rows: [ObjectKey: StoreRowCache.Row] = [:]
        for batch in stride(from: 0, to: ids.count, by: 1000).map({ ids[$0..<min($0 + 1000, ids.count)] }) {
            let read = try? coordinator.performStoreAccess {
                let snapshots = try Dictionary(grouping: batch.filter { $0.persistentStore != nil },
                                               by: { ObjectIdentifier($0.persistentStore!) }).values
                    .reduce(into: [StoreSnapshot]()) { all, ids in
                        all += try ids[0].persistentStore!.snapshots(for: ids).values
                    }
                return coordinator.rowCache.rememberRead(contentsOf: snapshots)
            }
            for row in read ?? [] { rows[row.snapshot.objectID] = row }
        }
        return rows
    }

    /// Reads the unread to-many relationships of `objects` (only
    /// `relationship` when given) from their stores: one read per store,
    /// relationship and 500 owners, instead of one per object.
    func readToManyFaults(of objects: [NSManagedObject], only relationship: NSRelationshipDescription? = nil) {
        guard let coordinator = persistentStoreCoordinator else { return }
        struct Group: Hashable { let store, relationship: ObjectIdentifier }
        var owners: [Group: (NSPersistentStore, NSRelationshipDescription, Int, [NSManagedObject])] = [:]
        for object in objects where object.managedObjectContext === self && !object.isFault {
            guard let store = object.objectID.persistentStore else { continue }
            let layout = object.values.layout
            for (slot, property) in layout.properties.enumerated() where object.values[slot].isUnread {
                guard let toMany = property as? NSRelationshipDescription,
                      relationship.map({ $0 === toMany }) ?? true else { continue }
                let group = Group(store: ObjectIdentifier(store), relationship: ObjectIdentifier(toMany))
                owners[group, default: (store, toMany, slot, [])].3.append(object)
            }
        }
        for (store, toMany, slot, group) in owners.values {
            let read = (try? coordinator.performStoreAccess {
                try store.destinations(of: group.map(\.objectID), via: toMany)
            }) ?? [:]
            for object in group { object.fillUnreadToMany(slot, with: read[object.objectID] ?? []) }
        }
    }

    func fulfill(_ object: NSManagedObject, with row: StoreRowCache.Row) {
        object.isFaultStorage = false
        object.isInaccessible = false
        apply(row, to: object)
        object.awakeFromFetch()
    }

    /// Makes `row` the object's values and its committed state: the object
    /// shares the record's slots (relationships stay IDs until used) and
    /// copies them only when it has transient attributes, which start at
    /// their defaults.
    func apply(_ row: StoreRowCache.Row, to object: NSManagedObject) {
        var values = PropertyValues(layout: object.values.layout, slots: row.snapshot.values)
        for attribute in object.entity.transientAttributes {
            let value = attribute.defaultValue.map { ValueCoercion.coerce($0, for: attribute) } ?? nil
            values[values.layout.slot(of: attribute)] = SlotValue(attribute: value)
        }
        // Transient defaults are where the record leaves off, not changes to it.
        values.forgetChanges()
        object.values = values
        object.committedRow = row
    }

    /// Refreshes `object` from its record. With `flag` false the object turns
    /// into a fault and loses its unsaved changes; with true its values are
    /// reloaded and its unsaved changes applied again on top.
    public func refresh(_ object: NSManagedObject, mergeChanges flag: Bool) {
        guard object.managedObjectContext === self, !object.isInsertedFlag, !object.isFault else { return }
        event.refreshed.append(object)
        if flag {
            guard let row = try? loadRow(for: object.objectID) else { return }
            reload(object, from: row)
        } else {
            object.willTurnIntoFault()
            if object.isUpdatedFlag {
                object.isUpdatedFlag = false
                updated.remove(object)
            }
            object.values.removeAll()
            // The record is let go too: the fault reads the row cache or the store when it fires.
            object.committedRow = nil
            object.isFaultStorage = true
            object.didTurnIntoFault()
        }
    }

    /// Makes `row` the values of a loaded object, with its unsaved changes
    /// applied again on top.
    func reload(_ object: NSManagedObject, from row: StoreRowCache.Row) {
        let changes = object.changedValues()
        apply(row, to: object)
        for (key, value) in changes {
            let property = object.property(named: key)
            let stored = Self.storageValue(value, for: object, key: key)
            object.values[object.values.layout.slot(of: property)] = SlotValue(stored, of: property)
        }
        if changes.isEmpty, object.isUpdatedFlag {
            object.isUpdatedFlag = false
            updated.remove(object)
        }
        object.awakeFromFetch()
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
