import GRDB
import GRDBSQLite

/// What an open SQLite file declares: its tables and their columns, read
/// from the schema SQLite has parsed.
///
/// Opening a store asks whether about ten tables exist (metadata,
/// `Z_PRIMARYKEY`, every entity and join table) and whether the model's
/// columns are declared. GRDB's `tableExists(_:)` and `columns(in:)` run a
/// query or two for each, and the first of them sets up GRDB's schema
/// cache: about 750k instructions of a 4.2M-instruction open. Preparing any
/// statement costs ~15k instructions, and GRDB's authorizer ~12k more for
/// each column it names. Here a table or a column is looked up with
/// `sqlite3_table_column_metadata`, which prepares nothing (~1k
/// instructions); only a list of tables (one query) or of a table's columns
/// (a `PRAGMA table_info`) costs a statement, which opening a store runs only
/// when the model's join tables are not where it expects them.
///
/// Every answer is of the database as it is when asked: ask inside the
/// transaction whose reads depend on it.
enum SQLiteFileSchema {
    /// A column as `PRAGMA table_info` declares it.
    struct Column: Equatable {
        var name: String
        /// The declared type as written (`INTEGER`, `VARCHAR`, or empty).
        var type: String
        /// The column's position in the primary key, from 1; 0 when it is not part of it.
        var primaryKeyIndex: Int
    }

    /// A column as SQLite's parsed schema declares it (`sqlite3_table_column_metadata`).
    struct DeclaredColumn: Equatable {
        /// The declared type as written (`INTEGER`, `VARCHAR`, or empty).
        var type: String
        /// Whether the column is part of the table's primary key.
        var isPrimaryKey: Bool
    }

    /// A table of the file.
    struct Table: Equatable {
        /// The name as the file spells it.
        var name: String
        /// Whether the table has a b-tree of its own: a virtual table has none (`rootpage` 0).
        var hasRows: Bool
    }

    /// Whether `db`'s main database has the table `name` (in any case). A view
    /// does not count, nor a virtual table whose module is not loaded (SQLite
    /// does not look one up). No statement.
    static func hasTable(_ name: String, in db: Database) -> Bool {
        sqlite3_table_column_metadata(db.sqliteConnection, "main", name, nil, nil, nil, nil, nil, nil) == SQLITE_OK
    }

    /// The tables of `db`'s main database whose name satisfies `isIncluded`,
    /// in name order: one query, stepped with SQLite's C API
    /// (``SQLiteColumnReader``; GRDB's row requests cost ~10–30k
    /// instructions more).
    static func tables(in db: Database, where isIncluded: (String) -> Bool) throws -> [Table] {
        var tables: [Table] = []
        let list = try db.makeStatement(sql: "SELECT name, rootpage FROM sqlite_master WHERE type = 'table'")
        let listed = SQLiteColumnReader(statement: list.sqliteStatement)
        try list.forEachRow {
            guard let name = listed.text(0), isIncluded(name) else { return }
            tables.append(Table(name: name, hasRows: (listed.integer(1) ?? 0) > 0))
        }
        return tables.sorted { $0.name < $1.name }
    }

    /// The columns `table` declares, in declaration order: one `PRAGMA
    /// table_info`. A virtual table is listed without columns: asking
    /// `table_info` about one whose module is not loaded fails.
    static func columns(of table: Table, in db: Database) throws -> [Column] {
        guard table.hasRows else { return [] }
        var columns: [Column] = []
        let info = try db.makeStatement(sql: "PRAGMA main.table_info(\(table.name.quotedDatabaseIdentifier))")
        let column = SQLiteColumnReader(statement: info.sqliteStatement)
        try info.forEachRow {
            columns.append(Column(name: column.text(1) ?? "", type: column.text(2) ?? "",
                                  primaryKeyIndex: Int(column.integer(5) ?? 0)))
        }
        return columns
    }

    /// The primary key's columns of `columns` in key order; `["rowid"]` for a
    /// table without one, as GRDB's `primaryKey(_:)` reports it.
    static func primaryKey(of columns: [Column]) -> [String] {
        let keyed = columns.filter { $0.primaryKeyIndex > 0 }.sorted { $0.primaryKeyIndex < $1.primaryKeyIndex }
        return keyed.isEmpty ? ["rowid"] : keyed.map(\.name)
    }

    /// The column `column` (in any case) of the table `table` (in any case)
    /// of `db`'s main database; nil when either is missing, or the table is a
    /// view or a virtual table whose module is not loaded. No statement.
    /// (SQLite answers `rowid`, `oid` and `_rowid_` for every table with a
    /// rowid, as the rowid; no store column has those names.)
    static func declaredColumn(_ column: String, of table: String, in db: Database) -> DeclaredColumn? {
        var type: UnsafePointer<CChar>?
        var isPrimaryKey: CInt = 0
        let code = sqlite3_table_column_metadata(db.sqliteConnection, "main", table, column,
                                                 &type, nil, nil, &isPrimaryKey, nil)
        guard code == SQLITE_OK else { return nil }
        return DeclaredColumn(type: type.map { String(cString: $0) } ?? "", isPrimaryKey: isPrimaryKey != 0)
    }
}
