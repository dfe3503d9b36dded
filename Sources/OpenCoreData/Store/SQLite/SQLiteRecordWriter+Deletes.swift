import GRDB

// Deleting a save's records by set: one DELETE per entity and chunk of keys
// instead of one per record, which spends most of its instructions starting
// and resetting the statement (a 1,000-photo cascade: 11.3k instructions per
// row deleted alone). Optimistic locking stays per record: the DELETE returns
// each deleted row's Z_OPT, and a record whose row is gone or was at another
// version makes the save stale (the caller rolls the transaction back).

extension SQLiteRecordWriter {
    /// Deletes the rows of `ids` with their join rows; returns the records
    /// whose row of a known version (`versions`, none or 0 for any) was gone or had changed.
    func delete(_ ids: [NSManagedObjectID], versions: [ObjectKey: Int64]) throws -> [NSManagedObjectID] {
        var byTable: [String: (entity: SQLiteMapping.Entity, ids: [NSManagedObjectID])] = [:]
        var seen = Set<ObjectKey>()
        for id in ids where seen.insert(ObjectKey(id)).inserted {
            let entity = try entity(of: id)
            byTable[entity.table, default: (entity, [])].ids.append(id)
        }
        var stale: [NSManagedObjectID] = []
        for (entity, ids) in byTable.values {
            for chunk in stride(from: 0, to: ids.count, by: SQLiteRecordReader.chunkSize) {
                let records = Array(ids[chunk..<min(chunk + SQLiteRecordReader.chunkSize, ids.count)])
                stale += try delete(records, of: entity, versions: versions)
            }
        }
        return stale
    }

    /// Deletes the rows of `ids`, all of `entity`, in one statement.
    private func delete(_ ids: [NSManagedObjectID], of entity: SQLiteMapping.Entity,
                        versions: [ObjectKey: Int64]) throws -> [NSManagedObjectID] {
        let keys = ids.map { $0.primaryKey! }
        let previous = try keys.flatMap { try externalColumns(of: entity, pk: $0).values }
        let inKeys = "IN (\(SQLiteRecordReader.placeholders(keys.count)))"
        let arguments = StatementArguments(keys)
        let deletion = try statement("DELETE FROM \(entity.table) WHERE Z_PK \(inKeys) RETURNING Z_PK, Z_OPT",
                                     count: keys.count)
        var deletedVersions: [Int64: Int64] = [:]
        let rows = try Row.fetchCursor(deletion, arguments: arguments)
        while let row = try rows.next() { deletedVersions[row[0]] = row[1] }
        // Without a version nothing was read of the record, so one already gone is no conflict.
        let stale = ids.filter { id in
            let version = versions[ObjectKey(id)] ?? 0
            return version > 0 && deletedVersions[id.primaryKey!] != version
        }
        guard stale.isEmpty else { return stale }
        for value in previous { files.replaced(value) }
        for (_, storage) in entity.relationships {
            switch storage {
            case .joinTable(let join):
                try statement("DELETE FROM \(join.table) WHERE \(join.source) \(inKeys)", count: keys.count)
                    .execute(arguments: arguments)
            case .hiddenForeignKey(let table, let column):
                try statement("UPDATE \(table) SET \(column) = NULL WHERE \(column) \(inKeys)", count: keys.count)
                    .execute(arguments: arguments)
            case .foreignKey, .inverseForeignKey:
                break // the rows pointing here follow their own delete rules (No Action keeps them dangling)
            }
        }
        return []
    }

    /// A statement for `sql`, kept in the connection's cache only for full
    /// chunks, so that the cache does not fill with one statement per remainder size.
    private func statement(_ sql: String, count: Int) throws -> Statement {
        count == SQLiteRecordReader.chunkSize ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
    }
}
