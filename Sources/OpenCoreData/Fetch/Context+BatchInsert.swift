// Executing NSBatchInsertRequest: the store inserts the records; contexts
// see them when they fetch, or merge the IDs the result lists.

extension NSManagedObjectContext {
    func executeBatchInsert(_ request: NSBatchInsertRequest) throws -> NSBatchInsertResult {
        guard let coordinator = persistentStoreCoordinator else {
            throw NSError.coreData(NSPersistentStoreOperationError, "The context has no persistent store coordinator.")
        }
        guard let entity = request.entity ?? coordinator.managedObjectModel.entitiesByName[request.entityName] else {
            throw NSError.coreData(NSPersistentStoreOperationError,
                                   "The model has no entity named '\(request.entityName)'.")
        }
        guard !entity.isAbstract else {
            throw NSError.coreData(NSPersistentStoreOperationError,
                                   "A batch insert can't insert records of abstract entity \(entity.name ?? "").")
        }
        var insert = StoreBatchInsert(entity: entity, nextRecord: try Self.records(of: request, entity: entity),
                                      conflicts: Self.conflicts(mergePolicy),
                                      wantsIDs: request.resultType == .objectIDs)
        (insert.author, insert.contextName) = (transactionAuthor, name)
        let stores = request.affectedStores ?? coordinator.persistentStores.filter { $0.holds(entity) }
        guard let store = stores.first else {
            throw NSError.coreData(NSPersistentStoreOperationError,
                                   "No store of the coordinator holds entity \(entity.name ?? "").")
        }
        let inserted = try coordinator.performStoreAccess {
            let inserted = try store.executeBatchInsert(insert)
            store.generation += 1
            // Records of a constrained entity may have been updated in place.
            if !entity.uniquenessConstraintNames.isEmpty {
                coordinator.rowCache.forgetRecords(ofStore: store.identifier)
            }
            return inserted
        }
        switch request.resultType {
        case .statusOnly: return NSBatchInsertResult(result: true, resultType: .statusOnly)
        case .objectIDs: return NSBatchInsertResult(result: inserted.ids ?? [], resultType: .objectIDs)
        case .count: return NSBatchInsertResult(result: inserted.count, resultType: .count)
        }
    }

    /// The records of `request`, one per call: its objects, or what its
    /// dictionary or managed object handler fills in until it returns `true`.
    private static func records(of request: NSBatchInsertRequest, entity: NSEntityDescription) throws
        -> (_ field: (String, Any) throws -> Void) throws -> Bool {
        if let objects = request.objectsToInsert {
            var iterator = objects.makeIterator()
            return { field in
                guard let record = iterator.next() else { return false }
                for (key, value) in record { try field(key, value) }
                return true
            }
        }
        if let handler = request.dictionaryHandler {
            let dictionary = BatchInsertDictionary()
            var index = 0
            return { field in
                dictionary.clear()
                guard !handler(dictionary) else { return false }
                if let key = dictionary.foreignKey {
                    throw NSError.coreData(NSPersistentStoreOperationError, "Batch insert record \(index): "
                                           + "the key \(key) is not an attribute name (a String).")
                }
                try dictionary.forEachField(field)
                index += 1
                return true
            }
        }
        if let handler = request.managedObjectHandler {
            let objectClass = ManagedObjectClasses.objectClass(for: entity)
            let attributes = entity.properties.compactMap { $0 as? NSAttributeDescription }.filter { !$0.isTransient }
            return { field in
                let object = objectClass.init(entity: entity, insertInto: nil)
                guard !handler(object) else { return false }
                for attribute in attributes {
                    try field(attribute.name, object.value(forKey: attribute.name) ?? NSNull())
                }
                return true
            }
        }
        throw NSError.coreData(NSPersistentStoreOperationError, "A batch insert request needs objectsToInsert, "
                               + "a dictionaryHandler or a managedObjectHandler.")
    }

    /// What a record colliding with a stored one on a uniqueness constraint
    /// does under `policy`: the trumping policies update or keep the stored
    /// record, the error policy fails the request (see BatchInsertRequestTests).
    private static func conflicts(_ policy: Any) -> StoreBatchInsert.Conflicts {
        switch (policy as? NSMergePolicy)?.mergeType ?? .errorMergePolicyType {
        case .errorMergePolicyType: .fail
        case .mergeByPropertyObjectTrumpMergePolicyType, .overwriteMergePolicyType: .update
        case .mergeByPropertyStoreTrumpMergePolicyType, .rollbackMergePolicyType: .keep
        }
    }
}
