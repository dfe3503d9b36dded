/// `migrateStore`: the stores a migration reads and writes, and what
/// happens to the destination file.
extension NSMigrationManager {
    /// Migrates the store at `sourceURL` into a new store at
    /// `destinationURL` through `mapping` (Apple's iOS 15 spelling).
    public func migrateStore(from sourceURL: URL, type sourceType: NSPersistentStore.StoreType,
                             options sourceOptions: [AnyHashable: Any]? = nil, mapping: NSMappingModel,
                             to destinationURL: URL, type destinationType: NSPersistentStore.StoreType,
                             options destinationOptions: [AnyHashable: Any]? = nil) throws {
        try migrateStore(from: sourceURL, sourceType: sourceType.rawValue, options: sourceOptions, with: mapping,
                         toDestinationURL: destinationURL, destinationType: destinationType.rawValue,
                         destinationOptions: destinationOptions)
    }

    /// Migrates the store at `sourceURL` (which must exist; it is only read)
    /// into a store of `dStoreType` at `dURL` through `mappings` (the
    /// inferred mapping when nil). The destination is written beside `dURL`
    /// and copied over it once validated, so a failed or cancelled migration
    /// leaves whatever was at `dURL` as it was.
    ///
    /// Throws NSMigrationManagerSourceStoreError (134150) when the source
    /// store can't be opened with the source model, NSMigrationManager-
    /// DestinationStoreError (134160) when the destination can't be
    /// created or saved, NSMigrationError (134110) when the mapping model
    /// names entities the models lack, NSEntityMigrationPolicyError (134170)
    /// when a policy class or an expression fails, the validation error of
    /// an invalid destination instance (1550–1680, 1560 for several), and
    /// whatever a policy throws or ``cancelMigrationWithError(_:)`` was given.
    /// Memory: one batch of objects and two object IDs per instance.
    public func migrateStore(from sourceURL: URL, sourceType sStoreType: String,
                             options sOptions: [AnyHashable: Any]? = nil, with mappings: NSMappingModel?,
                             toDestinationURL dURL: URL, destinationType dStoreType: String,
                             destinationOptions dOptions: [AnyHashable: Any]? = nil) throws {
        reset()
        startReportingProgress()
        defer { stopReportingProgress() }
        let mapping = try mappings ?? NSMappingModel.inferredMappingModel(forSourceModel: sourceModel,
                                                                          destinationModel: destinationModel)
        runningMapping = mapping
        try MigrationCheck(manager: self, mapping: mapping).run()
        let files = MigrationFiles(destination: dURL, type: dStoreType)
        defer { files.removeWorkingStore() }
        if usesStoreSpecificMigrationManager, mapping.isInferred, sStoreType == NSSQLiteStoreType,
           dStoreType == NSSQLiteStoreType {
            try migrateInPlace(from: sourceURL, options: sOptions, mapping: mapping, into: files)
        } else {
            let source = try openSource(sourceURL, type: sStoreType, options: sOptions)
            let destination = try files.openWorkingStore(model: MigrationValues.unvalidated(destinationModel),
                                                         options: dOptions)
            defer {
                contexts = nil
                source.persistentStoreCoordinator?.persistentStores.forEach {
                    try? source.persistentStoreCoordinator?.remove($0)
                }
            }
            contexts = (source, destination)
            try MigrationPhases(manager: self, mapping: mapping).run()
            try files.validate(with: self, options: dOptions)
            for entityMapping in mapping.entityMappings ?? [] {
                currentMapping = entityMapping
                try policy(for: entityMapping).end(entityMapping, manager: self)
            }
        }
        try checkCancellation()
        try files.finish(model: destinationModel, options: dOptions)
        setProgress(1)
    }

    /// The lightweight path: a copy of the source, migrated in place in SQL
    /// by the SQLite store as it opens with the destination model.
    private func migrateInPlace(from sourceURL: URL, options: [AnyHashable: Any]?, mapping: NSMappingModel,
                                into files: MigrationFiles) throws {
        let copier = NSPersistentStoreCoordinator(managedObjectModel: sourceModel)
        do {
            try copier.replacePersistentStore(at: files.working, destinationOptions: nil,
                                              withPersistentStoreFrom: sourceURL, sourceOptions: options,
                                              ofType: NSSQLiteStoreType)
        } catch {
            throw NSError.coreData(NSMigrationManagerSourceStoreError,
                                   "Can't read the source store at \(sourceURL.path): "
                                   + (error as NSError).localizedDescription,
                                   userInfo: [NSUnderlyingErrorKey: error, NSFilePathErrorKey: sourceURL.path])
        }
        try checkCancellation()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: destinationModel)
        let store = try withProgressCurrent(forUnits: 900) {
            try coordinator.addPersistentStore(
                ofType: NSSQLiteStoreType, configurationName: nil, at: files.working,
                options: [NSMigratePersistentStoresAutomaticallyOption: true,
                          NSInferMappingModelAutomaticallyOption: true,
                          SQLiteStoreMigration.sourceModelOption: sourceModel])
        }
        try coordinator.remove(store)
        setProgress(0.9)
    }

    /// The source store, read-only, in a new context of its own coordinator.
    private func openSource(_ url: URL, type: String, options: [AnyHashable: Any]?) throws -> NSManagedObjectContext {
        var readOptions = options ?? [:]
        readOptions[NSReadOnlyPersistentStoreOption] = true
        readOptions[NSIgnorePersistentStoreVersioningOption] = true
        readOptions[NSMigratePersistentStoresAutomaticallyOption] = false
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: sourceModel)
        do {
            if type == NSSQLiteStoreType, !SQLiteConnection.isInMemory(url),
               !FileManager.default.fileExists(atPath: url.path) {
                throw NSError(domain: NSCocoaErrorDomain, code: NSFileReadNoSuchFileError,
                              userInfo: [NSFilePathErrorKey: url.path])
            }
            try coordinator.addPersistentStore(ofType: type, configurationName: nil, at: url, options: readOptions)
        } catch {
            throw NSError.coreData(NSMigrationManagerSourceStoreError,
                                   "Can't open the source store at \(url.path) with the source model: "
                                   + (error as NSError).localizedDescription,
                                   userInfo: [NSUnderlyingErrorKey: error, NSFilePathErrorKey: url.path])
        }
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        context.undoManager = nil
        return context
    }

    /// The policy of `mapping`: one instance per mapping for a whole
    /// migration, of the class the mapping names. Throws 134170 when no
    /// such subclass of NSEntityMigrationPolicy is found.
    func policy(for mapping: NSEntityMapping) throws -> NSEntityMigrationPolicy {
        let key = ObjectIdentifier(mapping)
        if let made = policies[key] { return made }
        var type: NSEntityMigrationPolicy.Type = NSEntityMigrationPolicy.self
        if let name = mapping.entityMigrationPolicyClassName, !name.isEmpty, name != "NSEntityMigrationPolicy" {
            let cleaned = ManagedObjectClasses.cleanedClassName(name)
            guard let found = ClassNameLookup.type(named: cleaned, as: NSEntityMigrationPolicy.Type.self) else {
                throw NSError.coreData(NSEntityMigrationPolicyError,
                                       "Entity migration policy error: no subclass of NSEntityMigrationPolicy is "
                                       + "named \(name) (entity mapping \(mapping.name ?? "?")).",
                                       userInfo: ["entityMapping": mapping.name ?? "", "className": name])
            }
            type = found
        }
        let made = type.init()
        policies[key] = made
        return made
    }
}
