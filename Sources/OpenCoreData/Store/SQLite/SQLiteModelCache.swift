import GRDB

/// `Z_MODELCACHE`: the model that last wrote a store, which Core Data (from
/// framework 637) keeps in the file as a keyed archive compressed with raw
/// DEFLATE. It is the evidence of what a store holds when the model files at
/// hand are of other versions (docs/Migration.md).
enum SQLiteModelCache {
    /// The model cached in the store file at `url`, or nil when the file has
    /// no cache (older stores, stores OpenCoreData wrote: its Z_MODELCACHE
    /// stays empty). Throws the errors of `metadataForPersistentStore` for a
    /// file that is no store, and ModelFileError for a cache that does not
    /// decode. Costs one read and an inflate of a few kilobytes.
    static func model(at url: URL) throws -> NSManagedObjectModel? {
        _ = try SQLiteMetadata.read(at: url)
        var configuration = Configuration()
        configuration.readonly = true
        let blob: Data?
        do {
            blob = try DatabaseQueue(path: url.path, configuration: configuration).read { db in
                guard try db.tableExists("Z_MODELCACHE") else { return nil }
                // The file is untrusted: a value that is not a BLOB is no cache.
                let value = try DatabaseValue.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE")
                if case .blob(let data) = value?.storage, !data.isEmpty { return data }
                return nil
            }
        } catch let error as DatabaseError {
            throw NSError.coreData(NSSQLiteError, "Cannot read Z_MODELCACHE of \(url.lastPathComponent): "
                                   + (error.message ?? "\(error)"), userInfo: [NSFilePathErrorKey: url.path])
        }
        guard let blob else { return nil }
        let plist: [UInt8]
        do {
            plist = try Inflate.decompress(Array(blob), limit: 64 << 20)
        } catch {
            throw ModelArchiveReader.failure("Z_MODELCACHE is not DEFLATE data (\(error))")
        }
        return try ModelArchiveReader.model(fromKeyedArchive: Data(plist))
    }
}

extension NSPersistentStoreCoordinator {
    /// The model a store file holds a copy of: Core Data keeps the model that
    /// last wrote an SQLite store in the file (`Z_MODELCACHE`), so a store
    /// whose model version is missing can still be read, or migrated from.
    /// Apple's `cachedModelForPersistentStore(at:options:)` (iOS 26.4). The
    /// model has what reading needs; ModelArchiveReader lists what it lacks.
    /// Throws 260 for a missing file, 134000 for a file that is no SQLite
    /// store, and NSMigrationMissingSourceModelError (134130) when the file
    /// holds no cached model. Costs one read and an inflate.
    public class func cachedModelForPersistentStore(at url: URL, options: [AnyHashable: Any]? = nil) throws
        -> NSManagedObjectModel {
        let model: NSManagedObjectModel?
        do {
            model = try SQLiteModelCache.model(at: url)
        } catch let error as ModelFileError {
            throw NSError.coreData(NSPersistentStoreInvalidTypeError, error.message,
                                   userInfo: [NSFilePathErrorKey: url.path, NSUnderlyingErrorKey: error as NSError])
        }
        guard let model else {
            throw NSError.coreData(NSMigrationMissingSourceModelError,
                                   "The store at \(url.path) holds no cached model (Z_MODELCACHE is absent or empty).",
                                   userInfo: [NSFilePathErrorKey: url.path])
        }
        return model
    }
}
