import Foundation
import GRDB
import Testing
@testable import OpenCoreDataCore

/// `SQLiteFileSchema` answers what GRDB's `tableExists(_:)`, `columns(in:)`
/// and `primaryKey(_:)` answer, which opening a store asked before, for
/// tables of every shape a store can hold and for every store of the corpus.
@Suite struct SQLiteFileSchemaTests {
    /// The schema's view of `db` against GRDB's, table by table; returns the tables compared.
    @discardableResult
    static func expectAgreement(_ db: Database, _ origin: String) throws -> Int {
        let schema = try SQLiteFileSchema(db)
        let names = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        for name in names {
            let table = try #require(schema.table(name), "\(origin): \(name)")
            #expect(schema.hasTable(name.lowercased()) && schema.hasTable(name.uppercased()), "\(origin): \(name)")
            let expected = try db.columns(in: name).map {
                SQLiteFileSchema.Column(name: $0.name, type: $0.type, primaryKeyIndex: $0.primaryKeyIndex)
            }
            #expect(table.name == name)
            #expect(table.columns == expected, "\(origin): \(name)")
            #expect(table.primaryKey == (try db.primaryKey(name).columns), "\(origin): \(name)")
        }
        return names.count
    }

    @Test func tablesOfEveryShapeReadAsGRDBReadsThem() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE ZNOTE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR, ZBODY);
                CREATE TABLE Z_2TAGS (Z_2NOTES INTEGER, Z_4TAGS INTEGER, PRIMARY KEY (Z_4TAGS, Z_2NOTES));
                CREATE TABLE MixedCase (a TEXT, b BLOB NOT NULL DEFAULT x'00');
                CREATE TABLE keyed (code TEXT PRIMARY KEY, n INTEGER) WITHOUT ROWID;
                CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
                CREATE VIEW ZNOTEVIEW AS SELECT ZTITLE FROM ZNOTE;
                CREATE INDEX ZNOTE_ZTITLE_INDEX ON ZNOTE (ZTITLE);
                """)
            #expect(try Self.expectAgreement(db, "built") == 5)
            let schema = try SQLiteFileSchema(db)
            // Views and indexes are not tables; names match in any case.
            #expect(!schema.hasTable("ZNOTEVIEW") && !schema.hasTable("ZNOTE_ZTITLE_INDEX"))
            #expect(schema.hasTable("mixedcase") && schema.table("MIXEDCASE")?.name == "MixedCase")
            #expect(!schema.hasTable("ZMISSING") && schema.table("ZMISSING") == nil)
            #expect(schema.table("Z_2TAGS")?.primaryKey == ["Z_4TAGS", "Z_2NOTES"])
            #expect(schema.table("MixedCase")?.primaryKey == ["rowid"])
            #expect(schema.table("ZNOTE")?.columns.last == .init(name: "ZBODY", type: "", primaryKeyIndex: 0))
            // Join tables are the Z_<digit> ones only.
            #expect(SQLiteFileJoinTables(schema).tables.map(\.name) == ["Z_2TAGS"])
        }
    }

    /// A virtual table whose module is not loaded: listed without columns
    /// (`pragma_table_info` fails on it; see StoreOpenTests).
    @Test func aVirtualTableOfAnUnknownModuleHasNoColumns() throws {
        let queue = try DatabaseQueue()
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE ZNOTE (Z_PK INTEGER PRIMARY KEY, ZTITLE VARCHAR)")
            try db.execute(sql: "PRAGMA writable_schema = ON")
            try db.execute(sql: "INSERT INTO sqlite_master (type, name, tbl_name, rootpage, sql) VALUES "
                           + "('table', 'ZINDEX', 'ZINDEX', 0, 'CREATE VIRTUAL TABLE ZINDEX USING nosuchmodule')")
            try db.execute(sql: "PRAGMA writable_schema = OFF")
        }
        try queue.read { db in
            let schema = try SQLiteFileSchema(db)
            #expect(schema.table("ZINDEX")?.columns == [])
            #expect(schema.table("ZNOTE")?.columns.map(\.name) == ["Z_PK", "ZTITLE"])
        }
    }

    @Test func anEmptyFileHasNoTables() throws {
        try DatabaseQueue().read { db in
            let schema = try SQLiteFileSchema(db)
            #expect(!schema.hasTable("Z_PRIMARYKEY") && schema.tables(where: { _ in true }).isEmpty)
        }
    }

    @Test(.enabled(if: Corpus.stores != nil, "shared/corpus/stores is absent"))
    func corpusStoresReadAsGRDBReadsThem() throws {
        var stores = 0, tables = 0
        for store in Corpus.files(in: Corpus.stores, suffix: ".sqlite") {
            let copy = try SQLiteMetadataTests.copy(store)
            defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
            tables += try DatabaseQueue(path: copy.path).read { try Self.expectAgreement($0, store.lastPathComponent) }
            stores += 1
        }
        #expect(stores > 20 && tables > stores * 3, "\(stores) stores, \(tables) tables")
    }
}
