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

    /// Reads the `Z_<digit>…` tables of `db` (one query; see ``SQLiteFileSchema``).
    init(_ db: Database) throws { self.init(try SQLiteFileSchema(db)) }

    /// The `Z_<digit>…` tables of a file whose schema was read. Bookkeeping and
    /// entity tables are not join tables (`Z_PRIMARYKEY`, `ZNOTE`), so the pattern excludes them.
    init(_ schema: SQLiteFileSchema) {
        tables = schema.tables(where: Self.isJoinTableName).map { table in
            Table(name: table.name, columns: table.columns.map(\.name), primaryKey: table.primaryKey)
        }
    }

    /// Whether `name` is `Z_` and a digit, then anything (SQL's `GLOB 'Z_[0-9]*'`, case-sensitive).
    private static func isJoinTableName(_ name: String) -> Bool {
        let start = Array(name.utf8.prefix(3))
        return start.count == 3 && start[0] == UInt8(ascii: "Z") && start[1] == UInt8(ascii: "_")
            && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(start[2])
    }
}
