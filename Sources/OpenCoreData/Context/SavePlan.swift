/// The store-side form of one save: permanent IDs for the inserted objects
/// and a change set per store, built before anything in the context changes.
/// It writes in the objects only what `abandon()` undoes: to-one slots, in
/// another form naming the same objects (`writeToOnesAsIDs`), and each new
/// object's permanent ID (`NSManagedObject.plannedPermanentID`).
struct SavePlan {
    /// The inserted objects the plan gives permanent IDs, each holding its
    /// ID as `plannedPermanentID` until the save commits or is abandoned:
    /// held by the objects rather than in a dictionary by object, which cost
    /// a hashed insert and three lookups an object (~250 instructions).
    private(set) var objectsGettingPermanentIDs: [NSManagedObject] = []
    var changesByStore: [(NSPersistentStore, StoreChangeSet)] = []
    /// The saved objects, and by position the snapshot each will have as its committed state: two arrays,
    /// so that the row cache takes the snapshots as they are (a list of pairs was mapped to a third copy of
    /// each snapshot, its four references retained, then released).
    var savedObjects: [NSManagedObject] = []
    var snapshots: [StoreSnapshot] = []
    /// The to-one slots the plan rewrote in their objects, destination object to its ID (`writeToOnesAsIDs`).
    private var destinationsWrittenAsIDs: [WrittenDestination] = []

    init(context: NSManagedObjectContext, coordinator: NSPersistentStoreCoordinator) throws {
        let objects = context.inserted.objects.filter(\.hasTemporaryID)
        let ids = try Self.permanentIDs(for: objects, coordinator: coordinator)
        for (object, id) in zip(objects, ids) { object.plannedPermanentID = id }
        objectsGettingPermanentIDs = objects
        do { try collectChanges(of: context) } catch {
            abandon()
            throw error
        }
    }

    private mutating func collectChanges(of context: NSManagedObjectContext) throws {
        var stores: [(NSPersistentStore, StoreChangeSet)] = []
        // The position in `stores` of each ID family's store, read once per family (a weak reference, whose
        // load and release cost ~140 instructions): a save's objects are mostly of one family.
        var positions = LastFirstMap<Int>()
        func add(_ id: NSManagedObjectID, _ edit: (inout StoreChangeSet) -> Void) throws {
            // -1: the family's store was removed.
            let position = positions.value(for: ObjectAddress(id.family)) {
                guard let store = id.persistentStore else { return -1 }
                if let known = stores.firstIndex(where: { $0.0 === store }) { return known }
                // Room for every record of the save: most saves go to one store, and growing the lists
                // one append at a time copied each snapshot several times.
                var changes = StoreChangeSet()
                changes.inserted.reserveCapacity(context.inserted.count)
                changes.updated.reserveCapacity(context.updated.count)
                stores.append((store, changes))
                return stores.count - 1
            }
            guard position >= 0 else {
                throw NSError.coreData(NSPersistentStoreSaveError, "The store of \(id) was removed.")
            }
            // Edited in place: copying the entry out and back copied every snapshot per object (quadratic).
            edit(&stores[position].1)
        }
        // By entity: a save's objects come mostly in runs of one entity.
        var layouts = LastFirstMap<SnapshotLayout>()
        func snapshot(of object: NSManagedObject, version: Int64 = 0) -> StoreSnapshot {
            let layout = layouts.value(for: ObjectAddress(object.entity)) { SnapshotLayout(object.values.layout) }
            var snapshot = self.snapshot(of: object, layout, in: context)
            snapshot.version = version
            return snapshot
        }
        savedObjects.reserveCapacity(context.inserted.count + context.updated.count)
        snapshots.reserveCapacity(context.inserted.count + context.updated.count)
        for object in context.inserted.objects {
            // A constant, appended last: a variable the closure captured was copied for each list (four
            // retains and releases more an object).
            let snapshot = snapshot(of: object, version: 1)
            try add(snapshot.objectID) { $0.inserted.append(snapshot) }
            savedObjects.append(object)
            snapshots.append(snapshot)
        }
        for object in context.updated.objects {
            var snapshot = snapshot(of: object)
            let committedRow = object.committedRow
            snapshot.version = committedRow?.version ?? 0
            // Without a committed record nothing says what is as stored.
            snapshot.changedSlots = committedRow == nil ? nil : object.values.changed
            try add(snapshot.objectID) { $0.updated.append(snapshot) }
            snapshot.version += 1
            snapshot.changedSlots = nil
            savedObjects.append(object)
            snapshots.append(snapshot)
        }
        for object in context.lockedObjects.objects where !object.hasChanges {
            guard let version = object.committedRow?.version, version > 0 else { continue }
            try add(object.objectID) { $0.lockedVersions.append((object.objectID, version)) }
        }
        for object in context.deleted.objects where !object.hasTemporaryID {
            // A delete left a fault (Context+DeferredDeletes.swift) requires the version its cascade read.
            let version = object.committedRow?.version ?? context.deferredDeletes[ObjectAddress(object)]?.version ?? 0
            try add(object.objectID) { $0.appendDeleted(object.objectID, version: version) }
        }
        changesByStore = stores.map { store, changes in
            var changes = changes
            (changes.author, changes.contextName) = (context.transactionAuthor, context.name)
            return (store, changes)
        }
    }

    /// New permanent IDs for `objects`, by position, from the store each one's entity goes to.
    static func permanentIDs(for objects: [NSManagedObject], coordinator: NSPersistentStoreCoordinator) throws
        -> [NSManagedObjectID] {
        // The objects are counted by entity, then numbered in order: lists of
        // each entity's objects cost a retain and an append an object.
        var entities: [NSEntityDescription] = [], counts: [Int] = []
        var entityNumbers = LastFirstMap<Int>()
        var numbers: [Int] = []
        numbers.reserveCapacity(objects.count)
        for object in objects {
            let entity = object.entity
            // By entity identity: hashing the entity's name cost a string hash per object.
            let number = entityNumbers.value(for: ObjectAddress(entity)) {
                entities.append(entity)
                counts.append(0)
                return entities.count - 1
            }
            counts[number] += 1
            numbers.append(number)
        }
        var ids: [NSManagedObjectID] = []
        ids.reserveCapacity(objects.count)
        try coordinator.performStoreAccess {
            var keys: [ArraySlice<Int64>] = [], families: [ObjectIDFamily] = []
            for (entity, count) in zip(entities, counts) {
                guard let store = coordinator.store(for: entity) else {
                    let affected = objects.filter { $0.entity === entity }
                    throw NSError.coreData(NSPersistentStoreSaveError,
                                           "No persistent store holds objects of entity \(entity.name ?? "").",
                                           userInfo: [NSAffectedObjectsErrorKey: affected])
                }
                keys.append(try store.newPrimaryKeys(for: entity, count: count)[...])
                families.append(store.idFamily(for: entity))
            }
            for number in numbers {
                let key = keys[number].removeFirst()
                ids.append(NSManagedObjectID(family: families[number], key: .permanent(key)))
            }
        }
        return ids
    }

    /// Which of an entity's slots a snapshot takes and how, worked out once
    /// per entity and save instead of once per object. A class: handing out
    /// a struct of three arrays retained and released each one per object.
    private final class SnapshotLayout {
        /// The slots a record leaves empty: transient and fetched properties.
        let cleared: [Int]
        /// The slots of stored relationships, by kind.
        let toOne: [Int], toMany: [Int]

        init(_ layout: PropertySlotLayout) {
            var cleared: [Int] = [], toOne: [Int] = [], toMany: [Int] = []
            for (slot, property) in layout.properties.enumerated() {
                switch property {
                case is NSAttributeDescription where !property.isTransient: continue
                case let relationship as NSRelationshipDescription where !relationship.isTransient:
                    if relationship.isToMany { toMany.append(slot) } else { toOne.append(slot) }
                default: cleared.append(slot)
                }
            }
            (self.cleared, self.toOne, self.toMany) = (cleared, toOne, toMany)
        }
    }

    /// The record of `object`'s persistent properties, relationships as IDs.
    /// Objects that left the context (inserted, then deleted) are dropped.
    private mutating func snapshot(of object: NSManagedObject, _ layout: SnapshotLayout,
                                   in context: NSManagedObjectContext) -> StoreSnapshot {
        if !layout.toOne.isEmpty, Self.isRecordAsHeld(object.values, layout) {
            writeToOnesAsIDs(of: object, layout, in: context)
        }
        // The object's values are read in place: a copy of them (`let values = object.values`) retained and
        // released their layout, slots and overflow, ~130 instructions an object.
        // The attribute slots are the object's, shared until a relationship or cleared slot is written.
        let slots = object.values.slots.isEmpty ? .empty(layout: object.values.layout) : object.values.slots
        var snapshot = StoreSnapshot(objectID: recordID(of: object, in: context) ?? object.objectID, version: 0,
                                     layout: object.values.layout, values: slots)
        for slot in layout.cleared where !snapshot[slot].isNone { snapshot[slot] = .none }
        for slot in layout.toMany {
            switch object.values[slot] {
            case .objects(let set):
                let ids = set.objects.compactMap { recordID(of: $0, in: context) }
                snapshot[slot] = ids.isEmpty ? .none : .ids(ids)
            case .ids, .unread, .none: continue // never made into objects (or never read): as stored
            default: snapshot[slot] = .none
            }
        }
        for slot in layout.toOne {
            switch object.values[slot] {
            case .object(let destination):
                snapshot[slot] = recordID(of: destination, in: context).map { .record(.id($0)) } ?? .none
            case .record, .none: continue
            default: snapshot[slot] = .none
            }
        }
        return snapshot
    }

    /// The ID `object` has in the store after the save; nil for an object
    /// that will have none (inserted in this context, then deleted).
    private func recordID(of object: NSManagedObject, in context: NSManagedObjectContext) -> NSManagedObjectID? {
        // Only this context's objects: another context's may hold the ID its own save is planning.
        if object.belongs(to: context), let id = object.plannedPermanentID { return id }
        return object.hasTemporaryID ? nil : object.objectID
    }

    /// Whether the record of `values` differs from its slots only in its
    /// to-one relationships: nothing transient to clear, and no to-many
    /// relationship held as objects.
    private static func isRecordAsHeld(_ values: PropertyValues, _ layout: SnapshotLayout) -> Bool {
        for slot in layout.cleared where !values[slot].isNone { return false }
        for slot in layout.toMany {
            switch values[slot] {
            case .ids, .unread, .none: continue
            default: return false
            }
        }
        return true
    }

    /// Writes each to-one destination of `object` into its slot as the ID it
    /// has after the save, keeping the object beside the slots as a fetched
    /// object keeps the destinations it resolved (`PropertyValues`): the
    /// object's slots are then its record and become the row without a copy
    /// and a second allocation. `abandon()` undoes it when the
    /// save does not happen, since an ID this plan gave is then no record's.
    private mutating func writeToOnesAsIDs(of object: NSManagedObject, _ layout: SnapshotLayout,
                                           in context: NSManagedObjectContext) {
        for slot in layout.toOne {
            guard let destination = object.values.replaceDestinationWithID(slot, { recordID(of: $0, in: context) })
            else { continue }
            if destinationsWrittenAsIDs.isEmpty {
                destinationsWrittenAsIDs.reserveCapacity(context.inserted.count + context.updated.count)
            }
            destinationsWrittenAsIDs.append(WrittenDestination(object: object, slot: slot, destination: destination))
        }
    }

    /// Undoes what the plan wrote in the objects, for a save that failed or
    /// is planned again: puts the destination objects back in the slots that
    /// hold their new IDs, and drops the new objects' planned IDs.
    func abandon() {
        for written in destinationsWrittenAsIDs {
            written.object.values.resolve(written.slot, to: .object(written.destination))
        }
        for object in objectsGettingPermanentIDs { object.plannedPermanentID = nil }
    }

    /// A to-one slot the plan rewrote. A struct: an array of tuples has its
    /// type made at run time on first use (~170,000 instructions). Unowned:
    /// the plan lives within the save, while the context lists the object
    /// as changed and the object holds the destination.
    private struct WrittenDestination {
        unowned(unsafe) let object: NSManagedObject
        let slot: Int
        unowned(unsafe) let destination: NSManagedObject
    }
}

/// Values by object, made on first need, with the last one asked for checked
/// before any hashing: a save's objects come in runs of one store and entity.
private struct LastFirstMap<Value> {
    private var values: [ObjectAddress: Value] = [:]
    private var last: (key: ObjectAddress, value: Value)?

    /// The value of `key`, made by `make` (and kept) the first time.
    mutating func value(for key: ObjectAddress, orMake make: () -> Value) -> Value {
        if let last, last.key == key { return last.value }
        let value: Value
        if let known = values[key] {
            value = known
        } else {
            value = make()
            values[key] = value
        }
        last = (key, value)
        return value
    }
}
