import GRDB
import GRDBSQLite

/// Option: open a store whose model version hashes differ from the model's,
/// rewriting the hashes at the next save (Core Data's escape hatch, §8.2).
public let NSIgnorePersistentStoreVersioningOption = "NSIgnorePersistentStoreVersioningOption"

/// Opens the GRDB connection of an SQLite store from its options: one
/// `DatabaseQueue`, in WAL mode unless the pragmas ask for another journal
/// mode, and on demand a read-only `DatabasePool` beside it for query
/// generations (``snapshotPool(beside:)``).
///
/// Why a queue and not a pool: the coordinator runs its stores' operations
/// one at a time, so the store reads and writes on one connection, and in
/// WAL mode that connection's reads wait for no other (another coordinator
/// or process writing); a `DatabasePool` opens the same writer connection
/// and then makes sure the WAL file is not empty by committing a
/// `CREATE TABLE` and `DROP TABLE` at every open of a file closed cleanly,
/// with file-system checks around it (~900k instructions of the pool's
/// 1.4M), which Core Data's open does not do to a file.
enum SQLiteConnection {
    /// The connection to the store file at `url` (or a private database in
    /// memory when `isInMemory`, which ``isInMemory(_:)`` decides). Pragma names must be SQL
    /// identifiers and values plain words or numbers: they are the only text
    /// the store splices into SQL, so anything else is refused with 134000.
    /// With `debugLog`, the connection's statements are traced into it.
    static func open(at url: URL, isInMemory: Bool, options: [AnyHashable: Any]?, readOnly: Bool,
                     debugLog: SQLiteDebugLog? = nil) throws -> DatabaseQueue {
        var pragmas: [(String, String)] = []
        for (key, value) in pragmaOptions(options?[NSSQLitePragmasOption]) {
            let name = "\(key)".lowercased(), text = "\(value)"
            guard isWord(name), isWord(text) || Double(text) != nil else {
                throw NSError.coreData(NSPersistentStoreInvalidTypeError, "Unsupported SQLite pragma \(name) = \(text).")
            }
            pragmas.append((name, text))
        }
        let journal = pragmas.first { $0.0 == "journal_mode" }?.1.uppercased() ?? "WAL"
        pragmas.removeAll { $0.0 == "journal_mode" }
        let settings = pragmas.sorted { $0.0 < $1.0 }
        // SQLite's advice for WAL, as GRDB's pools set it, unless the options say otherwise.
        let synchronous = journal == "WAL" && !settings.contains { $0.0 == "synchronous" } ? "NORMAL" : nil

        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.label = "OpenCoreData.SQLiteStore"
        // SQLite's default, which Core Data keeps: its tables declare no foreign keys, and GRDB's
        // `PRAGMA foreign_keys = ON` costs a statement at every open.
        configuration.foreignKeysEnabled = false
        let option = options?[NSPersistentStoreTimeoutOption]
        let timeout = (option as? Double) ?? (option as? Int).map(Double.init) ?? (option as? NSNumber)?.doubleValue ?? 240
        configuration.busyMode = .timeout(timeout)
        configuration.prepareDatabase { db in
            for (name, value) in settings { try db.execute(sql: "PRAGMA \(name) = \(value)") }
            SQLiteFunctions.register(in: db)
            debugLog?.trace(db)
        }
        do {
            // Apple's in-memory SQLite store: a private database per store; the
            // device itself is never opened, so nothing can write to or remove it.
            if isInMemory { return try DatabaseQueue(configuration: configuration) }
            if readOnly, !FileManager.default.fileExists(atPath: url.path) {
                throw NSError.coreData(NSPersistentStoreOpenError, "There is no store to open read-only at \(url.path).",
                                       userInfo: [NSFilePathErrorKey: url.path])
            }
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let queue = try DatabaseQueue(path: url.path, configuration: configuration)
            if !readOnly {
                // Stepped with SQLite's C API (`forEachRow`): GRDB's row requests cost ~10–20k instructions each.
                try queue.writeWithoutTransaction { db in
                    // Core Data's files are incremental (`SQLiteStoreSetup.create`). SQLite fixes the mode when it
                    // first writes the file, which turning on WAL does; set before, no VACUUM has to apply it.
                    if hasEmptyFile(db) { try db.makeStatement(sql: "PRAGMA auto_vacuum = 2").forEachRow {} }
                    let setJournal = try db.makeStatement(sql: "PRAGMA journal_mode = \(journal)")
                    let column = SQLiteColumnReader(statement: setJournal.sqliteStatement)
                    var mode: String?
                    try setJournal.forEachRow { mode = column.text(0) }
                    if journal == "WAL", mode?.uppercased() != "WAL" {
                        throw DatabaseError(message: "could not turn on WAL mode (the journal mode is "
                                            + "\(mode ?? "unknown"))")
                    }
                    if let synchronous {
                        try db.makeStatement(sql: "PRAGMA synchronous = \(synchronous)").forEachRow {}
                    }
                }
            }
            return queue
        } catch let error as DatabaseError {
            throw NSError.coreData(NSPersistentStoreOpenError, "Cannot open the store at \(url.path): \(error.message ?? "\(error)").",
                                   userInfo: [NSFilePathErrorKey: url.path, NSUnderlyingErrorKey: error as NSError,
                                              NSSQLiteErrorDomain: Int(error.resultCode.rawValue)])
        }
    }

    /// A read-only pool on the file `database` is open on, whose snapshots
    /// keep query generations; nil when the file is not in WAL mode (an
    /// in-memory store, another journal mode), where a reader would block
    /// the writer. Its connections are set up as `database`'s (the same
    /// pragmas, functions and debug log). Opened once per store, when the
    /// first generation is taken (~0.6M instructions).
    static func snapshotPool(beside database: DatabaseQueue) throws -> DatabasePool? {
        let mode = try database.unsafeReentrantRead { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        guard mode?.lowercased() == "wal" else { return nil }
        var configuration = database.configuration
        configuration.readonly = true
        return try DatabasePool(path: database.path, configuration: configuration)
    }

    /// Whether `url` is `/dev/null`, which Core Data takes for an SQLite store
    /// in memory (and `NSPersistentStoreDescription()` points to).
    /// (Standardizing a URL costs ~28k instructions; only a path that
    /// holds `null` can standardize to `/dev/null`, as it only drops
    /// `.` and `..` components; the bytes are scanned for it, since
    /// Foundation's `contains` costs ~14k instructions.)
    static func isInMemory(_ url: URL) -> Bool {
        guard url.isFileURL else { return false }
        var lastFour: UInt32 = 0
        for byte in url.path.utf8 {
            lastFour = lastFour << 8 | UInt32(byte)
            if lastFour == 0x6E75_6C6C { return url.standardizedFileURL.path == "/dev/null" } // "null"
        }
        return false
    }

    /// Whether the main database file of `db` has no byte yet: a new file,
    /// whose settings SQLite has not fixed. Asked of the file SQLite opened
    /// (one `fstat`) rather than through Foundation (~11k instructions).
    private static func hasEmptyFile(_ db: Database) -> Bool {
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK,
              let file, let fileSize = file.pointee.pMethods?.pointee.xFileSize else { return false }
        var size: sqlite3_int64 = 0
        return fileSize(file, &size) == SQLITE_OK && size == 0
    }

    /// The pragma option as pairs, whether given as a Swift or a Foundation dictionary.
    private static func pragmaOptions(_ option: Any?) -> [(AnyHashable, Any)] {
        if let dictionary = option as? NSDictionary {
            return dictionary.allKeys.compactMap { key in (key as? AnyHashable).flatMap { k in dictionary.object(forKey: key).map { (k, $0) } } }
        }
        return ((option as? [AnyHashable: Any]) ?? [:]).map { ($0.key, $0.value) }
    }

    private static func isWord(_ text: String) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }
}
