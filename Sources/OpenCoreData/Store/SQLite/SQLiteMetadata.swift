import GRDB

/// Core Data's `Z_METADATA` table: one row holding the store UUID (`Z_UUID`)
/// and the rest of the store's metadata as a binary property list (`Z_PLIST`).
///
/// shared/reference §7.1: `Z_VERSION` is always 1; the plist holds
/// `NSStoreType`, `NSStoreModelVersionHashes` (entity name → 32-byte data),
/// `NSStoreModelVersionIdentifiers`, `NSStoreModelVersionHashesVersion` (3),
/// `NSPersistenceFrameworkVersion` and `_NSAutoVacuumLevel`, plus whatever the
/// application set. The UUID is returned under `NSStoreUUID`, as Core Data's
/// `metadata(for:)` does.
enum SQLiteMetadata {
    static let createTable = "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)"

    /// The metadata key of the store's UUID (Core Data's `NSStoreUUIDKey`).
    static let uuidKey = "NSStoreUUID"

    /// The store's metadata, or nil when the file has no Z_METADATA row (not a
    /// Core Data store). Throws when Z_PLIST is not a property list.
    static func read(_ db: Database) throws -> [String: Any]? {
        guard SQLiteFileSchema.hasTable("Z_METADATA", in: db),
              let row = try db.makeStatement(sql: "SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1")
                .rowValues().first else { // Z_VERSION is the key: one row at most
            return nil
        }
        // The file is untrusted: each value's storage class is checked instead
        // of GRDB's trapping conversions.
        var metadata: [String: Any] = [:]
        let plistValue = row[1]
        switch plistValue.storage {
        case .null: break
        case .blob(let plist) where plist.isEmpty: break
        case .string(let text) where text.isEmpty: break
        case .blob, .string:
            let plist = Data.fromDatabaseValue(plistValue) ?? Data()
            let decoded: Any
            do {
                // Core Data writes a binary plist, read natively; Foundation reads the rest.
                decoded = try BinaryPropertyList.decode(plist) ?? UntrustedPropertyList.propertyList(from: plist)
            } catch {
                throw NSError.coreData(NSPersistentStoreInvalidTypeError, "The store's Z_METADATA.Z_PLIST is not a property list: \(error.localizedDescription)",
                                       userInfo: [NSUnderlyingErrorKey: error as NSError])
            }
            guard let dictionary = stringKeyed(decoded) else {
                throw NSError.coreData(NSPersistentStoreInvalidTypeError, "The store's Z_METADATA.Z_PLIST is not a dictionary property list.")
            }
            metadata = dictionary
        default:
            throw NSError.coreData(NSPersistentStoreInvalidTypeError, "The store's Z_METADATA.Z_PLIST is \(SQLitePrimaryKeyTable.describe(row[1])), not a property list.")
        }
        switch row[0].storage {
        case .null: break
        case .string(let uuid): metadata[uuidKey] = uuid
        default:
            throw NSError.coreData(NSPersistentStoreInvalidTypeError, "The store's Z_METADATA.Z_UUID is \(SQLitePrimaryKeyTable.describe(row[0])), not text.")
        }
        return metadata
    }

    /// `plist` as a dictionary with string keys; nil when it is none. The
    /// binary reader's `[AnyHashable: Any]` is converted key by key: a cast
    /// of the whole dictionary goes through the runtime's generic dictionary
    /// cast (~36k instructions for a store's metadata, 2.5% of opening it).
    private static func stringKeyed(_ plist: Any) -> [String: Any]? {
        guard let dictionary = plist as? [AnyHashable: Any] else { return plist as? [String: Any] }
        var converted = [String: Any](minimumCapacity: dictionary.count)
        for (key, value) in dictionary {
            guard let key = key.base as? String else { return nil }
            converted[key] = value
        }
        return converted
    }

    /// Replaces the metadata row: `NSStoreUUID` goes to Z_UUID, the rest to a
    /// binary plist in Z_PLIST. Values must be property-list types.
    static func write(_ metadata: [String: Any], _ db: Database) throws {
        var plist = metadata
        let uuid = plist.removeValue(forKey: uuidKey) as? String
        let data = try BinaryPropertyList.data(plist)
        try db.execute(sql: "INSERT OR REPLACE INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
                       arguments: [uuid, data])
    }

    /// The metadata of the store file at `url`, read without adding the store
    /// to a coordinator (Core Data's `metadataForPersistentStore(ofType:at:)`).
    /// Throws 260 for a missing file, 259 for a damaged one and 134000 for a
    /// file that is not a Core Data SQLite store.
    static func read(at url: URL) throws -> [String: Any] {
        // An in-memory store at /dev/null has no file (and the device is not one to open).
        guard !SQLiteConnection.isInMemory(url), FileManager.default.fileExists(atPath: url.path) else {
            throw NSError.coreData(CocoaError.fileReadNoSuchFile.rawValue, "There is no store file at \(url.path).",
                                   userInfo: [NSFilePathErrorKey: url.path])
        }
        var configuration = Configuration()
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(path: url.path, configuration: configuration)
            if let metadata = try queue.read(read) { return metadata }
        } catch let error as DatabaseError where error.resultCode.primaryResultCode == .SQLITE_CORRUPT {
            // A damaged file says nothing about what it was: as Foundation, "corrupt file" (259),
            // with SQLite's code, rather than "not a Core Data store".
            throw NSError.coreData(CocoaError.fileReadCorruptFile.rawValue,
                                   "The store file \(url.lastPathComponent) is damaged: "
                                       + "\(error.message ?? "\(error)").",
                                   userInfo: [NSFilePathErrorKey: url.path, NSUnderlyingErrorKey: error as NSError,
                                              NSSQLiteErrorDomain: Int(error.resultCode.rawValue)])
        } catch let error as DatabaseError {
            throw NSError.coreData(NSPersistentStoreInvalidTypeError, "\(url.lastPathComponent) is not a Core Data SQLite store: \(error.message ?? "\(error)").",
                                   userInfo: [NSFilePathErrorKey: url.path, NSUnderlyingErrorKey: error as NSError])
        }
        throw NSError.coreData(NSPersistentStoreInvalidTypeError, "\(url.lastPathComponent) is an SQLite file without Core Data's Z_METADATA table.",
                               userInfo: [NSFilePathErrorKey: url.path])
    }
}
