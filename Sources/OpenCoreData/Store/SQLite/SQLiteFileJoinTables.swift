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

    /// Reads the `Z_<digit>…` tables of `db`: one query for the list and two
    /// per table (columns, primary key). Bookkeeping and entity tables are
    /// not join tables (`Z_PRIMARYKEY`, `ZNOTE`), so the pattern excludes them.
    init(_ db: Database) throws {
        let names = try String.fetchAll(db, sql: """
            SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'Z_[0-9]*' ORDER BY name
            """)
        tables = try names.map { name in
            let columns = try db.columns(in: name).map(\.name)
            let primaryKey = try db.primaryKey(name).columns
            return Table(name: name, columns: columns, primaryKey: primaryKey)
        }
    }
}
