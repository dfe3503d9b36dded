// Executing batch requests: they change the stores' records directly, and
// tell the contexts only through the IDs they return.

extension NSManagedObjectContext {
    /// Runs a batch update, delete or insert request against the stores, or
    /// starts an asynchronous fetch and returns its pending result (plain
    /// fetch requests go through `fetch(_:)`). Throws
    /// NSPersistentStoreOperationError (134070) for a request that is not one
    /// of those or is malformed, NSPersistentStoreUnsupportedRequestTypeError
    /// (134091) from a store that does not run batch deletes or inserts,
    /// NSManagedObjectValidationError (1550) for a value that does not fit its
    /// attribute, or a store error; a failed request changes no store it
    /// failed on. Costs one store transaction per store, no managed objects.
    /// The result may be ignored, as Apple's (an Objective-C method) may.
    @discardableResult
    public func execute(_ request: NSPersistentStoreRequest) throws -> NSPersistentStoreResult {
        switch request {
        case let update as NSBatchUpdateRequest: return try executeBatchUpdate(update)
        case let history as NSPersistentHistoryChangeRequest: return try executeHistory(history)
        case let delete as NSBatchDeleteRequest: return try executeBatchDelete(delete)
        case let insert as NSBatchInsertRequest: return try executeBatchInsert(insert)
        case let fetch as any AsynchronousFetchStarting: return fetch.start(in: self)
        default:
            throw NSError.coreData(NSPersistentStoreOperationError,
                                   "execute(_:) runs batch update, delete and insert requests, history requests and "
                                   + "asynchronous fetches; \(type(of: request)) is not one of them.")
        }
    }

    private func executeBatchUpdate(_ request: NSBatchUpdateRequest) throws -> NSBatchUpdateResult {
        guard let coordinator = persistentStoreCoordinator else {
            throw NSError.coreData(NSPersistentStoreOperationError, "The context has no persistent store coordinator.")
        }
        guard let entity = request.entity ?? coordinator.managedObjectModel.entitiesByName[request.entityName] else {
            throw NSError.coreData(NSPersistentStoreOperationError, "The model has no entity named '\(request.entityName)'.")
        }
        var update = StoreBatchUpdate(entity: entity, predicate: request.predicate,
                                      includesSubentities: request.includesSubentities,
                                      values: try Self.batchValues(request.propertiesToUpdate, of: entity))
        (update.author, update.contextName) = (transactionAuthor, name)
        update.wantsIDs = request.resultType == .updatedObjectIDsResultType
        try FetchKeyPathCheck.check(update.fetchRequest, entity: entity)
        let stores = request.affectedStores ?? coordinator.persistentStores.filter { $0.holds(entity) }
        var count = 0, ids: [NSManagedObjectID] = []
        try coordinator.performStoreAccess {
            for store in stores {
                let updated = try store.executeBatchUpdate(update)
                count += updated.count
                store.generation += 1
                // Objects keep their values, but no fault may fire from a record the update replaced.
                if let updatedIDs = updated.ids {
                    coordinator.rowCache.forget(updatedIDs)
                    ids += updatedIDs
                } else {
                    coordinator.rowCache.forgetRecords(ofStore: store.identifier) { recordEntity in
                        recordEntity === entity || (update.includesSubentities && recordEntity.isKindOf(entity: entity))
                    }
                }
            }
        }
        switch request.resultType {
        case .statusOnlyResultType: return NSBatchUpdateResult(result: true, resultType: .statusOnlyResultType)
        case .updatedObjectIDsResultType: return NSBatchUpdateResult(result: ids, resultType: .updatedObjectIDsResultType)
        case .updatedObjectsCountResultType:
            return NSBatchUpdateResult(result: count, resultType: .updatedObjectsCountResultType)
        }
    }

    /// `propertiesToUpdate` as attributes of `entity` with checked values.
    private static func batchValues(_ properties: [AnyHashable: Any]?, of entity: NSEntityDescription) throws
        -> [(attribute: NSAttributeDescription, value: StoreBatchUpdate.Value)] {
        guard let properties, !properties.isEmpty else {
            throw NSError.coreData(NSPersistentStoreOperationError, "A batch update request needs propertiesToUpdate.")
        }
        return try properties.map { key, value in
            let name = (key.base as? NSPropertyDescription)?.name ?? (key.base as? String) ?? "\(key.base)"
            guard let property = entity.propertiesByName[name] else {
                throw NSError.coreData(NSPersistentStoreOperationError, "Entity \(entity.name ?? "") has no property named '\(name)' to update.")
            }
            guard let attribute = property as? NSAttributeDescription, !attribute.isTransient else {
                throw NSError.coreData(NSPersistentStoreOperationError,
                                       "\(entity.name ?? "").\(name) is a \(property is NSRelationshipDescription ? "relationship" : "transient attribute"); "
                                       + "a batch update sets stored attributes only.")
            }
            if let expression = value as? NSExpression {
                guard expression.expressionType == .constantValue else { return (attribute, .expression(expression)) }
                return (attribute, .constant(try StoreBatchUpdate.checked(expression.constantValue, for: attribute)))
            }
            return (attribute, .constant(try StoreBatchUpdate.checked(value, for: attribute)))
        }.sorted { $0.attribute.name < $1.attribute.name }
    }

    /// Brings changes made outside any context (a batch request's IDs, or
    /// another coordinator's save) into `contexts`, on each context's queue:
    /// `changes` holds `NSInsertedObjectsKey`, `NSUpdatedObjectsKey` and
    /// `NSDeletedObjectsKey` (or the `…IDsKey` keys) with object IDs or their
    /// URIs. Updated objects are refreshed from the store (keeping local
    /// changes), deleted ones leave the contexts, as `mergeChanges(fromContextDidSave:)` does.
    public static func mergeChanges(fromRemoteContextSave changes: [AnyHashable: Any], into contexts: [NSManagedObjectContext]) {
        for context in contexts {
            context.performAndWait {
                guard let coordinator = context.persistentStoreCoordinator else { return }
                func ids(_ keys: String...) -> Set<NSManagedObjectID> {
                    var found = Set<NSManagedObjectID>()
                    for key in keys {
                        let values: [Any] = (changes[key] as? [Any]) ?? (changes[key] as? Set<AnyHashable>).map { Array($0) } ?? []
                        for value in values {
                            if let id = value as? NSManagedObjectID { found.insert(id) }
                            if let url = value as? URL, let id = coordinator.managedObjectID(forURIRepresentation: url) { found.insert(id) }
                        }
                    }
                    return found
                }
                let updated = ids(NSUpdatedObjectsKey, NSUpdatedObjectIDsKey)
                coordinator.performStoreAccess { coordinator.rowCache.forget(updated) }
                context.mergeChanges(fromContextDidSave: Notification(name: NSManagedObjectContext.didSaveObjectIDsNotification, userInfo: [
                    NSInsertedObjectIDsKey: ids(NSInsertedObjectsKey, NSInsertedObjectIDsKey),
                    NSUpdatedObjectIDsKey: updated,
                    NSDeletedObjectIDsKey: ids(NSDeletedObjectsKey, NSDeletedObjectIDsKey),
                ]))
            }
        }
    }
}
