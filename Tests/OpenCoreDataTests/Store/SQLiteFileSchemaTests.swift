import Foundation
import GRDB
import Testing
@testable import OpenCoreDataCore

/// `SQLiteFileSchema` answers what GRDB's `tableExists(_:)`, `columns(in:)`
/// and `primaryKey(_:)` answer, which opening a store asked before, for
/// tables of every shape a store can hold and for every store of the corpus;
/// its look-ups in SQLite's parsed schema agree with `PRAGMA table_info`.
@Suite struct SQLiteFileSchemaTests {
    typealias Declared = SQLiteFileSchema.DeclaredColumn

    /// The schema's view of `db` against GRDB's, table by table; returns the tables compared.
    @discardableResult
    static func expectAgreement(_ db: Database, _ origin: String) throws -> Int {
        let tables = try SQLiteFileSchema.tables(in: db, where: { _ in true })
        let names = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        #expect(tables.map(\.name) == names, "\(origin)")
        for table in tables {
            let name = table.name
            for spelling in [name.lowercased(), name.uppercased()] {
                #expect(SQLiteFileSchema.hasTable(spelling, in: db), "\(origin): \(spelling)")
            }
            let expected = try db.columns(in: name).map {
                SQLiteFileSchema.Column(name: $0.name, type: $0.type, primaryKeyIndex: $0.primaryKeyIndex)
            }
            let columns = try SQLiteFileSchema.columns(of: table, in: db)
            #expect(columns == expected, "\(origin): \(name)")
            #expect(SQLiteFileSchema.primaryKey(of: columns) == (try db.primaryKey(name).columns), "\(origin): \(name)")
            for column in expected {
                let declared = Declared(type: column.type, isPrimaryKey: column.primaryKeyIndex > 0)
                for spelling in [column.name, column.name.lowercased(), column.name.uppercased()] {
                    #expect(SQLiteFileSchema.declaredColumn(spelling, of: name.lowercased(), in: db) == declared,
                            "\(origin): \(name).\(spelling)")
                }
            }
            #expect(SQLiteFileSchema.declaredColumn("ZNOSUCHCOLUMN", of: name, in: db) == nil, "\(origin): \(name)")
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
            // Views and indexes are not tables; names match in any case.
            #expect(!SQLiteFileSchema.hasTable("ZNOTEVIEW", in: db))
            #expect(!SQLiteFileSchema.hasTable("ZNOTE_ZTITLE_INDEX", in: db))
            #expect(SQLiteFileSchema.hasTable("mixedcase", in: db))
            let mixedCase = try SQLiteFileSchema.tables(in: db, where: { $0.lowercased() == "mixedcase" })
            #expect(mixedCase.map(\.name) == ["MixedCase"])
            #expect(!SQLiteFileSchema.hasTable("ZMISSING", in: db))
            let columns = { (name: String) in
                let table = try #require(SQLiteFileSchema.tables(in: db, where: { $0 == name }).first)
                return try SQLiteFileSchema.columns(of: table, in: db)
            }
            #expect(SQLiteFileSchema.primaryKey(of: try columns("Z_2TAGS")) == ["Z_4TAGS", "Z_2NOTES"])
            #expect(SQLiteFileSchema.primaryKey(of: try columns("MixedCase")) == ["rowid"])
            #expect(try columns("ZNOTE").last == .init(name: "ZBODY", type: "", primaryKeyIndex: 0))
            let declared = { SQLiteFileSchema.declaredColumn($0, of: $1, in: db) }
            #expect(declared("ZBODY", "ZNOTE") == Declared(type: "", isPrimaryKey: false))
            #expect(declared("Z_PK", "znote") == Declared(type: "INTEGER", isPrimaryKey: true))
            // A view's columns are no table's; a missing table has none.
            #expect(declared("ZTITLE", "ZNOTEVIEW") == nil)
            #expect(declared("ZTITLE", "ZMISSING") == nil)
            // Join tables are the Z_<digit> ones only.
            #expect(try SQLiteFileJoinTables(db).tables.map(\.name) == ["Z_2TAGS"])
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
            let tables = try SQLiteFileSchema.tables(in: db, where: { _ in true })
            #expect(tables == [.init(name: "ZINDEX", hasRows: false), .init(name: "ZNOTE", hasRows: true)])
            let columns = try tables.map { try SQLiteFileSchema.columns(of: $0, in: db).map(\.name) }
            #expect(columns == [[], ["Z_PK", "ZTITLE"]])
            // SQLite does not look such a table up (`sqlite3_table_column_metadata` fails on it).
            #expect(!SQLiteFileSchema.hasTable("ZINDEX", in: db))
            #expect(SQLiteFileSchema.declaredColumn("Z_PK", of: "ZINDEX", in: db) == nil)
            #expect(SQLiteFileSchema.hasTable("ZNOTE", in: db))
        }
    }

    /// A virtual table whose module is loaded (FTS5, built into SQLite) is a table with its columns.
    @Test func aVirtualTableOfALoadedModuleIsATable() throws {
        let queue = try DatabaseQueue()
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE ZSEARCH USING fts5(ZTEXT)")
            #expect(SQLiteFileSchema.hasTable("zsearch", in: db))
            let text = SQLiteFileSchema.declaredColumn("ZTEXT", of: "ZSEARCH", in: db)
            #expect(text == Declared(type: "", isPrimaryKey: false))
        }
    }

    @Test func anEmptyFileHasNoTables() throws {
        try DatabaseQueue().read { db in
            #expect(!SQLiteFileSchema.hasTable("Z_PRIMARYKEY", in: db))
            let tables = try SQLiteFileSchema.tables(in: db, where: { _ in true })
            #expect(tables.isEmpty)
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
