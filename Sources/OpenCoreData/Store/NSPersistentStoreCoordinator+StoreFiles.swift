import GRDB

/// Copying and destroying store files without opening them as stores:
/// Apple's `replacePersistentStore(at:destinationOptions:withPersistentStoreFrom:sourceOptions:type:)`
/// and `destroyPersistentStore(at:type:options:)`, each with its older
/// `ofType:` spelling (String store type).
///
/// Only the SQLite store has files; for another type both throw
/// NSPersistentStoreInvalidTypeError (134000). SQLite errors come back as
/// NSSQLiteError (134180).
extension NSPersistentStoreCoordinator {
    /// Replaces the store at `destinationURL` with a copy of the one at
    /// `sourceURL` (creating it when absent), as a backup of one database
    /// into the other: the copy holds the source's committed state, WAL
    /// included, with its metadata and UUID, and the external-data files
    /// beside it. Throws 260 when there is no source file, 134000 when the
    /// source is no Core Data store, and NSPersistentStoreOperationError
    /// (134070) when a store of this coordinator is open at the destination
    /// (remove it first). Costs one pass over the source's pages and files.
    public func replacePersistentStore(at destinationURL: URL, destinationOptions: [AnyHashable: Any]? = nil,
                                       withPersistentStoreFrom sourceURL: URL,
                                       sourceOptions: [AnyHashable: Any]? = nil,
                                       type storeType: NSPersistentStore.StoreType) throws {
        try replacePersistentStore(at: destinationURL, destinationOptions: destinationOptions,
                                   withPersistentStoreFrom: sourceURL, sourceOptions: sourceOptions,
                                   ofType: storeType.rawValue)
    }

    /// The older spelling of
    /// `replacePersistentStore(at:destinationOptions:withPersistentStoreFrom:sourceOptions:type:)`.
    public func replacePersistentStore(at destinationURL: URL, destinationOptions: [AnyHashable: Any]?,
                                       withPersistentStoreFrom sourceURL: URL, sourceOptions: [AnyHashable: Any]?,
                                       ofType storeType: String) throws {
        try Self.requireFiles(storeType)
        guard destinationURL.standardizedFileURL != sourceURL.standardizedFileURL else { return }
        _ = try SQLiteMetadata.read(at: sourceURL)
        if persistentStore(for: destinationURL) != nil {
            throw NSError.coreData(NSPersistentStoreOperationError,
                                   "The store at \(destinationURL.path) is in use by this coordinator; remove it "
                                   + "before replacing it.", userInfo: [NSFilePathErrorKey: destinationURL.path])
        }
        try Self.sqlite(destinationURL) {
            try FileManager.default.createDirectory(at: destinationURL.deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
            var readOnly = Configuration()
            readOnly.readonly = true
            let source = try DatabaseQueue(path: sourceURL.path, configuration: readOnly)
            let destination = try DatabaseQueue(path: destinationURL.path)
            try source.backup(to: destination)
        }
        try Self.replaceExternalData(of: destinationURL, with: sourceURL)
    }

    /// Empties the store file at `url`: every table, index and trigger is
    /// dropped and the file vacuumed, so that adding a store there creates a
    /// new one, and its external-data files are deleted. Nothing happens
    /// when there is no file. A store of a coordinator still open at `url`
    /// can no longer read or save: remove it first. Throws 134180 when the
    /// file is not an SQLite database. Costs a rewrite of an empty file.
    public func destroyPersistentStore(at url: URL, type storeType: NSPersistentStore.StoreType,
                                       options: [AnyHashable: Any]? = nil) throws {
        try destroyPersistentStore(at: url, ofType: storeType.rawValue, options: options)
    }

    /// The older spelling of `destroyPersistentStore(at:type:options:)`.
    public func destroyPersistentStore(at url: URL, ofType storeType: String,
                                       options: [AnyHashable: Any]? = nil) throws {
        try Self.requireFiles(storeType)
        // Core Data "deletes or truncates" (its documentation); truncating keeps connections that
        // other coordinators hold on the file valid, they see an empty database.
        guard !SQLiteConnection.isInMemory(url), FileManager.default.fileExists(atPath: url.path) else { return }
        try Self.sqlite(url) { try DatabaseQueue(path: url.path).erase() }
        let support = SQLiteExternalData(storeURL: url).folder.deletingLastPathComponent()
        if FileManager.default.fileExists(atPath: support.path) { try FileManager.default.removeItem(at: support) }
    }

    /// Throws 134000 for a store type without files.
    private static func requireFiles(_ storeType: String) throws {
        guard storeType == NSSQLiteStoreType else {
            throw NSError.coreData(NSPersistentStoreInvalidTypeError,
                                   "Stores of type '\(storeType)' have no files to replace or destroy.")
        }
    }

    /// Runs `body`, turning SQLite errors into NSSQLiteError (134180) naming `url`.
    private static func sqlite(_ url: URL, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as DatabaseError {
            throw NSError.coreData(NSSQLiteError,
                                   "SQLite error at \(url.lastPathComponent): \(error.message ?? "\(error)")",
                                   userInfo: [NSFilePathErrorKey: url.path,
                                              NSSQLiteErrorDomain: Int(error.resultCode.rawValue),
                                              NSUnderlyingErrorKey: error as NSError])
        }
    }

    /// Makes the external-data folder beside `destination` a copy of the one beside `source`.
    private static func replaceExternalData(of destination: URL, with source: URL) throws {
        let from = SQLiteExternalData(storeURL: source).folder.deletingLastPathComponent()
        let to = SQLiteExternalData(storeURL: destination).folder.deletingLastPathComponent()
        let files = FileManager.default
        if files.fileExists(atPath: to.path) { try files.removeItem(at: to) }
        if files.fileExists(atPath: from.path) { try files.copyItem(at: from, to: to) }
    }
}
