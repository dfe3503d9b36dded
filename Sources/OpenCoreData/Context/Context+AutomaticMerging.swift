// `automaticallyMergesChangesFromParent`: a context without a parent merges
// what other contexts of its coordinator save, a nested one what is saved
// into its parent and what its parent saves (Apple's documentation: "whether
// the context automatically merges changes saved to its persistent store
// coordinator or parent context"; SO 66784854 for the parent-less case), as
// Xcode's template sets it on `viewContext`.

extension NSManagedObjectContext {
    /// Whether the context merges the saves of the other contexts of its
    /// coordinator by itself, on its own queue, as `mergeChanges(fromContextDidSave:)`
    /// does (objects with unsaved changes keep them). Costs one observation of
    /// every context's DidSave while on; the merge runs after the save, when
    /// the context's queue gets to it.
    public var automaticallyMergesChangesFromParent: Bool {
        get { automaticMergeObserver != nil }
        set {
            guard newValue != automaticallyMergesChangesFromParent else { return }
            if let observer = automaticMergeObserver { NotificationCenter.default.removeObserver(observer) }
            automaticMergeObserver = newValue ? observeSaves() : nil
        }
    }

    private func observeSaves() -> any NSObjectProtocol {
        NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: nil, queue: nil) {
            [weak self] notification in
            guard let self, let saver = notification.object as? NSManagedObjectContext, saver !== self,
                  self.mergesSaves(of: saver) else { return }
            // IDs only cross to this context's queue: the saver's objects belong to the saver.
            let saved = SavedObjectIDs(notification)
            self.perform { self.mergeChanges(fromContextDidSave: saved.notification) }
        }
    }
}

extension NSManagedObjectContext {
    /// Whether `saver`'s saves reach what this context reads: for a context
    /// without a parent, saves of the other such contexts of its coordinator
    /// (a nested context's save reaches its parent only); for a nested
    /// context, saves of its parent and of its siblings, which save into it.
    fileprivate func mergesSaves(of saver: NSManagedObjectContext) -> Bool {
        guard let parent else {
            return saver.parent == nil && saver.persistentStoreCoordinator === persistentStoreCoordinator
        }
        return saver === parent || saver.parent === parent
    }
}

/// The IDs of what a DidSave notification lists, to merge on another queue.
private struct SavedObjectIDs: @unchecked Sendable {
    let inserted: Set<NSManagedObjectID>, updated: Set<NSManagedObjectID>, deleted: Set<NSManagedObjectID>

    init(_ notification: Notification) {
        func ids(_ key: String) -> Set<NSManagedObjectID> {
            Set((notification.userInfo?[key] as? Set<NSManagedObject> ?? []).map(\.objectID))
        }
        inserted = ids(NSInsertedObjectsKey)
        updated = ids(NSUpdatedObjectsKey)
        deleted = ids(NSDeletedObjectsKey)
    }

    var notification: Notification {
        Notification(name: NSManagedObjectContext.didSaveObjectIDsNotification, object: nil, userInfo: [
            NSInsertedObjectIDsKey: inserted, NSUpdatedObjectIDsKey: updated, NSDeletedObjectIDsKey: deleted,
        ])
    }
}
