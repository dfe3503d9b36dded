// Saving, rolling back and resetting. A save validates every changed object,
// hands the store one change set with permanent IDs, and changes the
// context only once the store accepted it, so a failed save leaves both
// store and context as they were.

extension NSManagedObjectContext {
    /// Saves every change to the coordinator's stores, or for a nested
    /// context into its parent only ("one store up"; the parent saves them
    /// further). Throws a validation error (1550–1680, or 1560 wrapping
    /// several) or a store error; then nothing was saved and the context
    /// keeps its changes.
    public func save() throws {
        checkConcurrency("saving")
        guard hasChanges || !pendingDeletes.isEmpty else { return }
        try sharingNotificationSets(saveChanges)
    }

    /// `save()` once it has changes to save.
    private func saveChanges() throws {
        guard let coordinator = persistentStoreCoordinator else {
            throw NSError.coreData(NSPersistentStoreSaveError, "The context has no persistent store coordinator.")
        }
        propagateDeletes()
        endEvent()
        NotificationCenter.default.post(name: .NSManagedObjectContextWillSave, object: self)
        try prepareObjectsForSave()
        if parent == nil {
            updateDerivedAttributes()
            endEvent()
        }
        try validateChanges()
        if let parent {
            saveIntoParent(parent)
            return
        }
        // A resolved conflict changes the objects; the save is planned again
        // (each resolution moves the objects to the store's current versions,
        // so only a record saved again in between conflicts once more).
        var violation: StoreConstraintViolation?
        for attempt in 1... {
            let constraintConflicts = try constraintConflicts()
            if !constraintConflicts.isEmpty {
                guard attempt < 10 else {
                    throw NSError.coreData(NSManagedObjectConstraintMergeError,
                                           NSMergePolicy.describe(constraintConflicts),
                                           userInfo: ["conflictList": constraintConflicts])
                }
                try resolve(constraintConflicts)
                violation = nil
                continue
            }
            if let violation {
                // The store refused a record the context finds no conflict for: a constraint it enforces
                // differently (another model's index, say).
                throw NSError.coreData(NSManagedObjectConstraintMergeError, violation.message)
            }
            let plan = try SavePlan(context: self, coordinator: coordinator)
            do {
                let rows: [StoreRowCache.Row]
                do { rows = try write(plan, with: coordinator) } catch {
                    plan.abandon()
                    throw error
                }
                commit(plan, rows: rows)
                advanceQueryGeneration()
                return
            } catch let conflict as StoreVersionConflict where attempt < 10 {
                try resolve(conflict.records.compactMap { record in
                    registered[record.objectID].map { NSMergeConflict(object: $0, persisted: record.persisted) }
                })
            } catch is StoreVersionConflict {
                throw NSError.coreData(NSManagedObjectMergeError, "The records kept changing while this context saved.")
            } catch let refused as StoreConstraintViolation where attempt < 10 {
                violation = refused
            }
        }
    }

    /// Hands each store its part of `plan`; the rows of the saved records.
    private func write(_ plan: SavePlan, with coordinator: NSPersistentStoreCoordinator) throws -> [StoreRowCache.Row] {
        // The row cache learns the save inside the store access, so that no
        // reader can cache what it read before the save after the save did.
        try coordinator.performStoreAccess {
            for (store, changes) in plan.changesByStore {
                try store.save(changes)
                store.generation += 1
            }
            coordinator.rowCache.forget(deleted.objects.lazy.map(\.objectID))
            return coordinator.rowCache.rememberSaved(plan.snapshots, newRecords: inserted.count)
        }
    }

    /// Resolves the conflicts a save found (version conflicts, or uniqueness-constraint conflicts) with
    /// `mergePolicy`; throws what the policy throws (NSManagedObjectMergeError or
    /// NSManagedObjectConstraintMergeError for the error policy).
    private func resolve(_ conflicts: [Any]) throws {
        let policy = mergePolicy as? NSMergePolicy ?? .error
        try policy.resolve(mergeConflicts: conflicts)
        propagateDeletes()
        endEvent()
        try validateChanges()
    }

    /// Marks `object`, which need not be changed, for optimistic locking at
    /// the next save: if another context or program saved or deleted its
    /// record since this context read it, the save has a conflict for the
    /// merge policy, as for the objects it changes. The mark ends with the save.
    public func detectConflicts(for object: NSManagedObject) {
        guard object.managedObjectContext === self, !object.isInserted else { return }
        object.fireFaultIfNeeded()
        lockedObjects.append(object)
    }

    /// Takes `object` out of the updated objects once nothing of it is changed.
    func noteUnchanged(_ object: NSManagedObject) {
        guard object.isUpdatedFlag, !object.isDeletedFlag else { return }
        object.isUpdatedFlag = false
        updated.remove(object)
    }

    /// Calls `willSave()` on every changed object, processing whatever those
    /// calls change until nothing new changes (bounded, as Core Data's revalidation).
    private func prepareObjectsForSave() throws {
        // The common case without hashing: one round over the three lists (disjoint once deletes
        // propagated; the marks skip an object listed twice all the same), done when no object joined a list.
        func appends() -> Int { inserted.appendCount + updated.appendCount + deleted.appendCount }
        let before = appends()
        // The lists as they are now (a willSave() may append to them), each object once.
        let (insertedFirst, updatedFirst, deletedFirst) = (inserted, updated, deleted)
        insertedFirst.objects.forEachUnretained { $0.willSave() }
        updatedFirst.objects.forEachUnretained { object in
            if !insertedFirst.contains(object) { object.willSave() }
        }
        deletedFirst.objects.forEachUnretained { object in
            if !insertedFirst.contains(object) && !updatedFirst.contains(object) { object.willSave() }
        }
        propagateDeletes()
        endEvent()
        guard appends() != before else { return }
        let first = insertedFirst.objects + updatedFirst.objects + deletedFirst.objects
        var seen = Set(first.map(ObjectIdentifier.init))
        for _ in 1..<100 {
            let fresh = (inserted.objects + updated.objects + deleted.objects).filter { seen.insert(ObjectIdentifier($0)).inserted }
            guard !fresh.isEmpty else { return }
            fresh.forEach { $0.willSave() }
            propagateDeletes()
            endEvent()
        }
        throw NSError.coreData(NSManagedObjectValidationError, "willSave() kept changing objects; the save was abandoned.")
    }

    /// Validates deleted, inserted and updated objects; throws the one error
    /// found, or NSValidationMultipleErrorsError (1560) listing all of them.
    func validateChanges() throws {
        var errors: [NSError] = []
        func collect(_ body: () throws -> Void) {
            do { try body() } catch let error as NSError {
                if error.code == NSValidationMultipleErrorsError, let details = error.userInfo[NSDetailedErrorsKey] as? [NSError] {
                    errors += details
                } else {
                    errors.append(error)
                }
            }
        }
        // Whether the object's class overrides a validation method, remembered for the last class asked
        // about, as the rules are for the last entity (~45 instructions an object to read in the metadata).
        var lastClass: ObjectIdentifier?, classValidates = true
        func classCustomizesValidation(_ object: NSManagedObject) -> Bool {
            let objectClass = ObjectIdentifier(type(of: object))
            if objectClass != lastClass {
                lastClass = objectClass
                classValidates = ClassOverrides.customizeValidation(type(of: object))
            }
            return classValidates
        }
        // Whether the save validates `object`. A class overriding a validation method: always. Otherwise
        // (a plain NSManagedObject, or a class like Xcode's generated ones) validateForInsert() and
        // validateForUpdate() check the entity's rules and nothing else: never without rules; and values a
        // child's save brought, which the child's validation passed and nothing changed since, only when a
        // rule is on a transient property (the child's transient values stayed there). The last entity's
        // rules are remembered: a save's objects come in runs of one entity.
        var lastEntity: NSEntityDescription?, hasRules = true, hasTransientRules = true
        func needsValidation(_ object: NSManagedObject) -> Bool {
            guard !classCustomizesValidation(object) else { return true }
            if !object.isOfEntity(lastEntity) {
                let entity = object.entity
                lastEntity = entity
                hasRules = !entity.validatedProperties.isEmpty
                hasTransientRules = entity.validatedProperties.contains(where: \.isTransient)
            }
            guard hasRules else { return false }
            return object.childValidatedStamp != object.valuesStamp || hasTransientRules
        }
        // validateForDelete(), where no class overrides validation, checks the entity's Deny relationships
        // and nothing else: never called for an entity without one (a cascade's thousands of deleted objects).
        var lastDeletedEntity: NSEntityDescription?, deniesDeletes = true
        func needsDeleteValidation(_ object: NSManagedObject) -> Bool {
            guard !classCustomizesValidation(object) else { return true }
            if !object.isOfEntity(lastDeletedEntity) {
                let entity = object.entity
                lastDeletedEntity = entity
                deniesDeletes = entity.relationshipsInNameOrder.contains { $0.deleteRule == .denyDeleteRule }
            }
            return deniesDeletes
        }
        // Closures that call the methods: a method reference (`object.validateForUpdate`) is a partial
        // application, which retained the object twice more per call.
        // Each list is walked in a copy of it (a validation method may change the context's lists).
        let (deletedNow, insertedNow, updatedNow) = (deleted.objects, inserted.objects, updated.objects)
        deletedNow.forEachUnretained { object in
            if needsDeleteValidation(object) { collect { try object.validateForDelete() } }
        }
        insertedNow.forEachUnretained { object in
            if needsValidation(object) { collect { try object.validateForInsert() } }
        }
        updatedNow.forEachUnretained { object in
            if needsValidation(object) { collect { try object.validateForUpdate() } }
        }
        if let error = NSError.validation(combining: errors) { throw error }
    }

    /// Makes the saved state the context's: `rows` are the cached rows of
    /// `plan.snapshots`, by position.
    private func commit(_ plan: SavePlan, rows: [StoreRowCache.Row]) {
        registerPermanentIDs(of: plan.objectsGettingPermanentIDs)
        for (object, row) in zip(plan.savedObjects, rows) { object.committedRow = row }
        endSave()
    }

    /// Ends a save whose objects have their committed rows: the changes
    /// become the committed state, deleted objects leave the context, and
    /// the DidSave notifications go out.
    func endSave() {
        let savedInserted = inserted.objects, savedUpdated = updated.objects, savedDeleted = deleted.objects
        for objects in [savedInserted, savedUpdated] {
            objects.forEachUnretained { object in
                object.isInsertedFlag = false
                object.isUpdatedFlag = false
                object.values.forgetChanges()
            }
        }
        indexesInsertedObjects = false
        // Emptied before forgetting, so that forgetting each deleted object
        // does not remove it from `deleted` one by one (quadratic).
        inserted = ContextObjectList(.inserted)
        updated = ContextObjectList(.updated)
        deleted = ContextObjectList(.deleted)
        deferredDeletes = [:]
        lockedObjects = ManagedObjectSet()
        // A save deleting most registered objects (a cascade's) takes them out of the registry in one pass:
        // removing each closed its gap in the table (~300 instructions an object). The deleted flags are
        // still set, and only the deleted objects have them.
        let unregistersEach = savedDeleted.count * 2 < registered.storageCount
        if !unregistersEach { registered.removeAll { $0.isDeletedFlag } }
        for object in savedDeleted {
            forget(object, unregistering: unregistersEach)
            object.invalidate()
        }
        for objects in [savedInserted, savedUpdated, savedDeleted] { objects.forEachUnretained { $0.didSave() } }
        NotificationCenter.default.post(name: .NSManagedObjectContextDidSave, object: self, userInfo: [
            NSInsertedObjectsKey: notificationSet(of: savedInserted),
            NSUpdatedObjectsKey: notificationSet(of: savedUpdated),
            NSDeletedObjectsKey: notificationSet(of: savedDeleted),
        ])
        NotificationCenter.default.post(name: Self.didSaveObjectIDsNotification, object: self, userInfo: [
            // Lazily mapped: an array of the IDs first cost an allocation and a retain and release an ID.
            NSInsertedObjectIDsKey: Set(sparse: savedInserted.lazy.map(\.objectID)),
            NSUpdatedObjectIDsKey: Set(sparse: savedUpdated.lazy.map(\.objectID)),
            NSDeletedObjectIDsKey: Set(sparse: savedDeleted.lazy.map(\.objectID)),
        ])
    }

    /// Moves `objects`, the plan's new objects, to the permanent IDs the plan
    /// gave them (`plannedPermanentID`, which this clears), as `reassign`
    /// does one by one.
    private func registerPermanentIDs(of objects: [NSManagedObject]) {
        if hasChildren { handPermanentIDsToChildren(objects.map { ($0.objectID, $0.plannedPermanentID!) }) }
        guard objects.count * 2 >= registered.storageCount else {
            for object in objects {
                reassign(object, to: object.plannedPermanentID!)
                object.plannedPermanentID = nil
            }
            return
        }
        // Most registered objects move (a save of new objects): keeping the
        // others in a new table costs less than removing each temporary ID,
        // since each removal rehashes the entries after it. The moving objects
        // are the inserted ones with temporary IDs: the plan gave each of them
        // an ID, so their flags say it without asking for the ID.
        if indexesInsertedObjects { registered.removeAll { object in object.hasTemporaryID && object.isInsertedFlag } }
        registered.reserveCapacity(forAdding: objects.count)
        for object in objects {
            let id = object.plannedPermanentID!
            object.plannedPermanentID = nil
            object.objectID = id
            registered[id] = object
        }
    }

    func reassign(_ object: NSManagedObject, to id: NSManagedObjectID) {
        // One lookup instead of a read and a removal: each hashes the ID's strings.
        if isInRegistry(object) {
            let key = object.registryKey
            if let other = registered.removeValue(forKey: key), other !== object { registered[key] = other }
        }
        object.objectID = id
        registered[id] = object
    }

    /// Gives `objects` permanent IDs now; they stay inserted until saved.
    /// Costs one store call per store involved.
    /// In a nested context, the objects the parent (and its ancestors) know
    /// by the same temporary IDs take the permanent ones too.
    public func obtainPermanentIDs(for objects: [NSManagedObject]) throws {
        guard let coordinator = persistentStoreCoordinator else { return }
        // Each object once, however often `objects` lists it.
        let needing = ManagedObjectSet(objects.filter(\.hasTemporaryID)).objects
        let ids = try SavePlan.permanentIDs(for: needing, coordinator: coordinator)
        var moves: [(temporary: NSManagedObjectID, permanent: NSManagedObjectID)] = []
        for (object, id) in zip(needing, ids) {
            moves.append((object.objectID, id))
            reassign(object, to: id)
        }
        handPermanentIDsToChildren(moves)
        if let parent, !moves.isEmpty { askParent(parent) { parent.adoptPermanentIDs(moves) } }
    }

    /// Moves the objects registered under the temporary IDs of `moves` to
    /// their permanent IDs, here and in the ancestors.
    func adoptPermanentIDs(_ moves: [(temporary: NSManagedObjectID, permanent: NSManagedObjectID)]) {
        indexInsertedObjects()
        for (temporary, permanent) in moves {
            if let object = registered[temporary] { reassign(object, to: permanent) }
        }
        handPermanentIDsToChildren(moves)
        if let parent { askParent(parent) { parent.adoptPermanentIDs(moves) } }
    }

    /// Discards every unsaved change: inserted objects leave the context,
    /// deleted and updated ones get their last saved values back.
    public func rollback() {
        let discarded = inserted.objects
        let restored = updated.objects + deleted.objects.filter { !$0.isInsertedFlag }
        discarded.forEach { forget($0) }
        pendingDeletes = []
        for object in restored {
            object.isUpdatedFlag = false
            object.isDeletedFlag = false
            if let row = object.committedRow { apply(row, to: object) }
        }
        inserted = ContextObjectList(.inserted)
        indexesInsertedObjects = false
        updated = ContextObjectList(.updated)
        deleted = ContextObjectList(.deleted)
        deferredDeletes = [:]
        lockedObjects = ManagedObjectSet()
        event = ContextEvent()
        undoManager?.removeAllActions()
        restored.forEach { event.refreshed.append($0) }
        discarded.forEach { event.invalidated.append($0) }
        endEvent()
    }

    /// Forgets every object: all registered objects lose their context, and
    /// unsaved changes are dropped. Posts ObjectsDidChange with `invalidatedAll`.
    public func reset() {
        indexInsertedObjects()
        let all = Array(registered.values)
        for object in all {
            forget(object)
            object.invalidate()
        }
        registered.removeAll()
        indexesInsertedObjects = false
        retained = [:]
        pendingDeletes = []
        deferredDeletes = [:]
        lockedObjects = ManagedObjectSet()
        event = ContextEvent()
        undoManager?.removeAllActions()
        advanceQueryGeneration()
        guard !all.isEmpty else { return }
        NotificationCenter.default.post(name: .NSManagedObjectContextObjectsDidChange, object: self,
                                        userInfo: [NSInvalidatedAllObjectsKey: all.map(\.objectID)])
    }
}
