// Executing NSBatchDeleteRequest: the stores delete the records; contexts
// learn of it only through the IDs the result lists.

extension NSManagedObjectContext {
    func executeBatchDelete(_ request: NSBatchDeleteRequest) throws -> NSBatchDeleteResult {
        guard let coordinator = persistentStoreCoordinator else {
            throw NSError.coreData(NSPersistentStoreOperationError, "The context has no persistent store coordinator.")
        }
        let fetch = request.fetchRequest
        let model = coordinator.managedObjectModel
        guard let entity = fetch.entity ?? fetch.entityName.flatMap({ model.entitiesByName[$0] }) else {
            throw NSError.coreData(NSPersistentStoreOperationError, "A batch delete needs an entity; "
                                   + "the model has none named '\(fetch.entityName ?? "")'.")
        }
        if let ids = request.objectIDs { try Self.checkBatchDeleteIDs(ids, entity: entity) }
        try FetchKeyPathCheck.check(fetch, entity: entity)
        var delete = StoreBatchDelete(entity: entity, request: fetch, objectIDs: request.objectIDs,
                                      wantsIDs: request.resultType == .resultTypeObjectIDs)
        (delete.author, delete.contextName) = (transactionAuthor, name)
        let stores = request.affectedStores ?? coordinator.persistentStores.filter { store in
            guard store.holds(entity) else { return false }
            return request.objectIDs.map { ids in ids.contains { $0.storeIdentifier == store.identifier } } ?? true
        }
        var count = 0, ids: [NSManagedObjectID] = []
        try coordinator.performStoreAccess {
            for store in stores {
                let deleted = try store.executeBatchDelete(delete)
                count += deleted.count
                ids += deleted.ids ?? []
                store.generation += 1
                // Cascades delete records nobody listed: no fault may fire from a cached row of this store.
                coordinator.rowCache.forgetRecords(ofStore: store.identifier)
            }
        }
        switch request.resultType {
        case .resultTypeStatusOnly: return NSBatchDeleteResult(result: true, resultType: .resultTypeStatusOnly)
        case .resultTypeObjectIDs: return NSBatchDeleteResult(result: ids, resultType: .resultTypeObjectIDs)
        case .resultTypeCount: return NSBatchDeleteResult(result: count, resultType: .resultTypeCount)
        }
    }

    /// Apple: "mixing entity types results in an error when you execute the
    /// request"; temporary IDs name no record of a store either.
    private static func checkBatchDeleteIDs(_ ids: [NSManagedObjectID], entity: NSEntityDescription) throws {
        for id in ids {
            guard id.entity.name == entity.name else {
                throw NSError.coreData(NSPersistentStoreOperationError, "A batch delete by object IDs takes IDs "
                                       + "of one entity; \(id) is not of entity \(entity.name ?? "").")
            }
            guard !id.isTemporaryID else {
                throw NSError.coreData(NSPersistentStoreOperationError,
                                       "A batch delete can't delete \(id): a temporary ID names no record of a store.")
            }
        }
    }
}
