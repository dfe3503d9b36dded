// Nested contexts, the saving side: a child's save pushes its changes into
// its parent, "one store up"; "a parent does not pull changes from children
// before it saves" (Apple, quoted in facebookarchive/FBFetchedResultsController).
//
// The child hands the parent records, not objects: inserted objects whole,
// changed objects with the slots they changed, deleted objects by ID. The
// parent applies them as its own unsaved changes, without running delete
// rules or inverse maintenance again (the child did both, and every object
// they touched is among the changes), and without a merge policy: "Merge
// policies only apply to a context saving to a store and not to its parent
// context" (Big Nerd Ranch Core Data Stack, via mjtsai.com, 2015-09-23).
// Objects entering the parent are inserted there, so `awakeFromInsert()`
// runs once per context they enter, as on Apple.

/// The changes a child context saves into its parent, as records.
struct ChildChanges: @unchecked Sendable {
    /// Inserted objects: every persistent slot.
    var inserted: [StoreSnapshot] = []
    /// Changed objects: `changedSlots` holds the slots to apply.
    var updated: [StoreSnapshot] = []
    /// The rows the changed objects were read from, by position in `updated`.
    var updatedBaseRows: [StoreRowCache.Row?] = []
    /// Deleted objects, with the slots changed before the delete.
    var deleted: [StoreSnapshot] = []

    init(_ context: NSManagedObjectContext) {
        inserted = context.inserted.objects.map { Self.record($0, slots: SlotSet($0.values.layout.properties.indices)) }
        updated = context.updated.objects.map { Self.record($0, slots: $0.values.changed) }
        updatedBaseRows = context.updated.objects.map(\.committedRow)
        deleted = context.deleted.objects.map { Self.record($0, slots: $0.isFault ? SlotSet() : $0.values.changed) }
    }

    /// `object`'s current record; `changedSlots` are the persistent ones of
    /// `slots` (transient values stay in the context that set them, as a
    /// store never sees them).
    private static func record(_ object: NSManagedObject, slots: SlotSet) -> StoreSnapshot {
        let layout = object.values.layout
        var snapshot: StoreSnapshot
        if let base = object.committedRow, !object.isInsertedFlag {
            // The record read with what changed since: the other slots hold the same values, already as IDs.
            // Named by the object's ID, which the parent looks its object up by: a row a fetch read names its
            // record by family and key, whose ID `objectID` would make anew at each use.
            snapshot = StoreSnapshot(objectID: object.objectID, version: 0, layout: base.layout, values: base.values)
            slots.forEach { snapshot[$0] = NSManagedObjectContext.recordForm(object.values[$0]) }
            layout.transientSlots.forEach { snapshot[$0] = NSManagedObjectContext.recordForm(object.values[$0]) }
        } else {
            snapshot = NSManagedObjectContext.currentSnapshot(of: object, version: 0)
        }
        var persistent = SlotSet()
        slots.forEach { slot in
            if !layout.transientSlots.contains(slot), !layout.fetchedSlots.contains(slot) { persistent.insert(slot) }
        }
        snapshot.changedSlots = persistent
        return snapshot
    }
}

/// Where the parent's object for a child's record comes from.
private enum ChildRecordOrigin {
    /// Made from an inserted object's record.
    case new
    /// An object the parent has (or faults in) for a record the child read as `base`.
    case known(StoreRowCache.Row?)
    /// The object of a deleted record.
    case deleted
}

extension NSManagedObjectContext {
    /// Pushes the context's changes into `parent` and makes them the
    /// context's committed state; posts DidSave. The parent posts
    /// ObjectsDidChange when its `performAndWait` ends.
    func saveIntoParent(_ parent: NSManagedObjectContext) {
        let changes = ChildChanges(self)
        askParent(parent) { parent.applyChildChanges(changes, from: self) }
        // What the parent now holds is this context's committed record. The
        // parent's objects may share the records' buffers and make rows of
        // them on their own queue: the cache's lock orders the two.
        let cache = persistentStoreCoordinator?.rowCache
        for (objects, records) in [(inserted.objects, changes.inserted), (updated.objects, changes.updated)] {
            for (object, var record) in zip(objects, records) {
                record.changedSlots = nil
                object.committedRow = cache?.row(from: record) ?? StoreRowCache.Row.make(from: record)
            }
        }
        // The new objects keep their temporary IDs, and stay registered under them once no longer inserted.
        indexInsertedObjects()
        endSave()
    }

    /// Applies `child`'s saved changes as unsaved changes of this context.
    func applyChildChanges(_ changes: ChildChanges, from child: NSManagedObjectContext) {
        func object(for id: NSManagedObjectID) -> NSManagedObject { self.object(with: idForChild(id, child)) }
        // The child's records name this context's new objects by their temporary IDs.
        indexInsertedObjects()
        registered.reserveCapacity(forAdding: changes.inserted.count + changes.updated.count)
        // New objects first, so that relationships among them find each other.
        var targets: [(object: NSManagedObject, record: StoreSnapshot, origin: ChildRecordOrigin)] = []
        targets.reserveCapacity(changes.inserted.count + changes.updated.count + changes.deleted.count)
        for record in changes.inserted {
            if registered[idForChild(record.objectID, child)] != nil {
                targets.append((object(for: record.objectID), record, .known(nil)))
                continue
            }
            let entity = record.objectID.entity
            let new = ManagedObjectClasses.objectClass(for: entity).init(entity: entity, insertInto: nil)
            new.objectID = record.objectID
            insert(new)
            targets.append((new, record, .new))
        }
        let cache = parent == nil ? persistentStoreCoordinator.map(readCache) : nil
        for (record, base) in zip(changes.updated, changes.updatedBaseRows) {
            let id = idForChild(record.objectID, child)
            if let cache, let base, registered[id] == nil, adopt(record, readFrom: base, as: id, cache: cache) {
                continue
            }
            targets.append((object(for: record.objectID), record, .known(base)))
        }
        for record in changes.deleted { targets.append((object(for: record.objectID), record, .deleted)) }
        // The faults among the objects to change load together (cached rows, then one read per store and
        // batch) rather than one by one; `fireFaultIfNeeded()` below handles what this leaves a fault.
        fulfillFaults(targets.compactMap { $0.record.changedSlots?.isEmpty == false ? $0.object : nil })
        for (target, record, origin) in targets {
            guard let slots = record.changedSlots, !slots.isEmpty else { continue }
            target.fireFaultIfNeeded()
            // The child validated its whole object; here it has the same values when this context made it
            // from the record, or holds without changes of its own the very row the child read (rows never change).
            let sameAsChild = switch origin {
            case .new: true
            case .known(let base):
                !target.isInsertedFlag && !target.isUpdatedFlag && base != nil && target.committedRow === base
            case .deleted: false
            }
            // A to-many the record left unread is read first: a change compares against it.
            slots.forEach { slot in
                guard target.values[slot].isUnread else { return }
                let relationship = target.values.layout.properties[slot] as? NSRelationshipDescription
                readToManyFaults(of: [target], only: relationship)
            }
            slots.forEach { target.storeChange(parentForm(record[$0], via: object(for:)), slot: $0) }
            if sameAsChild { target.childValidatedStamp = target.valuesStamp }
        }
        for record in changes.deleted { markDeletedByChild(object(for: record.objectID)) }
    }

    /// The common case of a child's change, taken without copying slots:
    /// this context has no object for the record yet, the child changed
    /// attributes only, and `base`, the row the child read, is still the
    /// cached one. The new object is fulfilled from `base` and then takes the
    /// child's record (`base` with the changes) as its values, marked
    /// changed, which is what storing each change would give. False, with no
    /// object made, when the case does not apply.
    private func adopt(_ record: StoreSnapshot, readFrom base: StoreRowCache.Row, as id: NSManagedObjectID,
                       cache: StoreRowCache) -> Bool {
        let layout = base.layout
        guard let slots = record.changedSlots, !slots.isEmpty, record.values.count == layout.count,
              layout.transientSlots.isEmpty else { return false }
        var attributesOnly = true
        slots.forEach { if layout.kinds[$0] != .attribute { attributesOnly = false } }
        guard attributesOnly, cache.row(for: id, maxAge: stalenessInterval) === base else { return false }
        let object = registerFault(for: id)
        object.isFaultStorage = false
        apply(base, to: object)
        object.makeChangeState() // made below in any case; now, so that the stamp counts `awakeFromFetch`'s writes
        let stamp = object.valuesStamp
        object.awakeFromFetch()
        // An `awakeFromFetch()` that set values of its own gets the changes stored one by one.
        guard object.valuesStamp == stamp, object.eventBaseline == nil, !object.isUpdatedFlag else {
            slots.forEach { object.storeChange(record[$0], slot: $0) }
            return true
        }
        object.eventBaseline = object.values.slots
        var values = PropertyValues(layout: object.values.layout, slots: record.values)
        values.markChanged(slots)
        object.values = values
        objectDidChange(object)
        object.childValidatedStamp = object.valuesStamp
        return true
    }

    /// A child's slot value with this context's objects for IDs.
    private func parentForm(_ value: SlotValue, via object: (NSManagedObjectID) -> NSManagedObject) -> SlotValue {
        switch value {
        case .record(let record): .object(object(record.objectID))
        case .ids(let ids): .objects(ManagedObjectSet(ids.map(object)))
        default: value
        }
    }

    /// Deletes `object` as a child's save does: its delete rules ran in the
    /// child, whose changes already hold their effects.
    private func markDeletedByChild(_ object: NSManagedObject) {
        guard !object.isDeletedFlag else { return }
        if object.isUpdatedFlag {
            object.isUpdatedFlag = false
            updated.remove(object)
        }
        object.isDeletedFlag = true
        event.deleted.append(object)
        // An object this context never saved is simply forgotten, as `propagateDeletes()` does.
        if object.isInsertedFlag { forget(object) } else { deleted.append(object) }
    }
}
