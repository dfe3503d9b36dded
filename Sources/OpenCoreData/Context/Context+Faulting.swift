// Loading objects from the store: firing faults, and refreshing objects
// from their records.

extension NSManagedObjectContext {
    /// The committed record of `objectID`: the coordinator's cached row when
    /// one is at most `stalenessInterval` old, otherwise read from the store
    /// (and cached); nil when the store has no such record. A nested
    /// context's committed record is its parent's current state of the object.
    func loadRow(for objectID: NSManagedObjectID) throws -> StoreRowCache.Row? {
        if let parent { return askParent(parent) { parent.rowsForChild([objectID], self) }[ObjectKey(objectID)] }
        // A temporary ID names no stored record.
        guard let primaryKey = objectID.primaryKey else { return nil }
        return try loadRow(of: objectID.family, primaryKey: primaryKey)
    }

    /// `loadRow(for:)` in a context without a parent, for the permanent
    /// record of `primaryKey` in `family`, found and read without making its
    /// ID (a fault a fetch made has none until asked).
    func loadRow(of family: ObjectIDFamily, primaryKey: Int64) throws -> StoreRowCache.Row? {
        let pinned = pinnedGeneration()
        // The coordinator's cache first: it holds no row of a removed store (`remove(_:)` drops them), so a
        // cached row needs neither the family's store (a weak reference) nor the coordinator.
        if pinned == nil, let row = ownRowCache?.row(of: family, primaryKey: primaryKey, maxAge: stalenessInterval) {
            return row
        }
        guard let store = family.store, let coordinator = persistentStoreCoordinator else { return nil }
        if let pinned, let row = pinned.rowCache.row(of: family, primaryKey: primaryKey, maxAge: stalenessInterval) {
            return row
        }
        // Cached inside the store access, so that no save can come between the read and its caching.
        return try readStores(coordinator) { cache in
            // Moved out of the array, not copied.
            var found = try store.snapshots(of: family, primaryKey: primaryKey)
            return found.popLast().map(cache.rememberRead)
        }
    }

    /// Loads a fault's values from its record: the cached row, or one store read.
    func fulfillFault(_ object: NSManagedObject) {
        // A nested context's fault made by a fetch holds the record its parent gave with the result.
        if parent != nil, let row = object.committedRow {
            fulfill(object, with: row)
            return
        }
        let row: StoreRowCache.Row?
        if parent == nil, let record = object.storedRecord {
            row = try? loadRow(of: record.family, primaryKey: record.primaryKey)
        } else {
            row = try? loadRow(for: object.objectID)
        }
        if let row {
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
        // Whether every fault to read is a record of `family`, which a read by keys serves without IDs.
        var family: ObjectIDFamily?, oneFamily = parent == nil
        let cache = readCache(coordinator)
        for object in objects where object.isFault && object.managedObjectContext === self {
            if parent != nil {
                if let row = object.committedRow { fulfill(object, with: row) } else { faults.append(object) }
            } else if let record = object.storedRecord, record.family.store != nil {
                // (An object without a stored record has a temporary ID, of no store.)
                if let row = cache.row(of: record.family, primaryKey: record.primaryKey, maxAge: stalenessInterval) {
                    fulfill(object, with: row)
                    continue
                }
                if family == nil { family = record.family } else if family !== record.family { oneFamily = false }
                faults.append(object)
            }
        }
        guard !faults.isEmpty else { return }
        if oneFamily, let family {
            fulfillFaults(faults, of: family)
            return
        }
        let rows = readRows(faults.map(\.objectID))
        for object in faults where object.isFault {
            if let row = rows[object.objectID] { fulfill(object, with: row) }
        }
    }

    /// Reads the records of `faults`, all of `family`, by key (no ID made), and loads the faults from them.
    private func fulfillFaults(_ faults: [NSManagedObject], of family: ObjectIDFamily) {
        guard let coordinator = persistentStoreCoordinator, let store = family.store else { return }
        // Each key once (an object listed twice is one fault), and the fault each row is for.
        var waiting = FaultsByKey(faults)
        let keys = waiting.keys
        // In batches of 1000 as `readRows(_:)` reads, each in one store access.
        for start in stride(from: 0, to: keys.count, by: 1000) {
            let batch = Array(keys[start..<min(start + 1000, keys.count)])
            guard let rows = try? readStores(coordinator, { cache in
                cache.rememberRead(contentsOf: try store.snapshots(of: family, primaryKeys: batch))
            }) else { continue }
            for row in rows {
                guard let key = row.recordIdentity.primaryKey, let object = waiting.fault(forKey: key),
                      object.isFault else { continue }
                fulfill(object, with: row)
            }
        }
    }

    /// The current records of `ids` read from their stores (one read per
    /// store and batch of 1000), now the cached rows; a failed read leaves
    /// its IDs out. A nested context asks its parent, once.
    func readRows(_ ids: [NSManagedObjectID]) -> [ObjectKey: StoreRowCache.Row] {
        if let parent { return askParent(parent) { parent.rowsForChild(ids, self) } }
        guard let coordinator = persistentStoreCoordinator else { return [:] }
        var rows: [ObjectKey: StoreRowCache.Row] = [:]
        rows.reserveCapacity(ids.count)
        for batch in stride(from: 0, to: ids.count, by: 1000).map({ ids[$0..<min($0 + 1000, ids.count)] }) {
            let read = try? readStores(coordinator) { cache in
                let snapshots: [StoreSnapshot]
                if let family = batch.first?.family, batch.allSatisfy({ $0.family === family }) {
                    // One entity of one store, the usual batch: no grouping (~320 instructions an ID),
                    // and the store, a weak reference, loaded once.
                    snapshots = try family.store.map { Array(try $0.snapshots(for: Array(batch)).values) } ?? []
                } else {
                    snapshots = try Dictionary(grouping: batch.filter { $0.persistentStore != nil },
                                               by: { ObjectAddress($0.persistentStore!) }).values
                        .reduce(into: [StoreSnapshot]()) { all, ids in
                            all += try ids[0].persistentStore!.snapshots(for: ids).values
                        }
                }
                return cache.rememberRead(contentsOf: snapshots)
            }
            for row in read ?? [] { rows[row.objectID] = row }
        }
        return rows
    }

    /// Reads the unread to-many relationships of `objects` (only
    /// `relationship` when given): one read per store, relationship and 512
    /// owners, instead of one per object. Each relationship's destinations
    /// are read as `reading` says: their records in the same queries (the
    /// rows are returned, and stay in the row cache while the caller holds
    /// them), or their versions (returned with their owners).
    @discardableResult
    func readToManyFaults(of objects: [NSManagedObject], only relationship: NSRelationshipDescription? = nil,
                          reading: (NSRelationshipDescription) -> DestinationReading = { _ in .keys })
        -> ToManyRead {
        var owners: [ObjectIdentifier: (NSRelationshipDescription, Int, [NSManagedObject])] = [:]
        for object in objects where object.managedObjectContext === self && !object.isFault {
            let layout = object.values.layout
            for (slot, property) in layout.properties.enumerated() where object.values[slot].isUnread {
                guard let toMany = property as? NSRelationshipDescription,
                      relationship.map({ $0 === toMany }) ?? true else { continue }
                owners[ObjectIdentifier(toMany), default: (toMany, slot, [])].2.append(object)
            }
        }
        var result = ToManyRead()
        for (toMany, slot, group) in owners.values {
            let read = readDestinations(of: group.map(\.objectID), via: toMany, reading: reading(toMany))
            // Versions are read only for a to-many whose inverse is a to-one (`deletesWithoutValues`).
            let inverse = read.versions.isEmpty ? nil : toMany.inverseRelationship
            if inverse != nil {
                result.unread.reserveCapacity(read.versions.values.reduce(result.unread.count) { $0 + $1.count })
            }
            for object in group {
                let destinations = read.destinations[object.objectID] ?? []
                object.fillUnreadToMany(slot, with: destinations)
                guard let inverse, let versions = read.versions[object.objectID] else { continue }
                for (id, version) in zip(destinations, versions) {
                    result.unread[ObjectKey(id)] = UnreadDestination(version: version, owner: object, via: toMany,
                                                                    inverse: inverse)
                }
            }
            result.rows += read.rows
        }
        return result
    }

    /// The destinations of the to-many `relationship` of the records `ids`,
    /// as their stores hold them (one read per store and 512 owners), or as
    /// the parent of a nested context sees them; a failed read leaves its
    /// IDs out.
    func readDestinations(of ids: [NSManagedObjectID], via relationship: NSRelationshipDescription)
        -> [ObjectKey: [NSManagedObjectID]] {
        readDestinations(of: ids, via: relationship, reading: .keys).destinations
    }

    /// `readDestinations(of:via:)`, and the destinations' records as cached
    /// rows or their versions as `reading` asks (none in a nested context: its
    /// parent has them). A store that reads no versions gives the records instead.
    private func readDestinations(of ids: [NSManagedObjectID], via relationship: NSRelationshipDescription,
                                  reading: DestinationReading)
        -> (destinations: [ObjectKey: [NSManagedObjectID]], rows: [StoreRowCache.Row], versions: [ObjectKey: [Int64]]) {
        if let parent {
            return (askParent(parent) { parent.destinationsForChild(ids, via: relationship, self) }, [], [:])
        }
        guard let coordinator = persistentStoreCoordinator else { return ([:], [], [:]) }
        var result: [ObjectKey: [NSManagedObjectID]] = [:], rows: [StoreRowCache.Row] = []
        var versions: [ObjectKey: [Int64]] = [:]
        let byStore = Dictionary(grouping: ids.filter { $0.persistentStore != nil }) {
            ObjectAddress($0.persistentStore!)
        }
        for ids in byStore.values {
            let store = ids[0].persistentStore!
            typealias Read = (destinations: [ObjectKey: [NSManagedObjectID]], rows: [StoreRowCache.Row],
                              versions: [ObjectKey: [Int64]])
            let read = try? readStores(coordinator) { cache -> Read in
                if reading == .versions, let read = try store.destinationsWithVersions(of: ids, via: relationship) {
                    return (read.destinations, [], read.versions)
                }
                guard reading != .keys else { return (try store.destinations(of: ids, via: relationship), [], [:]) }
                let (destinations, records) = try store.destinationsWithRecords(of: ids, via: relationship)
                return (destinations, cache.rememberRead(contentsOf: records), [:])
            }
            guard let read else { continue }
            // The first store's read taken as it is: merging it into empty tables rehashed every destination.
            if result.isEmpty { result = read.destinations } else { result.merge(read.destinations) { a, _ in a } }
            rows += read.rows
            if versions.isEmpty { versions = read.versions } else { versions.merge(read.versions) { a, _ in a } }
        }
        return (result, rows, versions)
    }

    func fulfill(_ object: NSManagedObject, with row: StoreRowCache.Row) {
        object.isFaultStorage = false
        object.isInaccessible = false
        apply(row, to: object)
        object.awakeFromFetch()
        if !deferredDeletes.isEmpty { finishDeferredDelete(of: object) }
    }

    /// Makes `row` the object's values and its committed state: the object
    /// shares the record's slots (relationships stay IDs until used) and
    /// copies them only when it has transient attributes, which start at
    /// their defaults.
    func apply(_ row: StoreRowCache.Row, to object: NSManagedObject) {
        object.values.replaceAll(with: row.values)
        let layout = object.values.layout
        if !layout.transientSlots.isEmpty {
            for attribute in object.entity.transientAttributes {
                let value = ValueCoercion.slotValue(attribute.defaultValue, for: attribute)
                object.values[layout.slot(of: attribute)] = value
            }
            // Transient defaults are where the record leaves off, not changes to it.
            object.values.forgetChanges()
        }
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
        // A changed to-many compares against the record's destinations: read
        // them if the record left them unread (an unread one counts as unchanged).
        for key in changes.keys {
            guard let relationship = object.entity.relationshipsByName[key], relationship.isToMany,
                  object.values[object.values.layout.slot(of: relationship)].isUnread else { continue }
            readToManyFaults(of: [object], only: relationship)
        }
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
        indexInsertedObjects()
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
