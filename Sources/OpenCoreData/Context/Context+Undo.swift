// Undo and redo. At the end of each event the context registers with its undo manager what undoes the event: the
// objects it inserted are deleted, the objects it deleted come back, and every changed object gets its values from
// the start of the event back (both sides of each relationship changed, so no inverse maintenance is needed).
// Undoing is itself an event, whose registration (while the manager undoes) is what redoes it.

extension NSManagedObjectContext {
    /// Undoes the last group of changes the undo manager recorded, after recording the pending ones.
    public func undo() {
        processPendingChanges()
        undoManager?.undo()
    }

    /// Redoes the last undone group of changes.
    public func redo() {
        processPendingChanges()
        undoManager?.redo()
    }

    /// Registers what undoes `event` with `manager`, in a group of its own unless the application opened one or
    /// turned `groupsByEvent` off.
    func registerUndo(of event: ContextEvent, with manager: UndoManager) {
        let record = UndoRecord(event: event, context: self)
        guard !record.isEmpty else { return }
        let groups = manager.groupsByEvent && manager.groupingLevel == 0
        if groups { manager.beginUndoGrouping() }
        manager.registerUndo(withTarget: self) { context in context.apply(record) }
        if groups { manager.endUndoGrouping() }
    }

    private func apply(_ record: UndoRecord) {
        for (object, values) in record.deleted {
            // A deletion saved since: the object was let go with its values; it comes back as a new record.
            if object.managedObjectContext == nil && object.isFaultStorage {
                object.values = values
                object.isFaultStorage = false
            }
            insert(object)
        }
        for (object, slots) in record.changed where object.managedObjectContext === self {
            for (slot, value) in slots { object.storeChange(value, slot: slot) }
        }
        for object in record.inserted where object.managedObjectContext === self { delete(object) }
        for object in record.undeleted where object.managedObjectContext === self { delete(object) }
        processPendingChanges()
        for (object, _) in record.changed where object.managedObjectContext === self && object.isUpdatedFlag {
            if object.changedValues().isEmpty { noteUnchanged(object) }
        }
    }
}

/// What undoes one event of a context.
private struct UndoRecord {
    /// Objects the event inserted, to delete.
    var inserted: [NSManagedObject] = []
    /// Objects the event deleted, to insert again, with their values at the end of the event.
    var deleted: [(NSManagedObject, PropertyValues)] = []
    /// Objects the event changed, with each changed slot's value from the start of the event.
    var changed: [(NSManagedObject, [(Int, SlotValue)])] = []
    /// Objects whose earlier deletion the event took back, to delete again.
    var undeleted: [NSManagedObject] = []

    var isEmpty: Bool { inserted.isEmpty && deleted.isEmpty && changed.isEmpty && undeleted.isEmpty }

    init(event: ContextEvent, context: NSManagedObjectContext) {
        let insertedNow = event.inserted.filter { $0.managedObjectContext === context && !$0.isDeletedFlag }
        inserted = insertedNow
        undeleted = event.undeleted.filter { $0.managedObjectContext === context && !$0.isDeletedFlag }
        // An object inserted and deleted within the event never existed outside it.
        deleted = event.deleted.objects.filter { !event.wasInserted($0) }.map { ($0, $0.values) }
        for object in event.changed where !event.wasInserted(object) {
            guard let baseline = object.eventBaseline, !baseline.isEmpty else { continue }
            let slots = object.changedValuesForCurrentEvent().keys.compactMap { name in
                object.values.layout.slotsByName[name].map { ($0, baseline[$0]) }
            }
            if !slots.isEmpty { changed.append((object, slots)) }
        }
    }
}
