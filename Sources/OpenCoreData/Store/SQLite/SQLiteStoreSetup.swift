import GRDB

/// First open and reopen of an SQLite store: creating Core Data's tables and
/// metadata in an empty file, or checking that an existing store was written
/// for the model being used (shared/reference §7.1, §8.2).
enum SQLiteStoreSetup {
    /// Metadata key: the version of the hashing scheme (3 in every Core Data store).
    static let hashesVersionKey = "NSStoreModelVersionHashesVersion"
    /// Metadata key: the model's version identifiers.
    static let versionIdentifiersKey = "NSStoreModelVersionIdentifiers"
    /// Metadata key: the auto-vacuum level, a string (`"2"`: incremental).
    static let autoVacuumKey = "_NSAutoVacuumLevel"

    /// The metadata a new store gets for the entities of `mapping`.
    static func newMetadata(uuid: String, model: NSManagedObjectModel, mapping: SQLiteMapping) -> [String: Any] {
        let identifiers = model.versionIdentifiers.map { "\($0)" }.sorted()
        let hashes = versionHashes(model, mapping)
        return [
            NSStoreUUIDKey: uuid,
            NSStoreTypeKey: NSSQLiteStoreType,
            NSStoreModelVersionHashesKey: hashes,
            "NSStoreModelVersionChecksumKey": ModelVersionChecksums.checksum(of: hashes),
            "NSStoreModelVersionHashesDigest": ModelVersionChecksums.digest(of: hashes),
            hashesVersionKey: 3,
            versionIdentifiersKey: identifiers.isEmpty ? [""] : identifiers,
            autoVacuumKey: "2",
        ]
    }

    /// Creates the tables, indexes, `Z_PRIMARYKEY` rows (Z_MAX 0) and
    /// `Z_METADATA` of a new store in one transaction.
    static func create(_ writer: any DatabaseWriter, mapping: SQLiteMapping, metadata: [String: Any]) throws {
        try writer.writeWithoutTransaction { db in
            // Core Data's stores are incremental (level 2). A file that was empty
            // when opened has it from `SQLiteConnection.open`; one whose header was
            // written first (another program opened it in WAL mode) is vacuumed to
            // apply the mode.
            try db.execute(sql: "PRAGMA auto_vacuum = 2")
            if try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") != 2 { try db.execute(sql: "VACUUM") }
            try db.inTransaction {
                for statement in mapping.createStatements { try db.execute(sql: statement) }
                for entity in mapping.schema.entities {
                    try db.execute(sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                                   arguments: [entity.number, entity.name, entity.superNumber])
                }
                try SQLiteMetadata.write(metadata, db)
                return .commit
            }
        }
    }

    /// Whether the file holds any table (then it must be a Core Data store to be opened).
    static func hasTables(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table')") ?? false
    }

    /// Throws NSPersistentStoreIncompatibleVersionHashError (134100), with the
    /// store's metadata in userInfo, when `metadata` was not written for the
    /// entities of `mapping`: an entity added, removed or changed.
    static func checkCompatible(_ metadata: [String: Any], model: NSManagedObjectModel, configuration: String?,
                                url: URL) throws {
        let stored = (metadata[NSStoreModelVersionHashesKey] as? [String: Any]) ?? [:]
        let differing = model.differingEntities(forConfigurationName: configuration, storeHashes: stored) ?? []
        guard !differing.isEmpty else { return }
        throw NSError.coreData(NSPersistentStoreIncompatibleVersionHashError,
                               "The model used to open the store is incompatible with the one used to create the store "
                               + "(entities that differ: \(differing.joined(separator: ", "))).",
                               userInfo: ["metadata": metadata, NSFilePathErrorKey: url.path,
                                          "reason": "The model used to open the store is incompatible with the one used to create the store"])
    }

    /// Throws NSPersistentStoreIncompatibleSchemaError (134020) when the file's
    /// entity numbers or tables are not the ones the store would read and
    /// write for this model (a store written by another model version with
    /// the same hashes, or with hash checking switched off): reading it would
    /// be silently wrong. One query (the numbers); tables and columns are
    /// looked up in SQLite's parsed schema (``SQLiteFileSchema``).
    static func checkLayout(_ db: Database, mapping: SQLiteMapping, url: URL) throws {
        var problems: [String] = []
        // The bookkeeping is checked first (134080 for a damaged table).
        let stored = try SQLitePrimaryKeyTable.rows(db, file: url)
        let numbers = Dictionary(stored.map { ($0.name, $0.number) }, uniquingKeysWith: { a, _ in a })
        // A migration that renamed an entity keeps its old Z_NAME (docs/SQLiteLayout.md): the
        // renaming identifier finds it.
        let renamed = Dictionary(mapping.schema.entities.compactMap { entity in
            mapping.entity(number: entity.number)?.renamingIdentifier.map { (entity.name, $0) }
        }, uniquingKeysWith: { a, _ in a })
        for entity in mapping.schema.entities
        where (numbers[entity.name] ?? renamed[entity.name].flatMap { numbers[$0] }) != entity.number {
            problems.append("entity \(entity.name) is number \(numbers[entity.name].map(String.init) ?? "missing") in the file, \(entity.number) in the model")
        }
        for table in mapping.schema.tables {
            guard SQLiteFileSchema.hasTable(table.name, in: db) else {
                problems.append("the file has no table \(table.name)")
                continue
            }
            let missing = table.columns.map(\.name).filter {
                SQLiteFileSchema.declaredColumn($0, of: table.name, in: db) == nil
            }
            if !missing.isEmpty { problems.append("table \(table.name) lacks \(missing.joined(separator: ", "))") }
            // Rows are read by these three columns as integers: Z_PK must be the
            // rowid (never NULL, always an integer), Z_ENT and Z_OPT integers. The
            // parsed schema says whether a column is part of the primary key; an
            // INTEGER one is the rowid unless the key has other columns, which no
            // store Core Data writes declares (table_info's key order was no stricter).
            for name in ["Z_PK", "Z_ENT", "Z_OPT"] {
                guard let column = SQLiteFileSchema.declaredColumn(name, of: table.name, in: db) else { continue }
                let isKey = name == "Z_PK"
                let fits = column.type.uppercased() == "INTEGER" && (!isKey || column.isPrimaryKey)
                guard !fits else { continue }
                let declared = "\(column.type)\(column.isPrimaryKey ? " PRIMARY KEY" : "")"
                let wanted = "INTEGER\(isKey ? " PRIMARY KEY" : "")"
                problems.append("table \(table.name) declares \(name) \(declared), not \(wanted)")
            }
        }
        guard !problems.isEmpty else { return }
        throw NSError.coreData(NSPersistentStoreIncompatibleSchemaError,
                               "The store's tables do not match the model: \(problems.prefix(5).joined(separator: "; ")).",
                               userInfo: [NSFilePathErrorKey: url.path])
    }

    private static func versionHashes(_ model: NSManagedObjectModel, _ mapping: SQLiteMapping) -> [String: Data] {
        let names = Set(mapping.schema.entities.map(\.name))
        return model.entityVersionHashesByName.filter { names.contains($0.key) }
    }
}
