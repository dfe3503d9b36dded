import GRDB

/// The tables of an open SQLite file and the columns each declares, read with
/// one query.
///
/// Opening a store asks which tables exist and what their columns are about
/// ten times (metadata, `Z_PRIMARYKEY`, every entity and join table). GRDB's
/// `tableExists(_:)` and `columns(in:)` run a query or two for each, and the
/// first of them sets up GRDB's schema cache: about 750k instructions of a
/// 4.2M-instruction open. One join of `sqlite_master` with
/// `pragma_table_info` answers all of them for well under a tenth of that.
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

    /// Reads the tables of `db`'s main database. One query.
    ///
    /// A virtual table (no b-tree: `rootpage` 0) is listed without columns:
    /// asking `pragma_table_info` about one whose module is not loaded fails.
    init(_ db: Database) throws {
        let cursor = try Row.fetchCursor(db, sql: """
            SELECT m.name, p.name, p.type, p.pk FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS p \
            WHERE m.type = 'table' AND m.rootpage > 0 \
            UNION ALL SELECT name, NULL, NULL, NULL FROM sqlite_master WHERE type = 'table' AND rootpage = 0
            """)
        while let row = try cursor.next() {
            let table: String = row[0]
            let columns = (row[1] as String?).map { [Column(name: $0, type: row[2] ?? "", primaryKeyIndex: row[3])] }
            tablesByName[table.lowercased(), default: Table(name: table, columns: [])].columns += columns ?? []
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
