import GRDB
import GRDBSQLite

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
/// Each entity's INSERT and UPDATE are prepared once per save and only
/// rebound per record. An updated record costs one statement execution plus
/// one per to-many destination, and one more to read the columns it replaces
/// when it has externally stored attributes; inserted records go 16 to an
/// execution (`SQLiteRecordWriter+Inserts`), deleted ones by set: a statement
/// per entity and 500 records.
struct SQLiteRecordWriter {
    /// Core Data spaces order keys by 1024 so that inserting between two
    /// items can leave the others alone; only the relative order matters.
    static let orderStep: Int64 = 1024

    let mapping: SQLiteMapping
    let db: Database
    let files: SQLiteExternalData.Save

    /// Writes `changes`; returns the updated and deleted records whose
    /// `Z_OPT` was no longer the version the context read (Core Data's
    /// optimistic locking: `… WHERE Z_PK = ? AND Z_OPT = ?` matched no row),
    /// after which the caller must roll the transaction back.
    func apply(_ changes: StoreChangeSet) throws -> [NSManagedObjectID] {
        var stale = try delete(changes.deleted, versions: changes.versionsOfEveryDeleted())
        var statements = RowStatements()
        // Updates before inserts: a record may give up a unique value that a new record takes.
        var updatedRows: [RowStatement] = [], insertedRows: [RowStatement] = []
        updatedRows.reserveCapacity(changes.updated.count)
        insertedRows.reserveCapacity(changes.inserted.count)
        let updated = changes.updated, inserted = changes.inserted
        try updated.withUnsafeBufferPointer { records in
            for record in records.indices {
                let row = try rowStatement(for: records.baseAddress! + record, inserting: false, &statements)
                updatedRows.append(row)
                if try !write(records.baseAddress! + record, with: row) { stale.append(records[record].objectID) }
            }
        }
        try inserted.withUnsafeBufferPointer { records in
            for record in records.indices {
                insertedRows.append(try rowStatement(for: records.baseAddress! + record, inserting: true, &statements))
            }
            try insert(records, with: insertedRows)
        }
        stale += try changedElsewhere(changes.lockedVersions)
        guard stale.isEmpty else { return stale }
        for (index, row) in insertedRows.enumerated() where row.hasRelationshipsOutsideRow {
            try writeToMany(inserted[index], of: row.entity, inserted: true)
        }
        for (index, row) in updatedRows.enumerated() where row.hasRelationshipsOutsideRow {
            try writeToMany(updated[index], of: row.entity, inserted: false)
        }
        return []
    }

    /// The records of `locked` (not written by the save) that are gone or
    /// no longer at the version given.
    private func changedElsewhere(_ locked: [(id: NSManagedObjectID, version: Int64)]) throws -> [NSManagedObjectID] {
        try locked.filter { id, version in
            let table = try entity(of: id).table
            let current = try Int64.fetchOne(db.cachedStatement(sql: "SELECT Z_OPT FROM \(table) WHERE Z_PK = ?"),
                                             arguments: [id.primaryKey!])
            return current != version
        }.map(\.id)
    }

    /// The version condition of an UPDATE or DELETE: binding NULL (a version
    /// the context does not know) matches any row.
    private static let versionCondition = "Z_OPT IS coalesce(?, Z_OPT)"

    func entity(of id: NSManagedObjectID) throws -> SQLiteMapping.Entity {
        guard let entity = mapping.entity(id.entity), id.primaryKey != nil else { throw unsavable(id) }
        return entity
    }

    func unsavable(_ id: NSManagedObjectID) -> NSError {
        NSError.coreData(NSPersistentStoreSaveError, "The SQLite store cannot save \(id): its entity has no table here.")
    }

    /// The stored values of the row `pk`'s columns whose attributes allow
    /// external storage, by column; no query when the entity has none.
    func externalColumns(of entity: SQLiteMapping.Entity, pk: Int64) throws -> [String: DatabaseValue] {
        let columns = entity.attributes.filter { $0.attribute.allowsExternalBinaryDataStorage }.map(\.column)
        guard !columns.isEmpty else { return [:] }
        let sql = "SELECT \(columns.joined(separator: ", ")) FROM \(entity.table) WHERE Z_PK = ?"
        guard let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [pk]) else { return [:] }
        return Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, row[$0] as DatabaseValue) })
    }

    /// The prepared statement that writes the row of one entity: an INSERT
    /// binding `Z_PK`, `Z_ENT`, then every column; an UPDATE binding the
    /// columns of the changed slots, then `Z_PK`. The columns are the
    /// entity's attributes, then each foreign key (followed by its
    /// destination's `Z_ENT` when it has one), in that order.
    /// A class: handing a struct out of the cache per row copied (retained)
    /// every table of the entity's mapping.
    final class RowStatement {
        let entity: SQLiteMapping.Entity
        let inserting: Bool
        /// The columns an UPDATE writes (nil for an INSERT: all of them).
        let columns: SlotSet?
        let statement: Statement
        /// The attributes written, as positions in `entity.attributes`, with
        /// their slots and how each one's value is bound.
        let attributes: [(position: Int, slot: Int, binding: SQLiteSlotBinding)]
        /// The relationships kept as a foreign key that are written, in column order.
        let foreignKeys: [(slot: Int, hasEntityColumn: Bool)]
        /// Whether a written attribute may keep its value in a file beside the store.
        let hasExternalStorage: Bool
        /// Whether some relationship of the entity keeps data outside the
        /// entity's row (`writeToMany(_:of:inserted:)` has work to do).
        let hasRelationshipsOutsideRow: Bool

        /// The statement writing the columns of the slots in `columns` (all of them for nil).
        init(entity: SQLiteMapping.Entity, inserting: Bool, columns: SlotSet?, db: Database) throws {
            self.entity = entity
            self.inserting = inserting
            self.columns = columns
            attributes = entity.attributeSlots.indices.filter { columns?.contains(entity.attributeSlots[$0]) ?? true }
                .map { ($0, entity.attributeSlots[$0], SQLiteSlotBinding(entity.attributes[$0].attribute)) }
            var names = attributes.map { entity.attributes[$0.position].column }
            var foreignKeys: [(slot: Int, hasEntityColumn: Bool)] = []
            for ((_, storage), slot) in zip(entity.relationships, entity.relationshipSlots) {
                guard case .foreignKey(let key) = storage, columns?.contains(slot) ?? true else { continue }
                names.append(key.column)
                if let entityColumn = key.entityColumn { names.append(entityColumn) }
                foreignKeys.append((slot, key.entityColumn != nil))
            }
            self.foreignKeys = foreignKeys
            hasExternalStorage = attributes.contains {
                entity.attributes[$0.position].attribute.allowsExternalBinaryDataStorage
            }
            hasRelationshipsOutsideRow = entity.relationships.contains { _, storage in
                switch storage {
                case .foreignKey: false
                case .inverseForeignKey(let key): key.orderColumn != nil
                case .joinTable, .hiddenForeignKey: true
                }
            }
            // An INSERT's one row of values, which a batch repeats: `(?, ?, 1, ?), (?, ?, 1, ?)`.
            rowValues = "(?, ?, 1" + String(repeating: ", ?", count: names.count) + ")"
            let sql = inserting
                ? "INSERT INTO \(entity.table) (Z_PK, Z_ENT, Z_OPT\(names.map { ", " + $0 }.joined())) VALUES "
                    + rowValues
                : "UPDATE \(entity.table) SET Z_OPT = Z_OPT + 1\(names.map { ", \($0) = ?" }.joined())"
                    + " WHERE Z_PK = ? AND \(SQLiteRecordWriter.versionCondition)"
            statement = try db.cachedStatement(sql: sql)
            // Marks the parameters as bound for GRDB, which then only resets
            // the statement per execution; `write` binds every parameter of each row.
            statement.setUncheckedArguments(StatementArguments())
            parameterCount = sqlite3_bind_parameter_count(statement.sqliteStatement)
            let limit = Int(sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_VARIABLE_NUMBER, -1))
            batchRows = inserting ? max(1, min(SQLiteRecordWriter.insertBatchRows, limit / Int(parameterCount))) : 1
        }

        /// The parameters one row binds.
        let parameterCount: CInt
        /// The rows one execution of ``batchStatement(in:)`` inserts (1: no batches, as for an UPDATE).
        let batchRows: Int
        private let rowValues: String
        private var batch: Statement?

        /// The INSERT of `batchRows` rows at once, prepared on first use.
        func batchStatement(in db: Database) throws -> Statement {
            if let batch { return batch }
            let sql = statement.sql + String(repeating: ", " + rowValues, count: batchRows - 1)
            let statement = try db.cachedStatement(sql: sql)
            statement.setUncheckedArguments(StatementArguments())
            batch = statement
            return statement
        }
    }

    /// One save's row statements, and the last one used: consecutive records
    /// are mostly of one entity (and for updates one set of columns), which
    /// then costs no mapping lookup and no hashing.
    ///
    /// By entity, then in a list searched for the insert or the set of
    /// updated columns: a dictionary keyed by both made a key type of its own,
    /// whose `Hashable` conformance a process's first save looked up, a scan
    /// of every conformance record loaded (~300,000 instructions).
    private struct RowStatements {
        var byEntity: [ObjectIdentifier: [RowStatement]] = [:]
        var last: RowStatement?
    }

    /// The row statement of `record` from `statements`, prepared and added
    /// on the first record of its entity (and, for updates, of its set of
    /// changed columns).
    ///
    /// `record` is read where it lies: passed by value, each record was copied (~250 instructions).
    @inline(__always)
    private func rowStatement(for record: UnsafePointer<StoreSnapshot>, inserting: Bool,
                              _ statements: inout RowStatements) throws -> RowStatement {
        if let last = statements.last, last.inserting == inserting,
           last.entity.description === record.pointee.identity.entity,
           inserting || last.columns == record.pointee.changedSlots?.intersection(last.entity.columnSlots) {
            return last
        }
        return try otherRowStatement(for: record.pointee, inserting: inserting, &statements)
    }

    /// ``rowStatement(for:inserting:_:)`` when the last one used is not it: once per
    /// entity and set of columns, and again each time records of several alternate.
    private func otherRowStatement(for snapshot: StoreSnapshot, inserting: Bool,
                                   _ statements: inout RowStatements) throws -> RowStatement {
        let entity = try entity(of: snapshot.objectID)
        let columns = inserting ? nil : snapshot.changedSlots?.intersection(entity.columnSlots)
        let key = ObjectIdentifier(entity.description)
        let row: RowStatement
        if let kept = statements.byEntity[key]?.first(where: { $0.inserting == inserting && $0.columns == columns }) {
            row = kept
        } else {
            row = try RowStatement(entity: entity, inserting: inserting, columns: columns, db: db)
            statements.byEntity[key, default: []].append(row)
        }
        statements.last = row
        return row
    }

    /// Inserts or updates the row of `record`: attributes and to-one keys.
    /// False when the row to update is gone or no longer at the record's version.
    ///
    /// The record is read where it lies, in the save's array: passed by value, each call
    /// copied it (its ID, layout, slots and changed slots: four retains and releases, ~170
    /// instructions a row).
    func write(_ record: UnsafePointer<StoreSnapshot>, with row: RowStatement) throws -> Bool {
        try bind(record, of: row, to: row.statement, after: 0)
        try row.statement.runInTransaction()
        // GRDB's `changesCount` checks the calling queue first (~500 instructions a row), and
        // `Database.sqliteConnection` costs an exclusivity check: the statement's own connection.
        return row.inserting || sqlite3_changes(sqlite3_db_handle(row.statement.sqliteStatement)) == 1
    }

    /// Binds the values of `record`'s row, as `row` writes them, to
    /// `statement`'s parameters after the first `first` (one row of a batch
    /// of inserts, or the only one).
    func bind(_ record: UnsafePointer<StoreSnapshot>, of row: RowStatement, to statement: Statement,
              after first: CInt) throws {
        guard let pk = record.pointee.identity.primaryKey else { throw unsavable(record.pointee.objectID) }
        let sqliteStatement = statement.sqliteStatement
        // Every parameter is rebound below (the count matches the statement
        // by construction), each from its slot as it is read; the statement
        // is new or was reset after its last run (`runInTransaction()`).
        var index = first
        func bind(_ integer: Int64?) throws {
            index += 1
            guard let integer else { return try statement.checkBinding(sqlite3_bind_null(sqliteStatement, index)) }
            try statement.checkBinding(sqlite3_bind_int64(sqliteStatement, index, integer))
        }
        if row.inserting {
            try bind(pk)
            try bind(Int64(row.entity.number))
        }
        // Optional rather than empty: an empty dictionary literal is a call and a release a row.
        let previous = row.inserting || !row.hasExternalStorage ? nil : try externalColumns(of: row.entity, pk: pk)
        for (position, slot, binding) in row.attributes {
            index += 1
            // Bound where the value lies: a copy of the slot retained and released a string's storage.
            if let code = record.pointee.values.withValue(at: slot, {
                binding.bindDirectly($0, to: sqliteStatement, at: index)
            }) {
                try statement.checkBinding(code)
                continue
            }
            let slotValue = record.pointee[slot]
            let (attribute, column) = row.entity.attributes[position]
            let old = previous?[column] ?? .null
            let value = try SQLiteValueCoding.databaseValue(slotValue.any, for: attribute) { data in
                try files.columnValue(data, for: attribute, previous: old)
            }
            if attribute.allowsExternalBinaryDataStorage { files.replaced(old, by: value) }
            try statement.checkBinding(value.bind(to: sqliteStatement, at: index))
        }
        for (slot, hasEntityColumn) in row.foreignKeys {
            // Read in place: a copy of the slot retained and released what it holds. A record read from the
            // store gives its key and entity without an ID made.
            let destination: RecordIdentity? = record.pointee.values.withValue(at: slot) { value in
                switch value {
                case .record(let record): record
                case .object(let object): .id(object.objectID)
                default: nil
                }
            }
            try bind(destination?.primaryKey)
            if hasEntityColumn { try bind(destination.flatMap { mapping.entity($0.entity)?.number }.map(Int64.init)) }
        }
        if !row.inserting {
            try bind(pk)
            // NULL (a version the context does not know) matches any row.
            try bind(record.pointee.version > 0 ? record.pointee.version : nil)
        }
    }
}
