/// The destination store of a copy migration while it is written: a
/// working store beside the destination (for SQLite; other types are
/// written where they are asked to be), written with the unvalidated
/// model, validated with the real one, then copied over the destination.
/// Until that copy the destination is untouched.
final class MigrationFiles {
    let destination: URL
    let type: String
    /// Where the store is written.
    let working: URL
    private var coordinator: NSPersistentStoreCoordinator?

    init(destination: URL, type: String) {
        self.destination = destination
        self.type = type
        if type == NSSQLiteStoreType, !SQLiteConnection.isInMemory(destination) {
            working = destination.deletingLastPathComponent()
                .appendingPathComponent(".\(destination.lastPathComponent).migrating-\(UUID().uuidString)")
        } else {
            working = destination
        }
    }

    private var isCopied: Bool { working != destination }

    /// A context on a new working store of `model`. Throws 134160.
    func openWorkingStore(model: NSManagedObjectModel, options: [AnyHashable: Any]?) throws
        -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.undoManager = nil
        context.persistentStoreCoordinator = try open(model: model, options: options, ignoringVersion: false)
        return context
    }

    private func open(model: NSManagedObjectModel, options: [AnyHashable: Any]?,
                      ignoringVersion: Bool) throws -> NSPersistentStoreCoordinator {
        var storeOptions = options ?? [:]
        storeOptions[NSMigratePersistentStoresAutomaticallyOption] = false
        if ignoringVersion { storeOptions[NSIgnorePersistentStoreVersioningOption] = true }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try destinationStore("Can't create the destination store at \(destination.path)") {
            try coordinator.addPersistentStore(ofType: type, configurationName: nil, at: working,
                                               options: storeOptions)
        }
        self.coordinator = coordinator
        return coordinator
    }

    /// Phase 3: every destination instance validated with the destination
    /// model (as a save would), in batches. Throws the validation error
    /// (1550–1680, or 1560 with NSDetailedErrorsKey for several).
    func validate(with manager: NSMigrationManager, options: [AnyHashable: Any]?) throws {
        try closeWorkingStore()
        let coordinator = try open(model: manager.destinationModel, options: options, ignoringVersion: true)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            for entity in manager.destinationModel.entities where !entity.isAbstract {
                let request = NSFetchRequest<NSManagedObjectID>(entityName: entity.name ?? "")
                request.resultType = .managedObjectIDResultType
                request.includesSubentities = false
                let ids = try context.fetch(request)
                for start in stride(from: 0, to: ids.count, by: max(manager.batchSize, 1)) {
                    var errors: [NSError] = []
                    for id in ids[start..<min(start + manager.batchSize, ids.count)] {
                        do {
                            try context.object(with: id).validateForInsert()
                        } catch {
                            errors.append(error as NSError)
                        }
                    }
                    if let error = NSError.validation(combining: errors) { throw error }
                    context.reset()
                    try manager.checkCancellation()
                    manager.noteProgress(min(manager.batchSize, ids.count - start))
                }
            }
        }
    }

    /// The store's metadata made the destination model's, and the working
    /// store copied over the destination. Throws 134160.
    func finish(model: NSManagedObjectModel, options: [AnyHashable: Any]?) throws {
        try closeWorkingStore()
        guard type == NSSQLiteStoreType, !SQLiteConnection.isInMemory(working) else { return }
        try destinationStore("Can't write the destination store at \(destination.path)") {
            let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: type, at: working)
            let versioned = try SQLiteInPlaceMigration.metadata(metadata, versionedFor: model, configuration: nil)
            try NSPersistentStoreCoordinator.setMetadata(versioned, forPersistentStoreOfType: type, at: working)
            guard isCopied else { return }
            try NSPersistentStoreCoordinator(managedObjectModel: model)
                .replacePersistentStore(at: destination, destinationOptions: options,
                                        withPersistentStoreFrom: working, sourceOptions: nil, ofType: type)
        }
    }

    private func closeWorkingStore() throws {
        guard let coordinator else { return }
        self.coordinator = nil
        for store in coordinator.persistentStores { try coordinator.remove(store) }
    }

    /// Deletes the working store's files; nothing for a store written in place.
    func removeWorkingStore() {
        try? closeWorkingStore()
        if isCopied { Self.removeFiles(of: working) }
    }

    /// Deletes the SQLite files of the store at `url` and its external data.
    static func removeFiles(of url: URL) {
        let files = FileManager.default
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? files.removeItem(atPath: url.path + suffix)
        }
        let support = SQLiteExternalData(storeURL: url).folder.deletingLastPathComponent()
        if files.fileExists(atPath: support.path) { try? files.removeItem(at: support) }
    }

    private func destinationStore(_ what: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            throw NSError.coreData(NSMigrationManagerDestinationStoreError,
                                   "\(what): \((error as NSError).localizedDescription)",
                                   userInfo: [NSUnderlyingErrorKey: error, NSFilePathErrorKey: destination.path])
        }
    }
}
