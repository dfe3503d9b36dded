import Foundation
import GRDB
import Logging

/// Automatic lightweight migration when an SQLite store opens with a model
/// that did not write it (`NSMigratePersistentStoresAutomaticallyOption`
/// and `NSInferMappingModelAutomaticallyOption`, both set by
/// NSPersistentStoreDescription by default, as on Apple platforms).
///
/// Errors are Core Data's: 134100 without the migrate option, 134130 when
/// no version at hand wrote the store, 134140 without the infer option or
/// when no mapping can be inferred (the inference's 134190 underneath),
/// 134111 when rows break a uniqueness constraint the destination adds, and
/// 134110 when the migration otherwise fails; the store is then untouched.
/// The in-place migration reports its steps to a child of the opening
/// thread's current `Progress` (Foundation's implicit composition).
enum SQLiteStoreMigration {
    /// An option naming the source model outright: NSMigrationManager's,
    /// when it has the store migrate a copy of its source in place.
    static let sourceModelOption = "OpenCoreDataMigrationSourceModel"

    /// The version of the model that wrote a store, and how it was found.
    struct SourceModel {
        var model: NSManagedObjectModel
        /// True when its entities are the destination's (found by schema
        /// among versions equal to the current one): nothing to migrate.
        var isDestination: Bool
    }

    /// Migrates the store in `database` if its metadata was written for
    /// another model and the options ask for it; returns the metadata to use
    /// (nil when the store is compatible). Throws the errors above.
    static func migrateIfNeeded(_ metadata: [String: Any], database: any DatabaseWriter, model: NSManagedObjectModel,
                                configuration: String?, url: URL, options: [AnyHashable: Any]?, readOnly: Bool)
        throws -> [String: Any]? {
        let stored = (metadata[NSStoreModelVersionHashesKey] as? [String: Any]) ?? [:]
        guard model.differingEntities(forConfigurationName: configuration, storeHashes: stored)?.isEmpty == false
        else { return nil }
        guard flag(NSMigratePersistentStoresAutomaticallyOption, options), !readOnly else {
            try SQLiteStoreSetup.checkCompatible(metadata, model: model, configuration: configuration, url: url)
            return nil
        }
        let log = MigrationLog(store: url)
        log.note("will attempt automatic schema migration")
        let source = try (options?[sourceModelOption] as? NSManagedObjectModel).map {
            SourceModel(model: $0, isDestination: false)
        } ?? sourceModel(ofStoreAt: url, metadata: metadata, destination: model, configuration: configuration)
        if source.isDestination {
            // An Apple-written store of this very version: its hashes are Apple's, its schema ours.
            var updated = metadata
            updated[NSStoreModelVersionHashesKey] = model.entityVersionHashesByName
            return updated
        }
        if let migrated = try migrateWithMappingModelFile(database, url: url, source: source.model,
                                                          destination: model, log: log) {
            return migrated
        }
        guard flag(NSInferMappingModelAutomaticallyOption, options) else {
            throw missingMapping(url, underlying: nil, "the store needs a migration and NSInferMappingModel"
                                 + "AutomaticallyOption is not set, and no mapping model file maps the store's "
                                 + "version to the model")
        }
        log.note("inferring a mapping model between data models with source hashes: "
                 + "\(source.model.entityVersionHashesByName.keys.sorted()) and destination hashes: "
                 + "\(model.entityVersionHashesByName.keys.sorted())")
        let mapping: NSMappingModel
        do {
            mapping = try NSMappingModel.inferredMappingModel(forSourceModel: source.model, destinationModel: model)
        } catch {
            throw missingMapping(url, underlying: error as NSError, (error as NSError).localizedDescription)
        }
        if log.level >= 3 { for entityMapping in mapping.entityMappings { log.note("\(entityMapping)") } }
        let start = ContinuousClock.now
        // Made here, on the caller's thread, so that it joins the caller's current Progress, if any.
        let progress = Progress(totalUnitCount: 1)
        do {
            let migrated = try database.write { db in
                let migration = try SQLiteInPlaceMigration(sourceModel: source.model, destinationModel: model,
                                                           mapping: mapping, configuration: configuration,
                                                           file: SQLiteFileJoinTables(db))
                return try migration.run(db, metadata: metadata, progress: progress)
            }
            let elapsed = (ContinuousClock.now - start).components
            let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
            log.note("in-place migration completed successfully in \(String(format: "%.2f", seconds)) seconds")
            return migrated
        } catch {
            log.note("in-place migration failed: \((error as NSError).localizedDescription)")
            // GRDB's errors are Swift errors: on Linux only a coercion makes them NSErrors.
            let error = error as NSError
            if error.code == NSMigrationConstraintViolationError { throw error }
            let detail = error.code == NSMigrationError ? error.localizedDescription
                : "Cannot migrate store in-place: \(error.localizedDescription)"
            throw NSError.coreData(NSMigrationError, "An error occurred during persistent store migration. \(detail)",
                                   userInfo: ["sourceURL": url, "reason": detail, NSUnderlyingErrorKey: error,
                                              NSFilePathErrorKey: url.path])
        }
    }

    /// Core Data's first choice: a mapping model file (`.xcmappingmodel`)
    /// that maps the store's version to `destination`, run by
    /// NSMigrationManager into a new file whose pages then replace the
    /// store's in one SQLite backup (the store's file is never half
    /// written); its metadata. Nil when no file maps the two versions.
    /// Throws the migration's error (134110 wrapping one that is not a
    /// migration error); the store is then untouched.
    private static func migrateWithMappingModelFile(_ database: any DatabaseWriter, url: URL,
                                                    source: NSManagedObjectModel, destination: NSManagedObjectModel,
                                                    log: MigrationLog) throws -> [String: Any]? {
        let folders = NSMigrationManager.mappingFolders(for: destination)
        guard let mapping = try NSMappingModel.mapping(inFolders: folders, from: source, to: destination) else {
            return nil
        }
        log.note("found a mapping model file: migrating with NSMigrationManager")
        do {
            let copy = try NSMigrationManager.migratedCopy(ofStoreAt: url, source: source, destination: destination,
                                                           mapping: mapping)
            defer { NSMigrationManager.removeMigratedCopy(at: copy) }
            try DatabaseQueue(path: copy.path).backup(to: database)
            return try database.read(SQLiteMetadata.read)
        } catch {
            let error = error as NSError
            let migrationCodes = NSMigrationError...NSInferredMappingModelError
            if error.domain == NSCocoaErrorDomain, migrationCodes.contains(error.code) { throw error }
            throw NSError.coreData(NSMigrationError, "An error occurred during persistent store migration. "
                                   + error.localizedDescription,
                                   userInfo: [NSUnderlyingErrorKey: error, NSFilePathErrorKey: url.path])
        }
    }

    /// The model that wrote the store: a version with the store's hashes
    /// (next to the current model in its `.xcdatamodeld`, or in the main
    /// bundle), else the version whose layout the file has, else the model
    /// cached in the file. Throws 134130 when there is none.
    static func sourceModel(ofStoreAt url: URL, metadata: [String: Any], destination: NSManagedObjectModel,
                            configuration: String?) throws -> SourceModel {
        // Versions are read one by one until one has the store's hashes; the destination is not read again.
        var candidates: [(name: String, model: NSManagedObjectModel)] = []
        let bundle = destination.versionBundleURL.flatMap { try? ModelVersionBundle(url: $0) }
        for name in bundle?.versionNames ?? ["current"] {
            guard let model = name == (destination.versionName ?? "current") ? destination
                    : try? bundle?.model(named: name) else { continue }
            candidates.append((name, model))
            if model !== destination, model.isConfiguration(withName: configuration,
                                                            compatibleWithStoreMetadata: metadata) {
                return SourceModel(model: model, isDestination: false)
            }
        }
        if let merged = NSManagedObjectModel.mergedModel(from: nil, forStoreMetadata: metadata) {
            return SourceModel(model: merged, isDestination: false)
        }
        if let name = try? SQLiteStoreVersionMatching.version(ofStoreAt: url, among: candidates),
           let found = candidates.first(where: { $0.name == name })?.model {
            return SourceModel(model: found,
                               isDestination: found.entityVersionHashesByName == destination.entityVersionHashesByName)
        }
        if let cached = try? SQLiteModelCache.model(at: url) {
            return SourceModel(model: cached, isDestination: false)
        }
        throw NSError.coreData(NSMigrationMissingSourceModelError,
                               "Persistent store migration failed, missing source managed object model: no version "
                               + "at hand wrote the store at \(url.path).",
                               userInfo: ["metadata": metadata, NSFilePathErrorKey: url.path])
    }

    /// `-com.apple.CoreData.MigrationDebug` lines, as Core Data writes them
    /// ("CoreData: annotation: (migration) …"), to ``CoreDataDebug/logger``.
    struct MigrationLog {
        let level = CoreDataDebug.migrationDebugLevel
        let logger: Logger?

        init(store: URL) {
            var logger = CoreDataDebug.logger
            logger[metadataKey: "store"] = "\(store.path)"
            self.logger = level > 0 ? logger : nil
        }

        func note(_ line: @autoclosure () -> String) {
            logger?.info("CoreData: annotation: (migration) \(line())")
        }
    }

    private static func flag(_ key: String, _ options: [AnyHashable: Any]?) -> Bool {
        guard let value = options?[key] else { return false }
        return (value as? Bool) ?? (value as? NSNumber)?.boolValue ?? false
    }

    private static func missingMapping(_ url: URL, underlying: NSError?, _ reason: String) -> NSError {
        var info: [String: Any] = ["reason": reason, NSFilePathErrorKey: url.path]
        if let underlying { info[NSUnderlyingErrorKey] = underlying }
        return NSError.coreData(NSMigrationMissingMappingModelError,
                                "Persistent store migration failed, missing mapping model: \(reason)", userInfo: info)
    }
}
