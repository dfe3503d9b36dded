// Deleting objects and propagating delete rules. As in Core Data, `delete`
// only marks the object; its relationships' rules run when pending changes
// are processed (end of event, or save), and Deny is checked at save
// (reference §2.2).

extension NSManagedObjectContext {
    /// Marks `object` for deletion at the next save. Its delete rules run at
    /// the next `processPendingChanges()`; an object never saved is then
    /// simply forgotten.
    public func delete(_ object: NSManagedObject) {
        checkConcurrency("deleting an object of \(object.entity.name ?? "")")
        precondition(object.managedObjectContext === self,
                     "An NSManagedObject of entity \(object.entity.name ?? "") can only be deleted by its own context")
        guard !object.isDeletedFlag else { return }
        if object.isUpdatedFlag {
            object.isUpdatedFlag = false
            updated.remove(object)
        }
        object.isDeletedFlag = true
        deleted.append(object)
        event.deleted.append(object)
        pendingDeletes.append(object)
    }

    /// Ends the current event: runs pending delete rules (unless
    /// `propagatesDeletesAtEndOfEvent` is false), forgets objects inserted and
    /// deleted since the last save, and posts ObjectsDidChange for what changed.
    public func processPendingChanges() {
        if propagatesDeletesAtEndOfEvent { propagateDeletes() }
        endEvent()
    }

    /// Runs the delete rules of every object deleted since the last run,
    /// including objects that cascading deletes.
    func propagateDeletes() {
        // In waves, breadth first: the deletes a wave cascades to form the
        // next one. Each wave's faults load together (one read per store and
        // 1000 objects, not one per object), and taking the wave whole keeps
        // the queue linear where removing its first element was quadratic.
        //
        // The destinations a rule goes on to change (a Cascade deletes them, a
        // Nullify clears their inverse) are read with their records, one query
        // where a fault of each would be another: the rows stay cached, held
        // here, through this wave's rules and the next wave's faults.
        //
        // A Cascade whose destinations need none of their values to be
        // deleted reads their versions instead, and they stay faults
        // (Context+DeferredDeletes.swift).
        var held: [StoreRowCache.Row] = []
        var unread: [ObjectKey: UnreadDestination] = [:]
        while !pendingDeletes.isEmpty {
            var wave = pendingDeletes
            pendingDeletes = []
            if !unread.isEmpty { wave = deferDeletes(in: wave, unread: unread) }
            withExtendedLifetime(held) { fulfillFaults(wave) }
            let read = readToManyFaults(of: wave, reading: destinationReading)
            (held, unread) = (read.rows, read.unread)
            withExtendedLifetime(held) {
                readInverseToManys(nullifiedBy: wave)
                for object in wave { runDeleteRules(of: object) }
            }
        }
        for object in deleted.objects where object.isInsertedFlag { forget(object) }
    }

    /// A Nullify whose inverse is a to-many (a photo's album, a
    /// many-to-many) removes each deleted object from its destinations' own
    /// to-many: those are read here for the whole wave, one query per
    /// relationship and 512 destinations, where each destination's rule
    /// would read its own. Destinations deleted too are left out.
    private func readInverseToManys(nullifiedBy wave: [NSManagedObject]) {
        var byInverse: [ObjectIdentifier: (NSRelationshipDescription, [NSManagedObject])] = [:]
        for object in wave where object.isDeletedFlag && !object.isFault {
            for relationship in object.entity.relationshipsInNameOrder
            where relationship.deleteRule == .nullifyDeleteRule {
                guard let inverse = relationship.inverseRelationship, inverse.isToMany else { continue }
                let slot = object.values.layout.slot(of: relationship)
                // By slot and without a list for a to-one: this runs for every deleted object.
                if relationship.isToMany {
                    for destination in object.resolvedToMany(slot).objects where !destination.isDeletedFlag {
                        byInverse[ObjectIdentifier(inverse), default: (inverse, [])].1.append(destination)
                    }
                } else if let destination = object.destination(slot), !destination.isDeletedFlag {
                    byInverse[ObjectIdentifier(inverse), default: (inverse, [])].1.append(destination)
                }
            }
        }
        for (inverse, destinations) in byInverse.values {
            fulfillFaults(destinations)
            readToManyFaults(of: destinations, only: inverse)
        }
    }

    /// Runs the rules of `object`'s relationships: Nullify clears the
    /// inverse side, Cascade deletes the destinations (into the next wave).
    private func runDeleteRules(of object: NSManagedObject) {
        guard object.isDeletedFlag else { return }
        object.fireFaultIfNeeded()
        object.prepareForDeletion()
        for relationship in object.entity.relationshipsInNameOrder {
            switch relationship.deleteRule {
            case .nullifyDeleteRule:
                object.clearDestinations(of: relationship)
            case .cascadeDeleteRule:
                for destination in object.destinations(of: relationship) where !destination.isDeletedFlag {
                    delete(destination)
                }
            case .denyDeleteRule, .noActionDeleteRule:
                break
            }
        }
    }

    func endEvent() {
        let finished = event
        event = ContextEvent()
        if let undoManager, undoManager.isUndoRegistrationEnabled, !finished.isEmpty {
            registerUndo(of: finished, with: undoManager)
        }
        for object in finished.changed { object.eventBaseline = nil }
        guard !finished.isEmpty else { return }
        func live(_ set: ManagedObjectSet) -> Set<NSManagedObject> { Set(set.objects) }
        var userInfo: [AnyHashable: Any] = [:]
        let insertedNow = finished.inserted.filter { $0.managedObjectContext === self }
        // Objects inserted and deleted within the event never existed for
        // observers; objects inserted earlier (and already forgotten, being
        // unsaved) or deleted by a merge did.
        let deletedNow = finished.deleted.objects.filter { !finished.wasInserted($0) }
        func isUpdatedNow(_ object: NSManagedObject) -> Bool {
            (object.isUpdatedFlag || object.isInsertedFlag) && !object.isDeletedFlag
                && object.managedObjectContext === self
        }
        // Mostly all of them: then the list itself, without an append (and a retain) an object.
        let updated = finished.updated
        let updatedNow = updated.allSatisfy(isUpdatedNow) ? updated : updated.filter(isUpdatedNow)
        if !insertedNow.isEmpty { userInfo[NSInsertedObjectsKey] = notificationSet(of: insertedNow) }
        if !updatedNow.isEmpty { userInfo[NSUpdatedObjectsKey] = notificationSet(of: updatedNow) }
        if !deletedNow.isEmpty { userInfo[NSDeletedObjectsKey] = notificationSet(of: deletedNow) }
        if !finished.refreshed.isEmpty { userInfo[NSRefreshedObjectsKey] = live(finished.refreshed) }
        if !finished.invalidated.isEmpty { userInfo[NSInvalidatedObjectsKey] = live(finished.invalidated) }
        guard !userInfo.isEmpty else { return }
        NotificationCenter.default.post(name: .NSManagedObjectContextObjectsDidChange, object: self, userInfo: userInfo)
    }
}
