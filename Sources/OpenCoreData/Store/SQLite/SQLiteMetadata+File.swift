import GRDB

extension SQLiteMetadata {
    /// Replaces the metadata of the store file at `url` in one transaction,
    /// keeping its UUID when `metadata` has none (Z_UUID names the store in
    /// every object URI).
    static func write(_ metadata: [String: Any], at url: URL) throws {
        do {
            let queue = try DatabaseQueue(path: url.path)
            try queue.write { db in
                var new = metadata
                if new[uuidKey] == nil { new[uuidKey] = try read(db)?[uuidKey] }
                try write(new, db)
            }
        } catch let error as DatabaseError {
            throw NSError.coreData(NSPersistentStoreOperationError, "Cannot write the metadata of \(url.path): \(error.message ?? "\(error)").",
                                   userInfo: [NSFilePathErrorKey: url.path, NSUnderlyingErrorKey: error as NSError])
        }
    }
}
