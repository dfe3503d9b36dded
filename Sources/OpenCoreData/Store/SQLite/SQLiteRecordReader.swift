import GRDB

/// Reads records back into snapshots: one query per table and chunk of keys
/// (``SQLiteKeyList``) for the rows, their to-many relationships left `.unread` (as Core
/// Data's snapshots hold no to-many relationships); `destinations(of:via:)`
/// reads those with one query per chunk of owners (from the inverse key, the
/// join table or the hidden key, in order-key order when ordered).
struct SQLiteRecordReader {
    let store: SQLiteStore
    let db: Database
    /// Resolves a blob kept outside the database; made once per reader, not per value.
    private let external: (Data) -> Data?
    /// The families of the to-one destinations this reader named (see `SQLiteDestinationFamilies`).
    private let destinationFamilies = SQLiteDestinationFamilies()

    init(store: SQLiteStore, db: Database) {
        self.store = store
        self.db = db
        external = store.externalData.data(reference:)
    }

    func snapshots(for ids: [NSManagedObjectID]) throws -> [ObjectKey: StoreSnapshot] {
        var found: [StoreSnapshot] = []
        if let first = ids.first?.entity, ids.allSatisfy({ $0.entity === first }) {
            // One entity, one table (a fault fired alone): no grouping.
            if let table = store.mapping.entity(first)?.table { try readRows(of: ids, table: table, into: &found) }
        } else {
            let byTable = Dictionary(grouping: ids) { store.mapping.entity($0.entity)?.table ?? "" }
            for (table, group) in byTable where !table.isEmpty { try readRows(of: group, table: table, into: &found) }
        }
        // Filled one record at a time, the first of a record read twice last: `Dictionary(_:uniquingKeysWith:)`
        // over pairs copied each record through the runtime's generic tuple copy (~100 instructions a record).
        var byID = [ObjectKey: StoreSnapshot](minimumCapacity: found.count)
        for snapshot in found.reversed() { byID[ObjectKey(snapshot.objectID)] = snapshot }
        return byID
    }

    /// The record of `primaryKey` in `family`, named by both, alone in an array; none when its table holds
    /// none for the family's entity. An array rather than an optional: through the generic calls around a
    /// read, an optional record is handled by the runtime's value witnesses (~600 instructions a read).
    func snapshots(of family: ObjectIDFamily, primaryKey: Int64) throws -> [StoreSnapshot] {
        guard let table = store.mapping.entity(family.entity)?.table else { return [] }
        var found: [StoreSnapshot] = []
        try readRows(table: table, keys: SQLiteKeyList(keys: [primaryKey][...]),
                     wanted: .one(.record(family, primaryKey: primaryKey), primaryKey: primaryKey), into: &found)
        return found
    }

    /// The records of `primaryKeys` (distinct) in `family` that the store holds, each named by its family and
    /// key: no ID is made (see `NSPersistentStore.snapshots(of:primaryKeys:)`). In no particular order.
    func snapshots(of family: ObjectIDFamily, primaryKeys: [Int64]) throws -> [StoreSnapshot] {
        guard let table = store.mapping.entity(family.entity)?.table else { return [] }
        var found: [StoreSnapshot] = []
        for chunk in SQLiteKeyList.chunks(of: primaryKeys) {
            try readRows(table: table, keys: chunk, wanted: .family(family), into: &found)
        }
        return found
    }

    /// Reads the records of `ids`, all stored in `table`, a chunk of keys at a time.
    private func readRows(of ids: [NSManagedObjectID], table: String, into found: inout [StoreSnapshot]) throws {
        let wanted = WantedRecords(ids)
        for chunk in SQLiteKeyList.chunks(of: wanted.primaryKeys) {
            try readRows(table: table, keys: chunk, wanted: wanted, into: &found)
        }
    }

    /// The records a read asks for, by primary key: IDs, one without a
    /// dictionary (a fault fired alone, where making and filling one cost
    /// ~1,000 instructions), or every key read of one family, which names
    /// the records without IDs.
    private enum WantedRecords {
        case one(RecordIdentity, primaryKey: Int64)
        case many([PrimaryKey: NSManagedObjectID])
        case family(ObjectIDFamily)

        /// `ids`, each with a primary key; the first of two with one key.
        init(_ ids: [NSManagedObjectID]) {
            if ids.count == 1 {
                self = .one(.id(ids[0]), primaryKey: ids[0].primaryKey!)
            } else {
                self = .many(Dictionary(ids.map { (PrimaryKey($0.primaryKey!), $0) }, uniquingKeysWith: { a, _ in a }))
            }
        }

        /// The primary keys of the IDs, each once.
        var primaryKeys: [Int64] {
            switch self {
            case .one(_, let key): [key]
            case .many(let ids): ids.keys.map(\.value)
            case .family: []
            }
        }

        /// The entity of any of the records.
        var anyEntity: NSEntityDescription? {
            switch self {
            case .one(let record, _): record.entity
            case .many(let ids): ids.first?.value.entity
            case .family(let family): family.entity
            }
        }

        /// The record of `primaryKey`, when it is one asked for (a family's keys are the statement's).
        subscript(primaryKey: Int64) -> RecordIdentity? {
            switch self {
            case .one(let record, let key): key == primaryKey ? record : nil
            case .many(let ids): ids[PrimaryKey(primaryKey)].map(RecordIdentity.id)
            case .family(let family): .record(family, primaryKey: primaryKey)
            }
        }
    }

    /// Whether `snapshots(for: ids)` runs at most one query: the records are
    /// of one table and fit one key list. Entity by entity, so that a batch
    /// of one entity costs no mapping lookups.
    static func readsInOneQuery(_ ids: [NSManagedObjectID], mapping: SQLiteMapping) -> Bool {
        guard ids.count <= SQLiteKeyList.maximumCount else { return false }
        guard let first = ids.first?.entity else { return true }
        let table = mapping.entity(first)?.table
        return ids.allSatisfy { $0.entity === first || mapping.entity($0.entity)?.table == table }
    }

    /// Reads the rows `keys` of `table`, keeping those whose Z_ENT is the entity the ID names.
    private func readRows(table: String, keys: SQLiteKeyList, wanted: WantedRecords,
                          into found: inout [StoreSnapshot]) throws {
        store.recordQueryCount += 1
        let queries = store.recordQueries, mapping = store.mapping!
        let statement: Statement
        // The keys are distinct (each ID once; a family's keys as given). The statements are only stepped below.
        if let run = keys.distinctKeysAsRun {
            statement = try db.cachedStatement(sql: queries.rangeSQL(table: table))
            try run.bind(to: statement, markingArguments: false)
        } else {
            statement = try keys.steppedStatement(queries.sql(table: table, keys: keys), in: db)
        }
        let columnNames = statement.columnNames
        guard let first = wanted.anyEntity,
              var plan = queries.plan(table: table, columnNames: columnNames, entity: first, mapping: mapping)
        else { return }
        let columns = SQLiteColumnReader(statement: statement.sqliteStatement)
        try statement.forEachRow {
            guard let pk = columns.integer(plan.primaryKeyPosition), let record = wanted[pk] else { return }
            // A table holds an entity and its sub-entities: rows of another entity take its reads.
            let entity = record.entity
            if plan.reads.description !== entity {
                guard let other = queries.plan(table: table, columnNames: columnNames, entity: entity,
                                               mapping: mapping) else { return }
                plan = other
            }
            if let snapshot = snapshot(of: record, from: columns, reads: plan.reads) { found.append(snapshot) }
        }
    }

    /// The snapshot of `id` from the current row of a statement over its
    /// table with every column (found through `layout`, the statement's); nil
    /// when the row's Z_ENT is not the entity the ID names (or not a number).
    func snapshot(of id: NSManagedObjectID, from row: SQLiteColumnReader, layout: SQLiteRowLayout) -> StoreSnapshot? {
        layout.reads(of: id.entity, in: store.mapping).flatMap { snapshot(of: id, from: row, reads: $0) }
    }

    /// The snapshot of `id`, whose entity `reads` were made for, from the current row.
    func snapshot(of id: NSManagedObjectID, from row: SQLiteColumnReader, reads: SQLiteRowLayout.Reads)
        -> StoreSnapshot? {
        snapshot(of: .id(id), from: row, reads: reads)
    }

    /// The snapshot of `record`, whose entity `reads` were made for, from the current row.
    func snapshot(of record: RecordIdentity, from row: SQLiteColumnReader, reads: SQLiteRowLayout.Reads)
        -> StoreSnapshot? {
        guard let entityPosition = reads.entityPosition,
              row.integer(entityPosition) == Int64(reads.entity.number) else { return nil }
        let sources = reads.sources, layout = reads.slotLayout
        precondition(sources.count == layout.count, "A table's reads must fill the entity's slots")
        let version = reads.versionPosition.flatMap { row.integer($0) } ?? 0
        // Stamped as the record's row now, before anything else can reach it (see `SlotBuffer`).
        let buffer = SlotBuffer.make(layout: layout, record: record, version: version) { slots in
            for (slot, source) in sources.enumerated() {
                switch source {
                case .none: (slots + slot).initialize(to: .none)
                case .attribute(let position, let kind, let index):
                    // The attribute read in the call: bound to a name first, it is retained and released per slot.
                    (slots + slot).initialize(to: row.slotValue(
                        position, kind: kind, for: reads.attributes[index].attribute, external: external))
                case .toMany: (slots + slot).initialize(to: .unread)
                case .toOne(let index): (slots + slot).initialize(to: destination(reads.toOnes[index], from: row))
                }
            }
        }
        return StoreSnapshot(identity: record, version: version, layout: layout, values: SlotValues(buffer))
    }

    /// The slot value of the to-one relationship `toOne` in the current row:
    /// its destination's record, by family and key, or none without a key.
    private func destination(_ toOne: SQLiteRowLayout.Reads.ToOne, from row: SQLiteColumnReader) -> SlotValue {
        guard let key = row.integer(toOne.keyPosition) else { return .none }
        // A damaged entity column may name no entity, or one outside the
        // relationship's destinations: the declared destination stands.
        let named = toOne.entityPosition.flatMap { row.integer($0) }.flatMap { Int(exactly: $0) }
            .flatMap(store.mapping.entity(number:))
        let destination = named.flatMap { named in
            toOne.destination.map(named.isKindOf(entity:)) == false ? nil : named
        } ?? toOne.destination
        guard let destination else { return .none }
        return .record(.record(destinationFamilies.family(of: destination, in: store), primaryKey: key))
    }

    /// The destinations of `relationship` of the records whose primary keys
    /// are `keys`, by owner key; owners without destinations are left out.
    func destinations(of keys: [Int64], via relationship: NSRelationshipDescription) throws -> [Int64: [NSManagedObjectID]] {
        try destinations(of: keys, via: relationship, reading: .keys).destinations
    }

    /// What a to-many read reads of each destination besides its key and entity.
    enum DestinationColumns {
        case keys
        /// The row's version (`Z_OPT`): what deleting a destination without its record needs.
        case versions
        /// The destination's whole record, from the same rows: what propagating a delete needs when the
        /// destinations' own rules go on to read their values.
        case records
    }

    /// `destinations(of:via:)`, and the destinations' records or versions as `reading` asks.
    func destinations(of keys: [Int64], via relationship: NSRelationshipDescription, reading: DestinationColumns)
        throws -> DestinationRead {
        guard let owner = relationship.entity.flatMap(store.mapping.entity),
              let storage = owner.relationships.first(where: { $0.relationship === relationship })?.storage,
              let destinationEntity = relationship.destinationEntity.flatMap(store.mapping.entity)
        else { return DestinationRead() }
        let destinationTable = destinationEntity.table
        let families = SQLiteIDFamilies(store: store, numbers: destinationEntity.numbers)
        var read = DestinationRead()
        for chunk in SQLiteKeyList.chunks(of: keys) {
            guard let sql = Self.destinationQuery(storage, destinationTable: destinationTable,
                                                  owners: chunk.placeholders, reading: reading)
            else { return DestinationRead() }
            store.toManyQueryCount += 1
            let statement = try chunk.steppedStatement(sql, in: db)
            let layout = reading == .records ? SQLiteRowLayout(columnNames: statement.columnNames) : nil
            let columns = SQLiteColumnReader(statement: statement.sqliteStatement)
            try statement.forEachRow {
                // A row whose Z_ENT is outside the destination's entities (a damaged file) is no destination.
                guard let source = columns.integer(0), let key = columns.integer(1),
                      let number = columns.integer(2).flatMap({ Int(exactly: $0) }),
                      let destination = families.objectID(entityNumber: number, primaryKey: key) else { return }
                if let layout, let record = snapshot(of: destination, from: columns, layout: layout) {
                    read.records.append(record)
                }
                // A version that is no integer (a damaged file) checks nothing: the delete goes by key alone.
                read.append(destination, of: source, version: reading == .versions ? columns.integer(3) ?? 0 : nil)
            }
        }
        read.fileOwner()
        return read
    }

    /// What a to-many read found: the destinations by owner key, their versions when read (by owner, in the
    /// order of its destinations), their records when read. The rows come by owner (the query's order), so
    /// an owner's destinations are gathered in one list and filed once, not looked up by owner for every row.
    struct DestinationRead {
        private(set) var destinations: [Int64: [NSManagedObjectID]] = [:], versions: [Int64: [Int64]] = [:]
        var records: [StoreSnapshot] = []
        private var owner: Int64 = 0, ownerDestinations: [NSManagedObjectID] = [], ownerVersions: [Int64] = []

        mutating func append(_ destination: NSManagedObjectID, of owner: Int64, version: Int64?) {
            if owner != self.owner {
                fileOwner()
                self.owner = owner
            }
            ownerDestinations.append(destination)
            if let version { ownerVersions.append(version) }
        }

        /// Files the current owner's destinations (and versions) under its key.
        mutating func fileOwner() {
            guard !ownerDestinations.isEmpty else { return }
            Self.file(&ownerDestinations, of: owner, in: &destinations)
            guard !ownerVersions.isEmpty else { return }
            Self.file(&ownerVersions, of: owner, in: &versions)
        }

        /// Moves `list` under `owner` in `lists`, leaving it empty. An owner seen first (the usual case: the
        /// rows come by owner) takes the list itself: appending its elements to a new list and emptying
        /// this one retained and released each destination ID (cascade-delete: ~65 instructions a destination).
        private static func file<Element>(_ list: inout [Element], of owner: Int64,
                                          in lists: inout [Int64: [Element]]) {
            if let filed = lists.index(forKey: owner) {
                lists.values[filed].append(contentsOf: list)
                list.removeAll(keepingCapacity: true)
            } else {
                let count = list.count
                lists[owner] = list
                list = []
                list.reserveCapacity(count)
            }
        }
    }

    /// The query for the destinations of the records whose keys go in
    /// `owners` (the placeholders of `IN (…)`) through a to-many stored as
    /// `storage`: owner key, destination key and entity, by owner then in the
    /// relationship's order, followed by the destination's `Z_OPT` or every
    /// column of its row as `reading` asks. Ordered by the owner's column first, as its
    /// index is (with Z_PK, or the join table's key), so that SQLite sorts
    /// nothing unless the relationship is ordered. Nil for a to-one.
    static func destinationQuery(_ storage: SQLiteMapping.Storage, destinationTable: String, owners keys: String,
                                 reading: DestinationColumns = .keys) -> String? {
        let rest = columns(reading, of: "")
        switch storage {
        case .foreignKey:
            return nil
        case .inverseForeignKey(let key):
            return "SELECT \(key.column), Z_PK, Z_ENT\(rest) FROM \(key.table) WHERE \(key.column) IN (\(keys))"
                + " ORDER BY \(key.column), \(key.orderColumn.map { "\($0), " } ?? "")Z_PK"
        case .hiddenForeignKey(let table, let column):
            return "SELECT \(column), Z_PK, Z_ENT\(rest) FROM \(table) WHERE \(column) IN (\(keys))"
                + " ORDER BY \(column), Z_PK"
        case .joinTable(let join):
            return "SELECT j.\(join.source), d.Z_PK, d.Z_ENT\(columns(reading, of: "d.")) FROM \(join.table) j"
                + " JOIN \(destinationTable) d ON d.Z_PK = j.\(join.destination) WHERE j.\(join.source) IN (\(keys))"
                + " ORDER BY j.\(join.source), \(join.order.map { "j.\($0), " } ?? "")j.\(join.destination)"
        }
    }

    /// The columns `reading` adds after the key and entity, of the table `prefix` names (`d.` or none).
    private static func columns(_ reading: DestinationColumns, of prefix: String) -> String {
        switch reading {
        case .keys: ""
        case .versions: ", \(prefix)Z_OPT"
        case .records: ", \(prefix)*"
        }
    }
}
