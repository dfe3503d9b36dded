import GRDB
import GRDBSQLite

// The relationship data a save writes outside the saved rows: the order keys
// of ordered to-many relationships, join-table rows of many-to-many ones, the
// hidden keys of to-many relationships without inverse. A row each, through
// the store's cached statements bound and stepped with SQLite's C API
// (`run(_:_:)`): GRDB's `execute(arguments:)` builds an argument array and
// tells the connection's observers about each run, ~1,500 instructions a row
// that none of these writes needs (see `Statement.runInTransaction()`).

extension SQLiteRecordWriter {
    /// Writes the to-many relationships of `snapshot` whose data lives
    /// outside its row.
    func writeToMany(_ snapshot: StoreSnapshot, of entity: SQLiteMapping.Entity, inserted: Bool) throws {
        let pk = snapshot.identity.primaryKey!
        for ((_, storage), slot) in zip(entity.relationships, entity.relationshipSlots) {
            // The destinations' own rows carry a foreign key; an ordered relationship
            // also needs each one's position, which only this side knows.
            switch storage {
            case .foreignKey: continue
            case .inverseForeignKey(let key) where key.orderColumn == nil: continue
            default: break
            }
            let value = snapshot[slot]
            // Never read, or not changed since stored: what the file holds stays.
            guard !value.isUnread, inserted || snapshot.changedSlots?.contains(slot) ?? true else { continue }
            let destinations = value.destinationIDs.compactMap(\.primaryKey)
            switch storage {
            case .foreignKey:
                continue
            case .inverseForeignKey(let key):
                let (table, column) = (key.table, key.column)
                guard let orderColumn = key.orderColumn else { continue }
                let place = try db.cachedStatement(
                    sql: "UPDATE \(table) SET \(column) = ?, \(orderColumn) = ? WHERE Z_PK = ?")
                for (index, destination) in destinations.enumerated() {
                    try run(place, [pk, Int64(index + 1) * Self.orderStep, destination])
                }
            case .joinTable(let join):
                try writeJoin(join, source: pk, destinations: destinations, existing: !inserted)
            case .hiddenForeignKey(let table, let column):
                if !inserted {
                    try run(db.cachedStatement(sql: "UPDATE \(table) SET \(column) = NULL WHERE \(column) = ?"), [pk])
                }
                let point = try db.cachedStatement(sql: "UPDATE \(table) SET \(column) = ? WHERE Z_PK = ?")
                for destination in destinations { try run(point, [pk, destination]) }
            }
        }
    }

    /// Makes the join rows of `source` exactly `destinations`, touching only
    /// rows that change, so the other side's order column survives.
    private func writeJoin(_ join: SQLiteRelationshipStorage.JoinTable, source: Int64, destinations: [Int64],
                           existing: Bool) throws {
        let wanted = Set(destinations)
        if existing {
            let select = try db.cachedStatement(
                sql: "SELECT \(join.destination) FROM \(join.table) WHERE \(join.source) = ?")
            try select.checkBinding(sqlite3_bind_int64(select.sqliteStatement, 1, source))
            let column = SQLiteColumnReader(statement: select.sqliteStatement)
            var current: [Int64] = []
            // A destination key of another storage class, which Core Data does not write, is left alone.
            try select.forEachRow { if let destination = column.integer(0) { current.append(destination) } }
            let remove = try db.cachedStatement(
                sql: "DELETE FROM \(join.table) WHERE \(join.source) = ? AND \(join.destination) = ?")
            for destination in current where !wanted.contains(destination) { try run(remove, [source, destination]) }
        }
        let add = try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO \(join.table) (\(join.source), \(join.destination)) VALUES (?, ?)")
        for destination in destinations { try run(add, [source, destination]) }
        if let order = join.order {
            let place = try db.cachedStatement(
                sql: "UPDATE \(join.table) SET \(order) = ? WHERE \(join.source) = ? AND \(join.destination) = ?")
            for (index, destination) in destinations.enumerated() {
                try run(place, [Int64(index + 1) * Self.orderStep, source, destination])
            }
        }
    }

    /// Binds `values` to `statement`'s parameters, in order, and runs it.
    private func run(_ statement: Statement, _ values: [Int64]) throws {
        try statement.bind(values.map(\.databaseValue))
        try statement.runInTransaction()
    }
}
