import GRDB

/// The tables of a store file with their columns, read in two statements: the
/// checks of opening a store look tables and columns up here rather than
/// asking SQLite once or twice per table (GRDB's `tableExists` and
/// `columns(in:)` each prepare statements of their own). Names match as
/// SQLite matches them, regardless of ASCII case.
struct SQLiteFileTables {
    /// A column as `PRAGMA table_xinfo` gives it.
    struct Column: Equatable {
        let name: String
        /// The declared type, as written.
        let type: String
        /// Its position in the primary key, from 1; 0 when it is not in it.
        let primaryKeyIndex: Int
    }

    /// The table names as the file spells them, in name order.
    let names: [String]
    /// Columns in declaration order, by ``key(_:)`` of the table name; virtual tables have none.
    private let columnsByName: [String: [Column]]
    private let keys: Set<String>

    /// Reads the tables of the main database of `db`.
    init(_ db: Database) throws {
        var names: [String] = []
        let sql = "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
        for value in try DatabaseValue.fetchAll(db, sql: sql) {
            if case .string(let name) = value.storage { names.append(name) }
        }
        // A virtual table's columns would need its module, which this reader may lack: they are not read.
        let rows = try Row.fetchAll(db, sql: """
            SELECT m.name, p.name, p.type, p.pk FROM sqlite_master AS m, pragma_table_xinfo(m.name) AS p
            WHERE m.type = 'table' AND m.sql NOT LIKE 'CREATE VIRTUAL TABLE%' AND p.hidden != 1
            ORDER BY m.name, p.cid
            """)
        var columnsByName: [String: [Column]] = [:]
        for row in rows {
            guard case .string(let table) = (row[0] as DatabaseValue).storage,
                  case .string(let name) = (row[1] as DatabaseValue).storage else { continue }
            let type: String
            if case .string(let declared) = (row[2] as DatabaseValue).storage { type = declared } else { type = "" }
            let key = SQLiteColumnReader.integer(in: row, at: 3).flatMap { Int(exactly: $0) } ?? 0
            columnsByName[Self.key(table), default: []].append(Column(name: name, type: type, primaryKeyIndex: key))
        }
        self.names = names
        self.columnsByName = columnsByName
        keys = Set(names.map(Self.key))
    }

    /// Whether the file has a table named `table`.
    func contains(_ table: String) -> Bool { keys.contains(Self.key(table)) }

    /// The columns of `table`, nil when the file has no such table.
    func columns(in table: String) -> [Column]? {
        guard contains(table) else { return nil }
        return columnsByName[Self.key(table)] ?? []
    }

    /// `name` with ASCII capitals made small: SQLite's names ignore ASCII case only.
    private static func key(_ name: String) -> String {
        String(decoding: name.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }
}
