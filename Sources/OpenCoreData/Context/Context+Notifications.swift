// The notifications a context posts, with Apple's names and userInfo keys
// (reference §3.7), and merging another context's saved changes.

extension NSNotification.Name {
    /// Posted at the end of an event in which registered objects changed.
    public static let NSManagedObjectContextObjectsDidChange = Notification.Name("NSObjectsChangedInManagingContextNotification")
    /// Posted when a save starts; no userInfo.
    public static let NSManagedObjectContextWillSave = Notification.Name("NSManagingContextWillSaveChangesNotification")
    /// Posted after a save, with the saved objects.
    public static let NSManagedObjectContextDidSave = Notification.Name("NSManagingContextDidSaveChangesNotification")
}

extension NSManagedObjectContext {
    /// Posted after a save, with the saved objects' IDs.
    public static let didSaveObjectIDsNotification = Notification.Name("NSManagedObjectContextDidSaveObjectIDsNotification")
    /// The newer name of `NSManagedObjectContextObjectsDidChange`.
    public static let didChangeObjectsNotification = Notification.Name.NSManagedObjectContextObjectsDidChange
    /// The newer name of `NSManagedObjectContextWillSave`.
    public static let willSaveObjectsNotification = Notification.Name.NSManagedObjectContextWillSave
    /// The newer name of `NSManagedObjectContextDidSave`.
    public static let didSaveObjectsNotification = Notification.Name.NSManagedObjectContextDidSave
    /// Posted by a context after it merged another context's saved changes,
    /// with the IDs of the objects the merge inserted, updated and deleted.
    public static let didMergeChangesObjectIDsNotification =
        Notification.Name("NSManagedObjectContextDidMergeChangesObjectIDsNotification")

    /// The userInfo keys of the context notifications (Apple's Swift names
    /// for the string constants such as `NSInsertedObjectsKey`).
    public enum NotificationKey: String, Sendable {
        /// The context a notification concerns (Apple's key; OpenCoreData passes the context as the
        /// notification's `object` and does not fill this key).
        case sourceContext = "managedObjectContext"
        /// The query generation a context moved to (Apple's key; not filled here: read the context's
        /// `queryGenerationToken` instead).
        case queryGeneration = "newQueryGeneration"
        /// The IDs of every object, when a context invalidated them all at once (its `reset()`).
        case invalidatedAllObjects = "invalidatedAll"
        /// The set of inserted objects (Objective-C's `NSInsertedObjectsKey`).
        case insertedObjects = "inserted"
        /// The set of updated objects (`NSUpdatedObjectsKey`).
        case updatedObjects = "updated"
        /// The set of deleted objects (`NSDeletedObjectsKey`).
        case deletedObjects = "deleted"
        /// The set of objects refreshed from the store (`NSRefreshedObjectsKey`).
        case refreshedObjects = "refreshed"
        /// The set of objects invalidated (`NSInvalidatedObjectsKey`).
        case invalidatedObjects = "invalidated"
        /// The set of inserted objects' IDs, in the ID-only notifications (`NSInsertedObjectIDsKey`).
        case insertedObjectIDs = "inserted_objectIDs"
        /// The set of updated objects' IDs (`NSUpdatedObjectIDsKey`).
        case updatedObjectIDs = "updated_objectIDs"
        /// The set of deleted objects' IDs (`NSDeletedObjectIDsKey`).
        case deletedObjectIDs = "deleted_objectIDs"
        /// The set of refreshed objects' IDs (`NSRefreshedObjectIDsKey`).
        case refreshedObjectIDs = "refreshed_objectIDs"
        /// The set of invalidated objects' IDs (`NSInvalidatedObjectIDsKey`).
        case invalidatedObjectIDs = "invalidated_objectIDs"
    }

    /// Brings in the changes another context saved, given its DidSave
    /// notification: updated objects registered here are refreshed (keeping
    /// local changes), deleted ones are dropped, inserted ones are registered
    /// as faults. The ObjectsDidChange that follows lists them as refreshed
    /// (faults among the updated too: they load the new values when used),
    /// deleted and inserted, so fetched-results controllers see the merge;
    /// then `didMergeChangesObjectIDsNotification` with the merged IDs.
    /// Costs one store read per refreshed object.
    public func mergeChanges(fromContextDidSave notification: Notification) {
        if parent != nil { adoptPendingPermanentIDs() }
        // A pinned context moves to the generation that holds the merged changes.
        advanceQueryGeneration()
        let info = notification.userInfo ?? [:]
        func ids(_ key: String) -> [NSManagedObjectID] {
            if let objects = info[key] as? Set<NSManagedObject> { return objects.map(\.objectID) }
            return Array(info[key] as? Set<NSManagedObjectID> ?? [])
        }
        let updatedIDs = ids(NSUpdatedObjectsKey) + ids(NSUpdatedObjectIDsKey)
        let deletedIDs = ids(NSDeletedObjectsKey) + ids(NSDeletedObjectIDsKey)
        let insertedIDs = ids(NSInsertedObjectsKey) + ids(NSInsertedObjectIDsKey)
        for id in insertedIDs where registeredObject(for: id) == nil {
            event.noteInserted(object(with: id))
        }
        for id in updatedIDs {
            guard let object = registeredObject(for: id) else { continue }
            if object.isFault { event.refreshed.append(object) } else { refresh(object, mergeChanges: true) }
        }
        for id in deletedIDs {
            guard let object = registeredObject(for: id) else { continue }
            // The saving context also saved every object whose inverse pointed
            // here; refreshing those (above) removed the references.
            forget(object)
            event.deleted.append(object)
        }
        processPendingChanges()
        NotificationCenter.default.post(name: Self.didMergeChangesObjectIDsNotification, object: self, userInfo: [
            NSInsertedObjectIDsKey: Set(sparse: insertedIDs), NSUpdatedObjectIDsKey: Set(sparse: updatedIDs),
            NSDeletedObjectIDsKey: Set(sparse: deletedIDs),
        ])
    }
}

/// userInfo key of inserted objects in context notifications.
public let NSInsertedObjectsKey = "inserted"
/// userInfo key of updated objects in context notifications.
public let NSUpdatedObjectsKey = "updated"
/// userInfo key of deleted objects in context notifications.
public let NSDeletedObjectsKey = "deleted"
/// userInfo key of refreshed objects in ObjectsDidChange.
public let NSRefreshedObjectsKey = "refreshed"
/// userInfo key of invalidated objects in ObjectsDidChange.
public let NSInvalidatedObjectsKey = "invalidated"
/// userInfo key of the IDs of all objects when a context invalidated everything.
public let NSInvalidatedAllObjectsKey = "invalidatedAll"
/// userInfo key of inserted object IDs in DidSaveObjectIDs.
public let NSInsertedObjectIDsKey = "inserted_objectIDs"
/// userInfo key of updated object IDs in DidSaveObjectIDs.
public let NSUpdatedObjectIDsKey = "updated_objectIDs"
/// userInfo key of deleted object IDs in DidSaveObjectIDs.
public let NSDeletedObjectIDsKey = "deleted_objectIDs"
/// userInfo key of refreshed object IDs.
public let NSRefreshedObjectIDsKey = "refreshed_objectIDs"
/// userInfo key of invalidated object IDs.
public let NSInvalidatedObjectIDsKey = "invalidated_objectIDs"
