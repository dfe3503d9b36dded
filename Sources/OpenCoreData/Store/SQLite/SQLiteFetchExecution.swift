import GRDB

/// Runs a fetch as one SELECT of `Z_PK, Z_ENT` on the entity's table: rows
/// of the entity (and its sub-entities: a `Z_ENT` range), in `Z_PK` order,
/// with `LIMIT`/`OFFSET` when the store applies the window.
struct SQLiteFetchExecution {
    let store: SQLiteStore
    let fetch: StoreFetch

    func run() throws -> [NSManagedObjectID] {
        guard let entity = store.mapping.entity(fetch.entity) else { return [] }
        let request = fetch.request
        var sql = "SELECT t0.Z_PK, t0.Z_ENT FROM \(entity.table) t0 WHERE "
        var arguments: [DatabaseValueConvertible] = []
        if request.includesSubentities {
            sql += "t0.Z_ENT BETWEEN ? AND ?"
            arguments += [entity.numbers.lowerBound, entity.numbers.upperBound]
        } else {
            sql += "t0.Z_ENT = ?"
            arguments.append(entity.number)
        }
        sql += " ORDER BY t0.Z_PK"
        if fetch.appliesWindow, request.fetchLimit > 0 || request.fetchOffset > 0 {
            sql += " LIMIT ? OFFSET ?"
            arguments += [request.fetchLimit > 0 ? request.fetchLimit : -1, max(request.fetchOffset, 0)]
        }
        return try store.database.read { db in
            var ids: [NSManagedObjectID] = []
            let rows = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(arguments))
            while let row = try rows.next() {
                if let id = store.objectID(entityNumber: row[1], primaryKey: row[0]) { ids.append(id) }
            }
            return ids
        }
    }
}
