/// Reading and writing a store file's metadata without adding the store, as
/// Core Data's class methods do (to decide on migration before opening, for example).
extension NSPersistentStoreCoordinator {
    /// The metadata of the store of `storeType` at `url`: one read of
    /// Z_METADATA for SQLite. Throws 260 for a missing file, 134000 for a file
    /// that is not such a store or a type without files.
    public class func metadataForPersistentStore(ofType storeType: String, at url: URL,
                                                 options: [AnyHashable: Any]? = nil) throws -> [String: Any] {
        guard storeType == NSSQLiteStoreType else {
            throw NSError.coreData(NSPersistentStoreInvalidTypeError, "Stores of type '\(storeType)' have no file to read metadata from.")
        }
        return try SQLiteMetadata.read(at: url)
    }

    /// `metadataForPersistentStore(ofType:at:options:)` with a store type value.
    public class func metadataForPersistentStore(type: NSPersistentStore.StoreType, at url: URL,
                                                 options: [AnyHashable: Any]? = nil) throws -> [String: Any] {
        try metadataForPersistentStore(ofType: type.rawValue, at: url, options: options)
    }

    /// Replaces the metadata of the store of `storeType` at `url` without
    /// adding the store: one write of Z_METADATA. Same errors as reading it.
    public class func setMetadata(_ metadata: [String: Any]?, forPersistentStoreOfType storeType: String, at url: URL,
                                  options: [AnyHashable: Any]? = nil) throws {
        _ = try metadataForPersistentStore(ofType: storeType, at: url, options: options)
        try SQLiteMetadata.write(metadata ?? [:], at: url)
    }
}
