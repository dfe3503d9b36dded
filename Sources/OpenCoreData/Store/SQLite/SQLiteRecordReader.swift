import GRDB

/// Reads records back into snapshots: one query per table and chunk of 500
/// keys for the rows, then one query per to-many relationship and chunk for
/// the destinations (from the inverse key, the join table or the hidden key,
/// in order-key order when ordered).
struct SQLiteRecordReader {
    /// Keys per `IN (…)` list: well below SQLite's bound-parameter limit.
    static let chunkSize = 500

    let store: SQLiteStore
    let db: Database

    func snapshots(for ids: [NSManagedObjectID]) throws -> [NSManagedObjectID: StoreSnapshot] {
        var found: [StoreSnapshot] = []
        let byTable = Dictionary(grouping: ids) { store.mapping.entity($0.entity)?.table ?? "" }
        for (table, group) in byTable where !table.isEmpty {
            let wanted = Dictionary(group.map { ($0.primaryKey!, $0) }, uniquingKeysWith: { a, _ in a })
            for chunk in Self.chunks(Array(wanted.keys)) {
                try readRows(table: table, keys: chunk, wanted: wanted, into: &found)
            }
        }
        try readToMany(into: &found)
        return Dictionary(found.map { ($0.objectID, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// Reads the rows `keys` of `table`, keeping those whose Z_ENT is the entity the ID names.
    private func readRows(table: String, keys: [Int64], wanted: [Int64: NSManagedObjectID],
                          into found: inout [StoreSnapshot]) throws {
        let sql = "SELECT * FROM \(table) WHERE Z_PK IN (\(Self.placeholders(keys.count)))"
        store.recordQueryCount += 1
        let statement = try db.cachedStatement(sql: sql)
        let layout = SQLiteRowLayout(columnNames: statement.columnNames)
        let pkPosition = statement.columnNames.firstIndex { $0.uppercased() == "Z_PK" } ?? 0
        let rows = try Row.fetchCursor(statement, arguments: StatementArguments(keys))
        while let row = try rows.next() {
            guard let pk = Self.integer(row, pkPosition), let id = wanted[pk], let snapshot = snapshot(of: id, from: row, layout: layout) else { continue }
            found.append(snapshot)
        }
    }

    /// The snapshot of `id` from `row`, a row of its table with every column
    /// (found through `layout`, the row's query's); nil when the row's Z_ENT
    /// is not the entity the ID names.
    func snapshot(of id: NSManagedObjectID, from row: Row, layout: SQLiteRowLayout) -> StoreSnapshot? {
        guard let entity = store.mapping.entity(id.entity) else { return nil }
        let columns = layout.columns(of: entity)
        // Columns are read without GRDB's trapping conversions: a row whose
        // Z_ENT is NULL or not a number is no object, as in a fetch's WHERE.
        guard let entityPosition = columns.entity, Self.integer(row, entityPosition) == Int64(entity.number) else { return nil }
        var snapshot = StoreSnapshot(objectID: id, version: columns.version.flatMap { Self.integer(row, $0) } ?? 0)
        snapshot.attributes.reserveCapacity(entity.attributes.count)
        let external = store.externalData.data(reference:)
        for (index, (attribute, _)) in entity.attributes.enumerated() {
            guard let position = columns.attributes[index] else { continue }
            if let value = SQLiteValueCoding.value(row[position], for: attribute, external: external) {
                snapshot.attributes[attribute.name] = value
            }
        }
        for (index, (relationship, _)) in entity.relationships.enumerated() {
            guard let position = columns.foreignKeys[index].key, let key = Self.integer(row, position) else { continue }
            let destination = columns.foreignKeys[index].entity.flatMap { Self.integer(row, $0) }.flatMap { Int(exactly: $0) }
                .flatMap(store.mapping.entity(number:))
                ?? relationship.destinationEntity
            if let destination { snapshot.toOne[relationship.name] = store.objectID(for: destination, primaryKey: key) }
        }
        return snapshot
    }

    /// Fills the to-many relationships of the snapshots in `found`.
    func readToMany(into found: inout [StoreSnapshot]) throws {
        let byEntity = Dictionary(grouping: found.indices) { ObjectIdentifier(found[$0].objectID.entity) }
        for positions in byEntity.values {
            guard let entity = store.mapping.entity(found[positions[0]].objectID.entity),
                  entity.relationships.contains(where: { $0.relationship.isToMany }) else { continue }
            let positionByKey = Dictionary(positions.map { (found[$0].objectID.primaryKey!, $0) }, uniquingKeysWith: { a, _ in a })
            for (relationship, storage) in entity.relationships where relationship.isToMany {
                guard let destinationTable = relationship.destinationEntity.flatMap(store.mapping.entity)?.table else { continue }
                for chunk in Self.chunks(Array(positionByKey.keys)) {
                    let sql: String
                    switch storage {
                    case .foreignKey: continue
                    case .inverseForeignKey(let key):
                        let (table, column, order) = (key.table, key.column, key.orderColumn)
                        sql = "SELECT \(column), Z_PK, Z_ENT FROM \(table) WHERE \(column) IN (\(Self.placeholders(chunk.count)))"
                            + " ORDER BY \(order.map { "\($0), " } ?? "")Z_PK"
                    case .hiddenForeignKey(let table, let column):
                        sql = "SELECT \(column), Z_PK, Z_ENT FROM \(table) WHERE \(column) IN (\(Self.placeholders(chunk.count))) ORDER BY Z_PK"
                    case .joinTable(let join):
                        sql = "SELECT j.\(join.source), d.Z_PK, d.Z_ENT FROM \(join.table) j JOIN \(destinationTable) d ON d.Z_PK = j.\(join.destination)"
                            + " WHERE j.\(join.source) IN (\(Self.placeholders(chunk.count)))"
                            + " ORDER BY \(join.order.map { "j.\($0), " } ?? "")d.Z_PK"
                    }
                    let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: StatementArguments(chunk))
                    while let row = try rows.next() {
                        guard let source = Self.integer(row, 0), let key = Self.integer(row, 1), let number = Self.integer(row, 2).flatMap({ Int(exactly: $0) }),
                              let position = positionByKey[source], let destination = store.objectID(entityNumber: number, primaryKey: key) else { continue }
                        found[position].toMany[relationship.name, default: []].append(destination)
                    }
                }
            }
        }
    }

    /// The integer in column `index` of `row`; nil for NULL or any other value
    /// (the file is untrusted, and GRDB's typed subscripts trap on those).
    static func integer(_ row: Row, _ index: Int) -> Int64? {
        let value = row[index] as DatabaseValue
        guard case .int64(let integer) = value.storage else { return nil }
        return integer
    }

    static func chunks(_ keys: [Int64]) -> [[Int64]] {
        stride(from: 0, to: keys.count, by: chunkSize).map { Array(keys[$0..<min($0 + chunkSize, keys.count)]) }
    }

    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}
