/// A table of a Core Data store: the table of an entity hierarchy (`Z<ROOT>`)
/// or the join table of a many-to-many relationship (`Z_<n><NAME>`).
struct SQLiteTable: Hashable, Sendable {
    var name: String
    /// The columns in the order Core Data creates them.
    var columns: [SQLiteColumn]
    /// The composite primary key of a join table; empty for entity tables,
    /// whose key is `Z_PK`.
    var primaryKey: [String] = []
    /// Multi-column UNIQUE table constraints, as column names. Only the oldest
    /// Core Data releases write uniqueness constraints this way (see
    /// ``SQLiteSchemaFormat``); later ones write unique indexes.
    var uniqueConstraints: [[String]] = []

    /// The column with `role`, if the table has one. Linear in the column count.
    func column(_ role: SQLiteColumn.Role) -> SQLiteColumn? {
        columns.first { $0.role == role }
    }

    /// The `CREATE TABLE` statement, spaced exactly as Core Data spaces it,
    /// without a trailing semicolon.
    var createStatement: String {
        var parts = columns.map(\.definition)
        if !primaryKey.isEmpty { parts.append("PRIMARY KEY (\(primaryKey.joined(separator: ", ")))") }
        let body = parts.joined(separator: ", ")
        guard !uniqueConstraints.isEmpty else { return "CREATE TABLE \(name) ( \(body) )" }
        // Core Data closes a table with constraints without the space before ")".
        let constraints = uniqueConstraints.map { "CONSTRAINT \($0.joined(separator: "_")) UNIQUE (\($0.joined(separator: ", ")))" }
        return "CREATE TABLE \(name) ( \(body), \(constraints.joined(separator: ", ")))"
    }
}

extension SQLiteTable {
    /// The column holding `property` (an attribute or a to-one relationship)
    /// in this table, if any. Linear in the column count.
    func column(storing property: NSPropertyDescription) -> SQLiteColumn? {
        let entity = property.entity?.name ?? ""
        return column(.attribute(entity: entity, name: property.name))
            ?? column(.foreignKey(entity: entity, relationship: property.name))
    }
}
