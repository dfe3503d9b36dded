import GRDB

/// Core Data's persistent-history tables, created as Apple creates them
/// (read from `sqlite_master` of the corpus stores
/// Karim-ezzedine__CartKit…CartKitSwiftData_v1.sqlite and
/// alemar11__CoreDataPlus…SampleModel2_V1.sqlite): `ACHANGE` (Z_ENT 16001),
/// `ATRANSACTION` (16002) and `ATRANSACTIONSTRING` (16003), their indexes and
/// their `Z_PRIMARYKEY` rows, whose `Z_MAX` hands out their primary keys as
/// for entities. Apple keeps no history trigger in the file (the corpus
/// stores have none): the triggers are per connection (``SQLiteHistoryTriggers``).
enum SQLiteHistoryTables {
    static let changeEntity = 16001, transactionEntity = 16002, stringEntity = 16003

    static let createStatements = [
        "CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, "
            + "ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB )",
        "CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, "
            + "ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, "
            + "ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB )",
        "CREATE TABLE ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
        "CREATE INDEX ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID)",
        "CREATE INDEX ATRANSACTION_ZAUTHORTS_INDEX ON ATRANSACTION (ZAUTHORTS)",
        "CREATE INDEX ATRANSACTION_ZBUNDLEIDTS_INDEX ON ATRANSACTION (ZBUNDLEIDTS)",
        "CREATE INDEX ATRANSACTION_ZCONTEXTNAMETS_INDEX ON ATRANSACTION (ZCONTEXTNAMETS)",
        "CREATE INDEX ATRANSACTION_ZPROCESSIDTS_INDEX ON ATRANSACTION (ZPROCESSIDTS)",
        "CREATE INDEX Z_TRANSACTION_TransactionAuthorIndex ON ATRANSACTION (ZAUTHOR COLLATE BINARY ASC)",
        "CREATE INDEX Z_TRANSACTION_TransactionTimestampIndex ON ATRANSACTION (ZTIMESTAMP COLLATE BINARY ASC)",
        "CREATE UNIQUE INDEX Z_TRANSACTIONSTRING_UNIQUE_NAME ON ATRANSACTIONSTRING (ZNAME COLLATE BINARY ASC)",
    ]

    /// `Z_PRIMARYKEY` names of the three tables, by number.
    static let names = [changeEntity: "CHANGE", transactionEntity: "TRANSACTION", stringEntity: "TRANSACTIONSTRING"]

    /// Whether the file holds persistent history.
    static func exist(_ db: Database) -> Bool {
        SQLiteFileSchema.hasTable("ATRANSACTION", in: db) && SQLiteFileSchema.hasTable("ACHANGE", in: db)
    }

    /// Creates what is missing of the tables, and `ZTOMBSTONE0…` columns up to
    /// `tombstones` (Core Data adds those columns to `ACHANGE` as the model needs).
    static func create(_ db: Database, tombstones: Int) throws {
        if !exist(db) {
            for statement in createStatements { try db.execute(sql: statement) }
        }
        for (number, name) in names {
            try db.execute(sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) SELECT ?, ?, 0, 0 "
                               + "WHERE NOT EXISTS (SELECT 1 FROM Z_PRIMARYKEY WHERE Z_ENT = ?)",
                           arguments: [number, name, number])
        }
        // Keys in use above Z_MAX (a batch write that ended without updating it) are never handed out again.
        for (number, table) in [(changeEntity, "ACHANGE"), (transactionEntity, "ATRANSACTION")] {
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = max(Z_MAX, "
                               + "ifnull((SELECT max(Z_PK) FROM \(table)), 0)) WHERE Z_ENT = ?", arguments: [number])
        }
        let columns = Set(try db.columns(in: "ACHANGE").map { $0.name.uppercased() })
        for index in 0..<tombstones where !columns.contains("ZTOMBSTONE\(index)") {
            try db.execute(sql: "ALTER TABLE ACHANGE ADD COLUMN ZTOMBSTONE\(index) BLOB")
        }
    }

    /// How many `ZTOMBSTONE` columns `ACHANGE` has.
    static func tombstoneColumns(_ db: Database) throws -> Int {
        let columns = Set(try db.columns(in: "ACHANGE").map { $0.name.uppercased() })
        var count = 0
        while columns.contains("ZTOMBSTONE\(count)") { count += 1 }
        return count
    }
}
