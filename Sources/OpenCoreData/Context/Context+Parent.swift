// Nested contexts, the reading side: a context with a parent reads through
// it. "If you request an object from a managed object context that has a
// parent context, Core Data will first look in the parent. If the parent
// context has that object in memory, you'll get a new managed object just
// like that one. So if there are changes in the parent, you'll get the
// changed version of the object. If the object doesn't exist in that context,
// it will keep going up through parent contexts until it finally fetches the
// data from the persistent store." (W. Young, "Core Data Growing Pains", 2012)
//
// The parent answers on its own queue while the child waits in
// `performAndWait`; only records and IDs cross between them, never objects:
// each level has objects of its own.
//
// Temporary IDs: an object a child inserted and saved is known to the child
// by its temporary ID, also after an ancestor saved it and gave it a
// permanent one. Apple leaves the child with the temporary ID (apps call
// `obtainPermanentIDs(for:)` before saving children, coredata-wave2.md §4.1),
// so the child can end up with two objects for one record. Here a context
// that gives permanent IDs hands them to its children (`pendingPermanentIDs`,
// under a lock, as the children run on their own queues); a child adopts
// them after each call into its parent, before it uses the answer, and the
// parent reads them when a child names an object by its old ID.

/// A weak reference to a nested context, so that a parent does not keep its children alive.
struct WeakContext {
    weak var context: NSManagedObjectContext?
}

extension NSManagedObjectContext {
    /// Records `child` as a nested context of this one.
    func adopt(child: NSManagedObjectContext) {
        children.withLock { children in
            children.removeAll { $0.context == nil }
            children.append(WeakContext(context: child))
        }
    }

    /// Runs `body` on `parent`'s queue for this context, then adopts the
    /// permanent IDs the parent handed out meanwhile, so that the answer's
    /// IDs find this context's objects.
    func askParent<T>(_ parent: NSManagedObjectContext, _ body: () throws -> T) rethrows -> T {
        defer { adoptPendingPermanentIDs() }
        return try parent.performAndWait(sweeping: false, body)
    }

    /// Hands `moves` (temporary ID → permanent ID) to every child.
    func handPermanentIDsToChildren(_ moves: [(temporary: NSManagedObjectID, permanent: NSManagedObjectID)]) {
        guard !moves.isEmpty else { return }
        let live = children.withLock { $0.compactMap(\.context) }
        for child in live {
            child.pendingPermanentIDs.withLock { pending in
                for (temporary, permanent) in moves { pending[ObjectKey(temporary)] = permanent }
            }
        }
    }

    /// Moves this context's objects known by temporary IDs an ancestor has
    /// since given permanent IDs, and hands the moves on to the children.
    func adoptPendingPermanentIDs() {
        let moves = pendingPermanentIDs.withLock { pending in
            guard !pending.isEmpty else { return [ObjectKey: NSManagedObjectID]() }
            defer { pending = [:] }
            return pending
        }
        guard !moves.isEmpty else { return }
        indexInsertedObjects()
        for (temporary, permanent) in moves {
            if let object = registered[temporary.id] { reassign(object, to: permanent) }
        }
        handPermanentIDsToChildren(moves.map { ($0.key.id, $0.value) })
    }

    /// The ID this context knows the object by that `child` knows by `id`:
    /// the permanent ID handed to the child and not adopted yet, or `id`.
    func idForChild(_ id: NSManagedObjectID, _ child: NSManagedObjectContext) -> NSManagedObjectID {
        guard id.isTemporaryID else { return id }
        return child.pendingPermanentIDs.withLock { $0[ObjectKey(id)] } ?? id
    }

    /// The objects this context has for the IDs a child asks for (deleted
    /// ones left out) and the IDs it has none for, each with the ID asked by.
    private func lookUpForChild(_ ids: [NSManagedObjectID], _ child: NSManagedObjectContext)
        -> (found: [(asked: NSManagedObjectID, object: NSManagedObject)],
            missing: [(asked: NSManagedObjectID, known: NSManagedObjectID)]) {
        var found: [(asked: NSManagedObjectID, object: NSManagedObject)] = []
        var missing: [(asked: NSManagedObjectID, known: NSManagedObjectID)] = []
        for id in ids {
            let known = idForChild(id, child)
            if let object = registeredObject(for: known) {
                if !object.isDeletedFlag, !object.isInaccessible { found.append((id, object)) }
            } else {
                missing.append((id, known))
            }
        }
        return (found, missing)
    }

    /// The records a child reads for `ids`, keyed by the IDs asked for: this
    /// context's current state of the objects it has loaded (unsaved changes
    /// included; deleted objects have none), and of the others the records
    /// this context itself would read (its parent's, or the store's).
    func rowsForChild(_ ids: [NSManagedObjectID], _ child: NSManagedObjectContext)
        -> [ObjectKey: StoreRowCache.Row] {
        var rows: [ObjectKey: StoreRowCache.Row] = [:]
        let (found, missing) = lookUpForChild(ids, child)
        var unloaded = missing
        for (asked, object) in found {
            if !object.isFaultStorage {
                rows[ObjectKey(asked)] = Self.currentRow(of: object)
            } else if let row = object.committedRow {
                // A fault a fetch made here holds the record that fetch read.
                rows[ObjectKey(asked)] = row
            } else {
                unloaded.append((asked, object.objectID))
            }
        }
        if !unloaded.isEmpty {
            let read = readRows(unloaded.map(\.known))
            for (asked, known) in unloaded {
                if let row = read[known] { rows[ObjectKey(asked)] = row }
            }
        }
        return rows
    }

    /// The destinations of the to-many `relationship` of the objects `ids`
    /// as this context sees them (unsaved changes included), keyed by the IDs
    /// asked for; deleted objects have none.
    func destinationsForChild(_ ids: [NSManagedObjectID], via relationship: NSRelationshipDescription,
                              _ child: NSManagedObjectContext) -> [ObjectKey: [NSManagedObjectID]] {
        var result: [ObjectKey: [NSManagedObjectID]] = [:]
        let (found, missing) = lookUpForChild(ids, child)
        var unloaded = missing
        let loaded = found.filter { !$0.object.isFaultStorage }
        for (asked, object) in found where object.isFaultStorage { unloaded.append((asked, object.objectID)) }
        readToManyFaults(of: loaded.map(\.object), only: relationship)
        for (asked, object) in loaded {
            result[ObjectKey(asked)] = object.values[object.values.layout.slot(of: relationship)].destinationIDs
        }
        if !unloaded.isEmpty {
            let read = readDestinations(of: unloaded.map(\.known), via: relationship)
            for (asked, known) in unloaded {
                if let destinations = read[known] { result[ObjectKey(asked)] = destinations }
            }
        }
        return result
    }

    /// What a child's fetch selects: `request` answered by this context with
    /// its unsaved changes merged, as if they were saved, by ID, and for a
    /// request of objects their records (read by the store in the same pass,
    /// or `rowsForChild`), so that the child's faults fire without asking
    /// again. Without changes to merge, no object of this context is made.
    func selectionForChild(_ request: NSFetchRequest<NSFetchRequestResult>, _ child: NSManagedObjectContext)
        throws -> Selection {
        let entity = resolveEntity(of: request)
        try FetchKeyPathCheck.check(request, entity: entity)
        let stores = self.stores(for: entity, request)
        if !hasChanges, stores.count == 1 || parent != nil {
            return try select(request, entity: entity, from: stores, appliesWindow: true)
        }
        let ids = try fetchObjects(request).map(\.objectID)
        guard request.resultType == .managedObjectResultType else { return Selection(ids: StoreObjectIDs(ids)) }
        let rows = rowsForChild(ids, child)
        let paired = ids.compactMap { rows[$0] }
        return Selection(ids: StoreObjectIDs(ids), rows: paired.count == ids.count ? paired : [])
    }

    /// `object`'s current values as a record: its committed row while it is
    /// unchanged, otherwise its values with relationships as IDs.
    static func currentRow(of object: NSManagedObject) -> StoreRowCache.Row {
        if !object.isInsertedFlag, !object.isUpdatedFlag, let row = object.committedRow { return row }
        return StoreRowCache.Row.make(from: currentSnapshot(of: object, version: object.committedRow?.version ?? 0))
    }

    /// `object`'s values as a record of `version`, relationships as the IDs
    /// of their destinations.
    static func currentSnapshot(of object: NSManagedObject, version: Int64) -> StoreSnapshot {
        let layout = object.values.layout
        var snapshot = StoreSnapshot(objectID: object.objectID, version: version, layout: layout)
        for slot in 0..<layout.count where !layout.fetchedSlots.contains(slot) {
            snapshot[slot] = recordForm(object.values[slot])
        }
        return snapshot
    }

    /// An object's slot value as a record holds it: destinations as their IDs.
    static func recordForm(_ value: SlotValue) -> SlotValue {
        switch value {
        case .object(let destination): .record(.id(destination.objectID))
        case .objects(let set): set.isEmpty ? .none : .ids(set.objects.map(\.objectID))
        case let value: value
        }
    }

    /// The parent's answer to a child's fetch of IDs: the request with the
    /// parent's unsaved changes included, the window applied only when
    /// `appliesWindow` (otherwise the child applies it after merging its own).
    func selectFromParent(_ parent: NSManagedObjectContext, _ request: NSFetchRequest<NSFetchRequestResult>,
                          appliesWindow: Bool) throws -> Selection {
        let copy = request.copy(with: nil) as! NSFetchRequest<NSFetchRequestResult>
        copy.resultType = request.includesPropertyValues ? .managedObjectResultType : .managedObjectIDResultType
        copy.returnsObjectsAsFaults = true
        copy.includesPendingChanges = true
        copy.fetchBatchSize = 0
        copy.relationshipKeyPathsForPrefetching = nil
        if !appliesWindow {
            copy.fetchOffset = 0
            copy.fetchLimit = 0
        }
        return try askParent(parent) { try parent.selectionForChild(copy, self) }
    }
}
