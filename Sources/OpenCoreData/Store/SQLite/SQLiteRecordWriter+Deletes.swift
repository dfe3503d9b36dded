import GRDB
import GRDBSQLite

// Deleting a save's records by set: one DELETE per entity and chunk of keys
// instead of one per record, which spends most of its instructions starting
// and resetting the statement (a 1,000-photo cascade: 11.3k instructions per
// row deleted alone). Optimistic locking stays per record: the records read
// at one version go in one DELETE that requires it, and when fewer rows go
// than asked, the records whose row is gone or at another version make the
// save stale (the caller rolls the transaction back). RETURNING the versions
// instead cost SQLite 3k more instructions per row.

extension SQLiteRecordWriter {
    /// Deletes the rows of `ids` with their join rows; returns the records
    /// whose row of a known version (`versions`, by position; 0 for any) was gone or had changed.
    func delete(_ ids: [NSManagedObjectID], versions: [Int64]) throws -> [NSManagedObjectID] {
        // By entity, not by table: the entities of one table (a hierarchy) differ in their join tables.
        // A save lists an entity's records together, so the group is looked up only when the entity changes.
        var groups: [DeletedRecords] = [], groupOfEntity: [ObjectAddress: Int] = [:]
        var seen = Set<ObjectKey>(minimumCapacity: ids.count)
        var current: (entity: NSEntityDescription, group: Int)?
        for (id, version) in zip(ids, versions) where seen.insert(ObjectKey(id)).inserted {
            let entity = id.entity
            if current?.entity !== entity {
                let group = groupOfEntity[ObjectAddress(entity)] ?? groups.count
                if group == groups.count {
                    groups.append(DeletedRecords())
                    groupOfEntity[ObjectAddress(entity)] = group
                }
                current = (entity, group)
            }
            groups[current!.group].append(id, version: version)
        }
        var stale: [NSManagedObjectID] = []
        for group in groups {
            let entity = try entity(of: group.ids[0])
            if let unsavable = group.ids.first(where: { $0.primaryKey == nil }) { throw self.unsavable(unsavable) }
            for chunk in stride(from: 0, to: group.ids.count, by: SQLiteKeyList.maximumCount) {
                let end = min(chunk + SQLiteKeyList.maximumCount, group.ids.count)
                stale += try delete(group.ids[chunk..<end], of: entity, versions: group.versions[chunk..<end])
            }
        }
        return stale
    }

    /// Records of one entity to delete, each with the version its delete requires (0: any).
    private struct DeletedRecords {
        var ids: [NSManagedObjectID] = [], versions: [Int64] = []

        mutating func append(_ id: NSManagedObjectID, version: Int64) {
            ids.append(id)
            versions.append(max(version, 0))
        }
    }

    /// Deletes the rows of `ids`, all of `entity`: one statement per version
    /// the records were read at (`… AND Z_OPT = ?`; none for records never
    /// read, version 0). When fewer rows go than asked, the deletes are undone (a
    /// savepoint) and the records gone or at another version are returned.
    private func delete(_ ids: ArraySlice<NSManagedObjectID>, of entity: SQLiteMapping.Entity,
                        versions: ArraySlice<Int64>) throws -> [NSManagedObjectID] {
        let keys = ids.map { $0.primaryKey! }
        // The files of external data the rows name go once the rows are gone.
        let hasExternalStorage = entity.attributes.contains { $0.attribute.allowsExternalBinaryDataStorage }
        let previous = hasExternalStorage ? try keys.flatMap { try externalColumns(of: entity, pk: $0).values } : []
        // A save's records mostly share one version (1 for rows never updated): the last one's list is
        // reused without hashing the version.
        var byVersion: [Int64: [Int64]] = [:], lastVersion: Int64 = -1, lastKeys: [Int64] = []
        for (key, version) in zip(keys, versions) {
            if version != lastVersion {
                if !lastKeys.isEmpty { byVersion[lastVersion, default: []] += lastKeys }
                (lastVersion, lastKeys) = (version, byVersion.removeValue(forKey: version) ?? [])
            }
            lastKeys.append(key)
        }
        if !lastKeys.isEmpty { byVersion[lastVersion, default: []] += lastKeys }
        let checksVersions = byVersion.keys.contains { $0 > 0 }
        if checksVersions { try db.execute(sql: "SAVEPOINT ocd_delete") }
        var stale: [NSManagedObjectID] = []
        if try !deleteRows(byVersion, from: entity.table) {
            stale = try staleRecords(ids, of: entity, versions: versions)
            // Every row was there at its version after all: delete them without the condition.
            if stale.isEmpty { _ = try deleteRows([0: keys], from: entity.table) }
        }
        if checksVersions { try db.execute(sql: "RELEASE ocd_delete") }
        guard stale.isEmpty else { return stale }
        for value in previous { files.replaced(value) }
        let list = SQLiteKeyList(keys: keys[...])
        for (_, storage) in entity.relationships {
            switch storage {
            case .joinTable(let join):
                try list.statement("DELETE FROM \(join.table) WHERE \(join.source) IN (\(list.placeholders))", in: db)
                    .runInTransaction()
            case .hiddenForeignKey(let table, let column):
                try list.statement("UPDATE \(table) SET \(column) = NULL WHERE \(column) IN (\(list.placeholders))",
                                   in: db).runInTransaction()
            case .foreignKey, .inverseForeignKey:
                break // the rows pointing here follow their own delete rules (No Action keeps them dangling)
            }
        }
        return []
    }

    /// Deletes the rows whose keys `byVersion` lists under their version (0:
    /// any): runs of consecutive keys by range, the rest by list
    /// (``SQLiteKeyRuns``); false when a version's statements deleted fewer
    /// rows than keys.
    private func deleteRows(_ byVersion: [Int64: [Int64]], from table: String) throws -> Bool {
        var deletedAll = true
        for (version, keys) in byVersion {
            let condition = version > 0 ? " AND Z_OPT = ?" : ""
            let trailing: [Int64] = version > 0 ? [version] : []
            let runs = SQLiteKeyRuns(keys)
            var deleted = 0
            if !runs.ranges.isEmpty {
                let sql = "DELETE FROM \(table) WHERE Z_PK BETWEEN ? AND ?\(condition)"
                let statement = try db.cachedStatement(sql: sql)
                for range in runs.ranges {
                    try range.bind(to: statement, then: trailing)
                    try statement.runInTransaction()
                    deleted += Int(sqlite3_changes(db.sqliteConnection))
                }
            }
            for list in SQLiteKeyList.chunks(of: runs.scattered) {
                try list.statement("DELETE FROM \(table) WHERE Z_PK IN (\(list.placeholders))\(condition)", in: db,
                                   trailing: trailing).runInTransaction()
                deleted += Int(sqlite3_changes(db.sqliteConnection))
            }
            if version > 0, deleted != keys.count { deletedAll = false }
        }
        return deletedAll
    }

    /// After a delete that missed rows: undoes it (back to the savepoint)
    /// and returns the records of a known version whose row is gone or at
    /// another version.
    private func staleRecords(_ ids: ArraySlice<NSManagedObjectID>, of entity: SQLiteMapping.Entity,
                              versions: ArraySlice<Int64>) throws -> [NSManagedObjectID] {
        try db.execute(sql: "ROLLBACK TO ocd_delete")
        let list = SQLiteKeyList(keys: ids.map { $0.primaryKey! }[...])
        let current = try Row.fetchAll(list.statement(
            "SELECT Z_PK, Z_OPT FROM \(entity.table) WHERE Z_PK IN (\(list.placeholders))", in: db))
        let versionByKey = Dictionary(current.map { ($0[0] as Int64, $0[1] as Int64) }, uniquingKeysWith: { a, _ in a })
        return zip(ids, versions).filter { id, version in version > 0 && versionByKey[id.primaryKey!] != version }
            .map(\.0)
    }
}
