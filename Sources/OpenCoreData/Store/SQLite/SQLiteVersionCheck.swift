import GRDB

/// Core Data's optimistic locking on SQLite: inside the save's write
/// transaction, before anything is written, the `Z_OPT` of every record the
/// save updates or deletes is compared with the version the context last
/// read. Core Data puts `AND Z_OPT = X` in each UPDATE and DELETE (its SQL
/// log, SO 15821652); reading the versions first finds every conflict of the
/// save at once, for the merge policy, with one query per table and 500 keys.
struct SQLiteVersionCheck {
    let store: SQLiteStore
    let db: Database

    /// Throws ``StoreVersionConflict`` with the current record of each record
    /// of `changes` that changed or vanished since the context read it.
    func verify(_ changes: StoreChangeSet) throws {
        let expected = changes.expectedVersions
        guard !expected.isEmpty else { return }
        let byTable = Dictionary(grouping: expected) { store.mapping.entity($0.id.entity)?.table ?? "" }
        var stale: [NSManagedObjectID] = []
        for (table, records) in byTable where !table.isEmpty {
            let versions = try currentVersions(in: table, of: records.compactMap(\.id.primaryKey))
            stale += records.filter { versions[$0.id.primaryKey ?? 0] != $0.version }.map(\.id)
        }
        guard !stale.isEmpty else { return }
        let persisted = try SQLiteRecordReader(store: store, db: db).snapshots(for: stale)
        throw StoreVersionConflict(records: stale.map { .init(objectID: $0, persisted: persisted[ObjectKey($0)]) })
    }

    /// `Z_OPT` of the rows `keys` of `table` that exist, by primary key.
    private func currentVersions(in table: String, of keys: [Int64]) throws -> [Int64: Int64] {
        var versions: [Int64: Int64] = [:]
        for chunk in SQLiteRecordReader.chunks(keys) {
            let sql = "SELECT Z_PK, Z_OPT FROM \(table) WHERE Z_PK IN (\(SQLiteRecordReader.placeholders(chunk.count)))"
            let statement = try db.cachedStatement(sql: sql)
            let rows = try Row.fetchCursor(statement, arguments: StatementArguments(chunk))
            let columns = SQLiteColumnReader(statement: statement.sqliteStatement)
            while try rows.next() != nil {
                guard let key = columns.integer(0) else { continue }
                versions[key] = columns.integer(1) ?? 0
            }
        }
        return versions
    }
}
