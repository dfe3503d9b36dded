import GRDB

/// The tables of an open SQLite file and the columns each declares, read once
/// when a store opens.
///
/// Opening a store asks which tables exist and what their columns are about
/// ten times (metadata, `Z_PRIMARYKEY`, every entity and join table). GRDB's
/// `tableExists(_:)` and `columns(in:)` run a query or two for each, and the
/// first of them sets up GRDB's schema cache: about 750k instructions of a
/// 4.2M-instruction open. Here one query lists the tables and one pragma a
/// table reads its columns.
///
/// A snapshot: a schema change made after reading it (a migration) is not
/// seen; read it again then.
struct SQLiteFileSchema {
    /// A column as `PRAGMA table_info` declares it.
    struct Column: Equatable {
        var name: String
        /// The declared type as written (`INTEGER`, `VARCHAR`, or empty).
        var type: String
        /// The column's position in the primary key, from 1; 0 when it is not part of it.
        var primaryKeyIndex: Int
    }

    /// A table with its columns in declaration order.
    struct Table {
        var name: String
        var columns: [Column]

        /// The primary key's columns in key order; `["rowid"]` for a table
        /// without one, as GRDB's `primaryKey(_:)` reports it.
        var primaryKey: [String] {
            let keyed = columns.filter { $0.primaryKeyIndex > 0 }.sorted { $0.primaryKeyIndex < $1.primaryKeyIndex }
            return keyed.isEmpty ? ["rowid"] : keyed.map(\.name)
        }
    }

    /// The tables by lowercased name: SQLite matches table names without regard to ASCII case.
    private var tablesByName: [String: Table] = [:]

    /// Reads the tables of `db`'s main database: one query for the list, a
    /// `PRAGMA table_info` for each table's columns. A join of `sqlite_master`
    /// with `pragma_table_info` ran the same pragma per table and cost ~140k
    /// instructions more to prepare.
    ///
    /// A virtual table (no b-tree: `rootpage` 0) is listed without columns:
    /// asking `table_info` about one whose module is not loaded fails.
    ///
    /// The statements are stepped with SQLite's C API (``SQLiteColumnReader``):
    /// GRDB's row requests cost ~10–30k instructions each on top of the
    /// statement, a tenth of opening a store.
    init(_ db: Database) throws {
        var tables: [(name: String, hasRows: Bool)] = []
        let list = try db.makeStatement(sql: "SELECT name, rootpage FROM sqlite_master WHERE type = 'table'")
        let listed = SQLiteColumnReader(statement: list.sqliteStatement)
        try list.forEachRow {
            if let name = listed.text(0) { tables.append((name, (listed.integer(1) ?? 0) > 0)) }
        }
        for (name, hasRows) in tables {
            var columns: [Column] = []
            if hasRows {
                let info = try db.makeStatement(sql: "PRAGMA main.table_info(\(name.quotedDatabaseIdentifier))")
                let column = SQLiteColumnReader(statement: info.sqliteStatement)
                try info.forEachRow {
                    columns.append(Column(name: column.text(1) ?? "", type: column.text(2) ?? "",
                                          primaryKeyIndex: Int(column.integer(5) ?? 0)))
                }
            }
            tablesByName[name.lowercased()] = Table(name: name, columns: columns)
        }
    }

    /// Whether the file has the table `name` (in any case).
    func hasTable(_ name: String) -> Bool { tablesByName[name.lowercased()] != nil }

    /// The table `name` (in any case); nil when the file has none.
    func table(_ name: String) -> Table? { tablesByName[name.lowercased()] }

    /// The tables whose name satisfies `isIncluded`, in name order.
    func tables(where isIncluded: (String) -> Bool) -> [Table] {
        tablesByName.values.filter { isIncluded($0.name) }.sorted { $0.name < $1.name }
    }
}
