// Choosing the store a new object is saved to, when several stores hold its entity.

extension NSManagedObjectContext {
    /// Makes `store` the store the newly inserted `object` is saved to (Apple's
    /// `assign(_ object: Any, to store: NSPersistentStore)`); without it, a new object goes to the
    /// first store that holds its entity.
    ///
    /// The object gets its permanent ID from `store` at once: the save sends every object with a
    /// permanent ID to that ID's store, so the choice needs no other record. Stops the program when
    /// `object` is not a managed object inserted in this context, already has a permanent ID of
    /// another store, or `store` can't hold its entity (Core Data raises an exception there).
    public func assign(_ object: Any, to store: NSPersistentStore) {
        guard let object = object as? NSManagedObject, object.managedObjectContext === self, object.isInserted else {
            preconditionFailure("assign(_:to:) takes a managed object newly inserted into this context")
        }
        if !object.hasTemporaryID {
            precondition(object.objectID.persistentStore === store,
                         "assign(_:to:): the object already has a permanent ID of another store")
            return
        }
        guard let coordinator = persistentStoreCoordinator,
              coordinator.persistentStores.contains(where: { $0 === store }), store.holds(object.entity) else {
            preconditionFailure("assign(_:to:): the store is not one of the context's coordinator that holds entity "
                + (object.entity.name ?? ""))
        }
        let key: Int64
        do {
            key = try coordinator.performStoreAccess { try store.newPrimaryKeys(for: object.entity, count: 1)[0] }
        } catch {
            preconditionFailure("assign(_:to:): the store could not give a new primary key: \(error)")
        }
        reassign(object, to: store.objectID(for: object.entity, primaryKey: key))
    }
}
