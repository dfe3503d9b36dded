import GRDB

/// The cheap way to migrate one entity table: altered where it is, as Core
/// Data's in-place migration does, when every source row stays and every
/// destination column is computed from the row itself. New columns are
/// added (O(1) for a NULL column), computed values set by one UPDATE,
/// renamed columns renamed, unused ones dropped; only the UPDATE and a
/// DROP COLUMN rewrite rows.
struct SQLiteTableAlteration {
    /// The source table's unprefixed name.
    let sourceTable: String
    let destinationTable: String
    private let columns: [SQLiteColumn]
    private let expressions: [SQLiteMigrationTable.Expression]

    /// The alteration that turns the source table into `table`; nil when the
    /// table must be rebuilt (rows removed or moved, a value read from
    /// another row, a column changing type, or table constraints).
    init?(_ table: SQLiteMigrationTable) {
        guard let source = table.sourceTable, table.keepsEveryRow, !table.retypesColumns,
              table.table.uniqueConstraints.isEmpty,
              table.expressions.allSatisfy(\.sameRow) else { return nil }
        sourceTable = source
        destinationTable = table.table.name
        columns = table.table.columns
        expressions = table.expressions
    }

    /// Alters the source table, named `table` now, and renames it to the
    /// destination table. `keepingIndexes`: the destination's indexes; an
    /// existing index survives when one of them has its name and columns.
    func run(_ db: Database, table: String, keepingIndexes indexes: [SQLiteIndex]) throws {
        let existing = try db.columns(in: table).map(\.name)
        let present = Set(existing), names = Set(columns.map(\.name))
        var reads: [String: Int] = [:]
        for expression in expressions { if let plain = expression.plainColumn { reads[plain, default: 0] += 1 } }
        // A column is kept as it is, renamed (its old name read once and
        // taken by nothing), or assigned: added if new, then set by the UPDATE.
        var kept: Set<String> = [], renamed: [(from: String, to: String)] = []
        var assignments: [(column: SQLiteColumn, expression: SQLiteMigrationTable.Expression)] = []
        for (column, expression) in zip(columns, expressions) {
            let plain = expression.plainColumn
            if plain == column.name {
                kept.insert(column.name)
            } else if let plain, present.contains(plain), !names.contains(plain), !present.contains(column.name),
                      reads[plain] == 1 {
                renamed.append((plain, column.name))
                kept.insert(plain)
            } else {
                assignments.append((column, expression))
            }
        }
        let wanted = Dictionary(indexes.filter { $0.table == destinationTable }.map { ($0.name, $0.terms) },
                                uniquingKeysWith: { a, _ in a })
        let renamedFrom = Set(renamed.map(\.from))
        for index in try db.indexes(on: table) where !index.name.hasPrefix("sqlite_") {
            let unchanged = wanted[index.name] == index.columns
                && index.columns.allSatisfy { kept.contains($0) && !renamedFrom.contains($0) }
            if !unchanged { try db.execute(sql: "DROP INDEX \(index.name.quotedDatabaseIdentifier)") }
        }
        for (column, _) in assignments where !present.contains(column.name) {
            try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN \(column.name) \(column.type.rawValue)")
        }
        // A new column that stays NULL needs no write.
        let computed = assignments.filter { $0.expression != .null || present.contains($0.column.name) }
        if !computed.isEmpty {
            try db.execute(sql: "UPDATE \(table) AS s SET "
                               + computed.map { "\($0.column.name) = \($0.expression.sql)" }.joined(separator: ", "),
                           arguments: StatementArguments(computed.flatMap(\.expression.arguments)))
        }
        for (from, to) in renamed { try db.execute(sql: "ALTER TABLE \(table) RENAME COLUMN \(from) TO \(to)") }
        for name in existing where !kept.contains(name) && !names.contains(name) {
            try db.execute(sql: "ALTER TABLE \(table) DROP COLUMN \(name)")
        }
        if table != destinationTable { try db.execute(sql: "ALTER TABLE \(table) RENAME TO \(destinationTable)") }
    }
}
