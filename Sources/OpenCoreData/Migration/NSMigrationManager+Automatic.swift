/// The custom migration an SQLite store runs when it opens with
/// `NSMigratePersistentStoresAutomaticallyOption` and a mapping model is
/// found for its version (Core Data looks for one before inferring).
extension NSMigrationManager {
    /// The folders searched for `.xcmappingmodel` files when a store of
    /// another version opens with `model`: the folder holding the
    /// `.xcdatamodeld` the model was read from (an app's resources, where
    /// Xcode puts mapping models too), then the main bundle's resources.
    static func mappingFolders(for model: NSManagedObjectModel) -> [URL] {
        let folders = [model.versionBundleURL?.deletingLastPathComponent(), Bundle.main.resourceURL]
        var seen = Set<String>()
        return folders.compactMap { $0 }.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }

    /// Migrates the store at `url` (written with `source`) through `mapping`
    /// into a new file beside it; the new file's URL, which the caller
    /// copies into the store and deletes (``removeMigratedCopy(at:)``).
    /// Throws what ``migrateStore(from:sourceType:options:with:toDestinationURL:destinationType:destinationOptions:)``
    /// throws; nothing is then left behind.
    static func migratedCopy(ofStoreAt url: URL, source: NSManagedObjectModel, destination: NSManagedObjectModel,
                             mapping: NSMappingModel) throws -> URL {
        let copy = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).migrated-\(UUID().uuidString)")
        let manager = NSMigrationManager(sourceModel: source, destinationModel: destination)
        do {
            try manager.migrateStore(from: url, sourceType: NSSQLiteStoreType, with: mapping, toDestinationURL: copy,
                                     destinationType: NSSQLiteStoreType)
        } catch {
            removeMigratedCopy(at: copy)
            throw error
        }
        return copy
    }

    /// Deletes a file ``migratedCopy(ofStoreAt:source:destination:mapping:)`` made.
    static func removeMigratedCopy(at url: URL) {
        MigrationFiles.removeFiles(of: url)
    }
}
