import GRDB

/// Option: open a store whose model version hashes differ from the model's,
/// rewriting the hashes at the next save (Core Data's escape hatch, §8.2).
public let NSIgnorePersistentStoreVersioningOption = "NSIgnorePersistentStoreVersioningOption"

/// Opens the GRDB connection(s) of an SQLite store from its options: a
/// `DatabasePool` (WAL: readers do not wait for the writer) unless the
/// pragmas ask for another journal mode, then a `DatabaseQueue`.
enum SQLiteConnection {
    /// The writer for the store file at `url`. Pragma names must be SQL
    /// identifiers and values plain words or numbers: they are the only text
    /// the store splices into SQL, so anything else is refused with 134000.
    /// With `debugLog`, each connection's statements are traced into it.
    static func open(at url: URL, options: [AnyHashable: Any]?, readOnly: Bool,
                     debugLog: SQLiteDebugLog? = nil) throws -> any DatabaseWriter {
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

        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.label = "OpenCoreData.SQLiteStore"
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
            if isInMemory(url) { return try DatabaseQueue(configuration: configuration) }
            if readOnly, !FileManager.default.fileExists(atPath: url.path) {
                throw NSError.coreData(NSPersistentStoreOpenError, "There is no store to open read-only at \(url.path).",
                                       userInfo: [NSFilePathErrorKey: url.path])
            }
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            if journal == "WAL" { return try DatabasePool(path: url.path, configuration: configuration) }
            let queue = try DatabaseQueue(path: url.path, configuration: configuration)
            if !readOnly { try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = \(journal)") } }
            return queue
        } catch let error as DatabaseError {
            throw NSError.coreData(NSPersistentStoreOpenError, "Cannot open the store at \(url.path): \(error.message ?? "\(error)").",
                                   userInfo: [NSFilePathErrorKey: url.path, NSUnderlyingErrorKey: error as NSError,
                                              NSSQLiteErrorDomain: Int(error.resultCode.rawValue)])
        }
    }

    /// Whether `url` is `/dev/null`, which Core Data takes for an SQLite store
    /// in memory (and `NSPersistentStoreDescription()` points to).
    static func isInMemory(_ url: URL) -> Bool {
        url.isFileURL && url.standardizedFileURL.path == "/dev/null"
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
