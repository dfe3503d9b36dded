import GRDB

/// The join tables an existing store file has (`Z_<n>…` tables), with their
/// columns: the evidence ``SQLiteJoinTableDiscovery`` matches the model's
/// many-to-many relationships against.
struct SQLiteFileJoinTables: Sendable {
    /// One join table of the file.
    struct Table: Sendable, Equatable {
        var name: String
        /// Column names in declaration order.
        var columns: [String]
        /// The primary key's columns in key order (the two keys of a Core Data join table).
        var primaryKey: [String]
    }

    var tables: [Table]

    init(_ tables: [Table]) { self.tables = tables }

    /// Reads the `Z_<digit>…` tables of `db`: a query for the list, a `PRAGMA table_info` for each
    /// table's columns (see ``SQLiteFileSchema``). Bookkeeping and entity tables are not join tables
    /// (`Z_PRIMARYKEY`, `ZNOTE`), so the pattern excludes them.
    init(_ db: Database) throws {
        tables = try SQLiteFileSchema.tables(in: db, where: Self.isJoinTableName).map { table in
            let columns = try SQLiteFileSchema.columns(of: table, in: db)
            return Table(name: table.name, columns: columns.map(\.name),
                         primaryKey: SQLiteFileSchema.primaryKey(of: columns))
        }
    }

    /// Whether `name` is `Z_` and a digit, then anything (SQL's `GLOB 'Z_[0-9]*'`, case-sensitive).
    private static func isJoinTableName(_ name: String) -> Bool {
        let start = Array(name.utf8.prefix(3))
        return start.count == 3 && start[0] == UInt8(ascii: "Z") && start[1] == UInt8(ascii: "_")
            && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(start[2])
    }
}
