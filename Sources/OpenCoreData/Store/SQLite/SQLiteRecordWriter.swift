import GRDB

/// Applies one save's change set inside the store's write transaction: rows
/// deleted (with their join-table rows), inserted (`Z_OPT` 1) and updated
/// (`Z_OPT` + 1), then the relationship data that lives outside the saved
/// row: order keys of ordered to-many relationships, join-table rows and
/// hidden keys of to-many relationships without inverse.
///
/// Values of attributes allowing external storage go through `files`
/// (``SQLiteExternalData/Save``): a large value is written to its file here,
/// before the transaction commits, and the files of replaced or deleted
/// values are noted for removal after it.
///
/// Statements are cached per connection, so each record costs one or two
/// prepared-statement executions plus one per to-many destination, and a
/// deleted or updated record with such attributes one more to read the
/// columns it replaces.
struct SQLiteRecordWriter {
    /// Core Data spaces order keys by 1024 so that inserting between two
    /// items can leave the others alone; only the relative order matters.
    static let orderStep: Int64 = 1024

    let mapping: SQLiteMapping
    let db: Database
    let files: SQLiteExternalData.Save

    func apply(_ changes: StoreChangeSet) throws {
        for id in changes.deleted { try delete(id) }
        for snapshot in changes.inserted { try write(snapshot, inserting: true) }
        for snapshot in changes.updated { try write(snapshot, inserting: false) }
        for snapshot in changes.inserted { try writeToMany(snapshot, inserted: true) }
        for snapshot in changes.updated { try writeToMany(snapshot, inserted: false) }
    }

    private func entity(of id: NSManagedObjectID) throws -> SQLiteMapping.Entity {
        guard let entity = mapping.entity(id.entity), id.primaryKey != nil else {
            throw NSError.coreData(NSPersistentStoreSaveError, "The SQLite store cannot save \(id): its entity has no table here.")
        }
        return entity
    }

    private func delete(_ id: NSManagedObjectID) throws {
        let entity = try entity(of: id)
        let pk = id.primaryKey!
        for previous in try externalColumns(of: entity, pk: pk).values { files.replaced(previous) }
        try db.cachedStatement(sql: "DELETE FROM \(entity.table) WHERE Z_PK = ?").execute(arguments: [pk])
        for (_, storage) in entity.relationships {
            switch storage {
            case .joinTable(let join):
                try db.cachedStatement(sql: "DELETE FROM \(join.table) WHERE \(join.source) = ?").execute(arguments: [pk])
            case .hiddenForeignKey(let table, let column):
                try db.cachedStatement(sql: "UPDATE \(table) SET \(column) = NULL WHERE \(column) = ?").execute(arguments: [pk])
            case .foreignKey, .inverseForeignKey:
                break // the rows pointing here follow their own delete rules (No Action keeps them dangling)
            }
        }
    }

    /// Inserts or updates the row of `snapshot`: attributes and to-one keys.
    private func write(_ snapshot: StoreSnapshot, inserting: Bool) throws {
        let entity = try entity(of: snapshot.objectID)
        let pk = snapshot.objectID.primaryKey!
        let previous = inserting ? [:] : try externalColumns(of: entity, pk: pk)
        var columns: [String] = [], values: [DatabaseValue] = []
        for (attribute, column) in entity.attributes {
            let old = previous[column] ?? .null
            let value = try SQLiteValueCoding.databaseValue(snapshot.attributes[attribute.name], for: attribute) { data in
                try files.columnValue(data, for: attribute, previous: old)
            }
            files.replaced(old, by: value)
            columns.append(column)
            values.append(value)
        }
        for (relationship, storage) in entity.relationships {
            guard case .foreignKey(let key) = storage else { continue }
            let (column, entityColumn) = (key.column, key.entityColumn)
            let destination = snapshot.toOne[relationship.name]
            columns.append(column)
            values.append(destination?.primaryKey?.databaseValue ?? .null)
            if let entityColumn {
                columns.append(entityColumn)
                values.append(destination.flatMap { mapping.entity($0.entity)?.number }?.databaseValue ?? .null)
            }
        }
        if inserting {
            let sql = "INSERT INTO \(entity.table) (Z_PK, Z_ENT, Z_OPT\(columns.map { ", " + $0 }.joined())) VALUES (?, ?, 1"
                + String(repeating: ", ?", count: columns.count) + ")"
            try db.cachedStatement(sql: sql).execute(arguments: StatementArguments([pk.databaseValue, entity.number.databaseValue] + values))
        } else {
            let sql = "UPDATE \(entity.table) SET Z_OPT = Z_OPT + 1\(columns.map { ", \($0) = ?" }.joined()) WHERE Z_PK = ?"
            try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(values + [pk.databaseValue]))
            guard db.changesCount == 1 else {
                throw NSError.coreData(NSManagedObjectReferentialIntegrityError,
                                       "The record of \(snapshot.objectID) is no longer in the store.")
            }
        }
    }

    /// The stored values of the row `pk`'s columns whose attributes allow
    /// external storage, by column; no query when the entity has none.
    private func externalColumns(of entity: SQLiteMapping.Entity, pk: Int64) throws -> [String: DatabaseValue] {
        let columns = entity.attributes.filter { $0.attribute.allowsExternalBinaryDataStorage }.map(\.column)
        guard !columns.isEmpty else { return [:] }
        let sql = "SELECT \(columns.joined(separator: ", ")) FROM \(entity.table) WHERE Z_PK = ?"
        guard let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [pk]) else { return [:] }
        return Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, row[$0] as DatabaseValue) })
    }

    /// Writes the to-many relationships of `snapshot` whose data lives outside its row.
    private func writeToMany(_ snapshot: StoreSnapshot, inserted: Bool) throws {
        let entity = try entity(of: snapshot.objectID)
        let pk = snapshot.objectID.primaryKey!
        for (relationship, storage) in entity.relationships {
            let destinations = (snapshot.toMany[relationship.name] ?? []).compactMap(\.primaryKey)
            switch storage {
            case .foreignKey:
                continue
            case .inverseForeignKey(let key):
                let (table, column, orderColumn) = (key.table, key.column, key.orderColumn)
                // The destinations' own rows carry the key; an ordered relationship
                // also needs each one's position, which only this side knows.
                guard let orderColumn else { continue }
                let statement = try db.cachedStatement(sql: "UPDATE \(table) SET \(column) = ?, \(orderColumn) = ? WHERE Z_PK = ?")
                for (index, destination) in destinations.enumerated() {
                    try statement.execute(arguments: [pk, Int64(index + 1) * Self.orderStep, destination])
                }
            case .joinTable(let join):
                try writeJoin(join, source: pk, destinations: destinations, existing: !inserted)
            case .hiddenForeignKey(let table, let column):
                if !inserted {
                    try db.cachedStatement(sql: "UPDATE \(table) SET \(column) = NULL WHERE \(column) = ?").execute(arguments: [pk])
                }
                let statement = try db.cachedStatement(sql: "UPDATE \(table) SET \(column) = ? WHERE Z_PK = ?")
                for destination in destinations { try statement.execute(arguments: [pk, destination]) }
            }
        }
    }

    /// Makes the join rows of `source` exactly `destinations`, touching only
    /// rows that change, so the other side's order column survives.
    private func writeJoin(_ join: SQLiteRelationshipStorage.JoinTable, source: Int64, destinations: [Int64], existing: Bool) throws {
        let wanted = Set(destinations)
        if existing {
            let current = try Int64.fetchAll(db.cachedStatement(sql: "SELECT \(join.destination) FROM \(join.table) WHERE \(join.source) = ?"),
                                             arguments: [source])
            let remove = try db.cachedStatement(sql: "DELETE FROM \(join.table) WHERE \(join.source) = ? AND \(join.destination) = ?")
            for destination in current where !wanted.contains(destination) { try remove.execute(arguments: [source, destination]) }
        }
        let add = try db.cachedStatement(sql: "INSERT OR IGNORE INTO \(join.table) (\(join.source), \(join.destination)) VALUES (?, ?)")
        for destination in destinations { try add.execute(arguments: [source, destination]) }
        if let order = join.order {
            let place = try db.cachedStatement(sql: "UPDATE \(join.table) SET \(order) = ? WHERE \(join.source) = ? AND \(join.destination) = ?")
            for (index, destination) in destinations.enumerated() {
                try place.execute(arguments: [Int64(index + 1) * Self.orderStep, source, destination])
            }
        }
    }
}
