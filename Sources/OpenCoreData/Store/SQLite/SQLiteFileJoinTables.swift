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

    /// Reads the `Z_<digit>…` tables of `db` (``SQLiteFileTables``).
    init(_ db: Database) throws {
        self.init(try SQLiteFileTables(db))
    }

    /// The `Z_<digit>…` tables of `file`, in name order. Bookkeeping and
    /// entity tables are not join tables (`Z_PRIMARYKEY`, `ZNOTE`), so the
    /// pattern excludes them. A table without a declared primary key has none here.
    init(_ file: SQLiteFileTables) {
        tables = file.names.filter { name in
            name.hasPrefix("Z_") && name.utf8.dropFirst(2).first.map { (48...57).contains($0) } == true
        }.map { name in
            let columns = file.columns(in: name) ?? []
            let keys = columns.filter { $0.primaryKeyIndex > 0 }.sorted { $0.primaryKeyIndex < $1.primaryKeyIndex }
            return Table(name: name, columns: columns.map(\.name), primaryKey: keys.map(\.name))
        }
    }
}
