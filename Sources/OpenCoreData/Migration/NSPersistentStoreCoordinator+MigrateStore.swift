/// Apple's `migratePersistentStore(_:to:options:type:)` (and its older
/// `withType:` spelling): a copy of a store, with the same model, to a new
/// location and possibly another store type, which then replaces the
/// original in the coordinator.
///
/// It lives with migration because it copies through a managed object
/// context when the types differ, which the store layer cannot do.
extension NSPersistentStoreCoordinator {
    /// Copies `store` (one of this coordinator's) to a new store of
    /// `storeType` at `url` with `options`, removes `store` from the
    /// coordinator and returns the new store, which holds the same entities
    /// (its configuration) and the application's metadata keys.
    ///
    /// SQLite to SQLite is a backup of the database file (pages and
    /// external-data files; object IDs keep their URIs, the UUID being
    /// copied). Otherwise every object is read into memory and inserted into
    /// the new store in one save, as Core Data does ("loads the store into
    /// memory"; object IDs get the new store's). Throws
    /// NSPersistentStoreOperationError (134070) when `store` is not this
    /// coordinator's or `url` is its own location, 134000 for an unknown
    /// type; on any error the original store stays in the coordinator and a
    /// half-made new one is removed.
    @discardableResult
    public func migratePersistentStore(_ store: NSPersistentStore, to url: URL, options: [AnyHashable: Any]? = nil,
                                       type storeType: NSPersistentStore.StoreType) throws -> NSPersistentStore {
        try migratePersistentStore(store, to: url, options: options, withType: storeType.rawValue)
    }

    /// The older spelling of `migratePersistentStore(_:to:options:type:)`.
    @discardableResult
    public func migratePersistentStore(_ store: NSPersistentStore, to url: URL, options: [AnyHashable: Any]? = nil,
                                       withType storeType: String) throws -> NSPersistentStore {
        guard persistentStores.contains(where: { $0 === store }) else {
            throw NSError.coreData(NSPersistentStoreOperationError, "The store to migrate is not in this coordinator.")
        }
        guard store.url?.standardizedFileURL != url.standardizedFileURL || SQLiteConnection.isInMemory(url) else {
            throw NSError.coreData(NSPersistentStoreOperationError,
                                   "A store can't be migrated onto its own location \(url.path).")
        }
        guard Self.registeredStoreTypesByName[storeType] != nil else {
            throw NSError.coreData(NSPersistentStoreInvalidTypeError, "Unknown store type '\(storeType)'.")
        }
        let configuration = store.configurationName == NSManagedObjectModel.defaultConfigurationName
            ? nil : store.configurationName
        let bySQLiteBackup = store.type == NSSQLiteStoreType && storeType == NSSQLiteStoreType
        if bySQLiteBackup, let source = store.url {
            try replacePersistentStore(at: url, destinationOptions: options, withPersistentStoreFrom: source,
                                       sourceOptions: store.options, ofType: storeType)
        }
        let destination = try addPersistentStore(ofType: storeType, configurationName: configuration, at: url,
                                                 options: options)
        do {
            if bySQLiteBackup {
                // The file copy has the metadata last saved; metadata set since goes with the next save.
                setMetadata(store.metadata, for: destination)
            } else {
                try copyObjects(from: store, to: destination)
            }
            try remove(store)
        } catch {
            try? remove(destination)
            throw error
        }
        return destination
    }

    /// Inserts a copy of every object of `source` into `destination`, with
    /// the relationships between them and the application's metadata keys,
    /// in one save. Holds every object in memory.
    private func copyObjects(from source: NSPersistentStore, to destination: NSPersistentStore) throws {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = self
        var failure: Error?
        context.performAndWait {
            do {
                var copies: [NSManagedObjectID: NSManagedObject] = [:]
                var originals: [NSManagedObject] = []
                let entities = managedObjectModel.entities(forConfigurationName: source.configurationName) ?? []
                for entity in entities where !entity.isAbstract {
                    let request = NSFetchRequest<NSManagedObject>(entityName: entity.name ?? "")
                    request.includesSubentities = false
                    request.affectedStores = [source]
                    for original in try context.fetch(request) {
                        let copy = NSManagedObject(entity: entity, insertInto: context)
                        context.assign(copy, to: destination)
                        for (key, attribute) in entity.attributesByName where !attribute.isTransient {
                            copy.setValue(original.value(forKey: key), forKey: key)
                        }
                        copies[original.objectID] = copy
                        originals.append(original)
                    }
                }
                for original in originals {
                    let copy = copies[original.objectID]!
                    for (key, relationship) in original.entity.relationshipsByName
                    where !relationship.isTransient && Self.isCopied(relationship) {
                        copy.setValue(Self.mapped(original.value(forKey: key), copies), forKey: key)
                    }
                }
                var metadata = destination.metadata
                for (key, value) in source.metadata where !key.hasPrefix("NSStore") && metadata[key] == nil {
                    metadata[key] = value
                }
                setMetadata(metadata, for: destination)
                try context.save()
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Whether the copy sets `relationship` itself rather than leaving it to
    /// inverse maintenance: one side of each pair, and every ordered side, so
    /// that no later inverse update appends to an order already set.
    private static func isCopied(_ relationship: NSRelationshipDescription) -> Bool {
        guard let inverse = relationship.inverseRelationship else { return true }
        if relationship.isOrdered != inverse.isOrdered { return relationship.isOrdered }
        if relationship.isOrdered || inverse === relationship { return true }
        return (relationship.entity?.name ?? "", relationship.name) <= (inverse.entity?.name ?? "", inverse.name)
    }

    /// A relationship value with each object replaced by its copy.
    private static func mapped(_ value: Any?, _ copies: [NSManagedObjectID: NSManagedObject]) -> Any? {
        func copy(_ member: Any) -> NSManagedObject? { (member as? NSManagedObject).flatMap { copies[$0.objectID] } }
        switch value {
        case let object as NSManagedObject: return copies[object.objectID]
        case let set as NSOrderedSet: return NSOrderedSet(array: set.array.compactMap(copy))
        case let set as NSSet: return NSSet(array: set.allObjects.compactMap(copy))
        default: return nil
        }
    }
}
