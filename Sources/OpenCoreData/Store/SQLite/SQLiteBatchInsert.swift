import GRDB
import GRDBSQLite

/// Runs a batch insert inside the store's write transaction, keys from the
/// hierarchy's `Z_PRIMARYKEY.Z_MAX` (raised once at the end), `Z_OPT` 1.
///
/// A table without uniqueness constraints takes the records by prepared
/// multi-row `INSERT`s of up to ``rowsPerStatement`` records, which halves
/// SQLite's and GRDB's cost per statement. On a table with uniqueness
/// constraints each record is one `INSERT`, carrying `ON CONFLICT (…) DO
/// UPDATE` (attributes replaced, `Z_OPT` raised, relationships kept) or `DO
/// NOTHING` by the request's conflict rule, so that a failure names its record.
///
/// Each record costs its values' conversions (as a save converts them) and
/// a share of a statement execution; no object or snapshot is made.
struct SQLiteBatchInsert {
    /// The most records one multi-row INSERT takes; SQLite's older bound of
    /// 999 parameters per statement lowers it for wide entities.
    static let rowsPerStatement = 64

    let mapping: SQLiteMapping
    let db: Database
    let files: SQLiteExternalData.Save

    /// Inserts the records of `insert` as rows of `entity`, whose hierarchy's
    /// keys are counted on the `Z_PRIMARYKEY` row `root`; returns how many
    /// rows were inserted or updated and, when asked for, their `Z_PK`s.
    func run(_ entity: SQLiteMapping.Entity, root: Int, _ insert: StoreBatchInsert) throws
        -> (count: Int, keys: [Int64]) {
        var records = try Records(insert: insert, entity: entity, converting: columnValue)
        let targets = conflictTargets(entity.table)
        let first = try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?",
                                       arguments: [root]) ?? 0
        var last = first
        let inserted = targets.isEmpty
            ? try insertInChunks(entity, &records, wantsKeys: insert.wantsIDs, last: &last)
            : try insertOneByOne(entity, &records, targets: targets, insert: insert, last: &last)
        if last > first {
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", arguments: [last, root])
        }
        return inserted
    }

    /// The records as column values, one record at a time, with the
    /// attribute defaults for what a record leaves out.
    private struct Records {
        let insert: StoreBatchInsert
        let entity: SQLiteMapping.Entity
        let converting: (Any, NSAttributeDescription, Int?) throws -> DatabaseValue
        let positions: [String: Int]
        let defaults: [DatabaseValue]
        /// One buffer reset from the defaults per record: no array is made per record.
        var values: [DatabaseValue]
        /// Records of a batch list their keys in the same order, mostly: the
        /// n-th key is compared with the previous record's n-th before hashing.
        var order: [(key: String, position: Int)] = []
        /// The index of the next record.
        var index = 0

        init(insert: StoreBatchInsert, entity: SQLiteMapping.Entity,
             converting: @escaping (Any, NSAttributeDescription, Int?) throws -> DatabaseValue) throws {
            self.insert = insert
            self.entity = entity
            self.converting = converting
            positions = Dictionary(entity.attributes.enumerated().map { ($1.attribute.name, $0) },
                                   uniquingKeysWith: { a, _ in a })
            defaults = try entity.attributes.map { attribute, _ in
                try attribute.defaultValue.map { try converting($0, attribute, nil) } ?? .null
            }
            values = defaults
        }

        /// Appends the next record's column values (attribute order) to
        /// `buffer`; false when there is none.
        mutating func read(into buffer: inout [DatabaseValue]) throws -> Bool {
            var field = 0
            let index = index
            let more = try insert.nextRecord { key, value in
                let position: Int
                if field < order.count, order[field].key == key {
                    position = order[field].position
                } else {
                    guard let found = positions[key] else {
                        throw SQLiteBatchInsert.unknownKey(key, of: entity.description, record: index)
                    }
                    position = found
                    if field < order.count { order[field] = (key, found) } else { order.append((key, found)) }
                }
                field += 1
                values[position] = try converting(value, entity.attributes[position].attribute, index)
            }
            guard more else { return false }
            buffer.append(contentsOf: values)
            // A record that set every column leaves nothing of the defaults to restore.
            if field < values.count { for position in values.indices { values[position] = defaults[position] } }
            self.index += 1
            return true
        }
    }

    /// Multi-row INSERTs of `rows` records each, the last one shorter.
    private func insertInChunks(_ entity: SQLiteMapping.Entity, _ records: inout Records, wantsKeys: Bool,
                                last: inout Int64) throws -> (count: Int, keys: [Int64]) {
        let width = entity.attributes.count + 1
        let rows = max(1, min(Self.rowsPerStatement, 999 / width))
        let statement = try db.makeStatement(sql: sql(entity, rows: rows, targets: [], conflicts: .fail,
                                                      returnsKeys: false))
        var buffer: [DatabaseValue] = []
        buffer.reserveCapacity(rows * width)
        var count = 0, keys: [Int64] = []
        func flush(_ statement: Statement) throws {
            // Every parameter is rebound: a reset is all the statement needs.
            sqlite3_reset(statement.sqliteStatement)
            for (index, value) in buffer.enumerated() { try bind(value, at: CInt(index + 1), statement) }
            try statement.runInTransaction()
            count += buffer.count / width
            buffer.removeAll(keepingCapacity: true)
        }
        statement.setUncheckedArguments(StatementArguments())
        while true {
            buffer.append((last + 1).databaseValue)
            guard try records.read(into: &buffer) else {
                buffer.removeLast()
                break
            }
            last += 1
            if wantsKeys { keys.append(last) }
            if buffer.count == rows * width { try flush(statement) }
        }
        if !buffer.isEmpty {
            let tail = try db.makeStatement(sql: sql(entity, rows: buffer.count / width, targets: [], conflicts: .fail,
                                                     returnsKeys: false))
            tail.setUncheckedArguments(StatementArguments())
            try flush(tail)
        }
        return (count, keys)
    }

    /// One INSERT per record, with the conflict clauses of `targets`.
    private func insertOneByOne(_ entity: SQLiteMapping.Entity, _ records: inout Records, targets: [[String]],
                                insert: StoreBatchInsert, last: inout Int64) throws -> (count: Int, keys: [Int64]) {
        let returnsKeys = insert.wantsIDs && insert.conflicts != .fail
        let statement = try db.makeStatement(sql: sql(entity, rows: 1, targets: targets, conflicts: insert.conflicts,
                                                      returnsKeys: returnsKeys))
        // Marks the parameters as bound for GRDB, which then only resets the statement per execution.
        statement.setUncheckedArguments(StatementArguments())
        var buffer: [DatabaseValue] = [], count = 0, keys: [Int64] = []
        while true {
            buffer.removeAll(keepingCapacity: true)
            buffer.append((last + 1).databaseValue)
            let index = records.index
            guard try records.read(into: &buffer) else { break }
            last += 1
            sqlite3_reset(statement.sqliteStatement)
            for (position, value) in buffer.enumerated() { try bind(value, at: CInt(position + 1), statement) }
            do {
                if returnsKeys {
                    if let pk = try Int64.fetchOne(statement) { keys.append(pk); count += 1 }
                } else {
                    try statement.runInTransaction()
                    let changed = db.changesCount > 0
                    if changed { count += 1 }
                    if changed, insert.wantsIDs { keys.append(last) }
                }
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                throw NSError.coreData(NSManagedObjectConstraintMergeError,
                                       "Batch insert record \(index) of \(entity.description.name ?? "") breaks a "
                                       + "uniqueness constraint (\(error.message ?? "")); the executing "
                                       + "context's merge policy is NSErrorMergePolicy, so nothing was inserted.",
                                       userInfo: [NSUnderlyingErrorKey: error as NSError])
            }
        }
        return (count, keys)
    }

    /// `INSERT INTO <table> (Z_PK, Z_ENT, Z_OPT, <attribute columns>) VALUES (?, <entity>, 1, ?…)`
    /// for `rows` records, with the conflict clauses and `RETURNING Z_PK` as asked.
    private func sql(_ entity: SQLiteMapping.Entity, rows: Int, targets: [[String]],
                     conflicts: StoreBatchInsert.Conflicts, returnsKeys: Bool) -> String {
        let columns = entity.attributes.map(\.column)
        let row = "(?, \(entity.number), 1\(String(repeating: ", ?", count: columns.count)))"
        var sql = "INSERT INTO \(entity.table) (Z_PK, Z_ENT, Z_OPT\(columns.map { ", " + $0 }.joined())) VALUES "
            + Array(repeating: row, count: rows).joined(separator: ", ")
        switch conflicts {
        case .fail: break
        case .keep: if !targets.isEmpty { sql += " ON CONFLICT DO NOTHING" }
        case .update:
            let assignments = (columns.map { "\($0) = excluded.\($0)" } + ["Z_OPT = Z_OPT + 1"]).joined(separator: ", ")
            for target in targets {
                sql += " ON CONFLICT (\(target.joined(separator: ", "))) DO UPDATE SET \(assignments)"
            }
        }
        return returnsKeys ? sql + " RETURNING Z_PK" : sql
    }

    /// The column lists of the uniqueness constraints of every entity stored
    /// in `table`: each is a unique index of the table (``SQLiteIndexLayout``).
    private func conflictTargets(_ table: String) -> [[String]] {
        var targets: [[String]] = []
        for stored in mapping.schema.entities where stored.table == table {
            guard let description = mapping.entity(number: stored.number),
                  let entity = mapping.entity(description) else { continue }
            for names in description.uniquenessConstraintNames {
                let columns = names.compactMap { entity.columns[$0] }
                if columns.count == names.count, !targets.contains(columns) { targets.append(columns) }
            }
        }
        return targets
    }

    /// The column value of `value` for `attribute`, converted as a save
    /// converts it; throws NSManagedObjectValidationError (1550) naming the
    /// record, key and value when it is no value of the attribute's type.
    private func columnValue(_ value: Any, for attribute: NSAttributeDescription, record: Int?) throws
        -> DatabaseValue {
        if let plain = Self.plainColumnValue(value, for: attribute.attributeType) { return plain }
        guard let value = ValueCoercion.unwrapped(value), Swift.type(of: value) != NSNull.self,
              !(value is NSNull) else {
            return .null
        }
        let entity = attribute.entity?.name ?? ""
        let place = record.map { "Batch insert record \($0)" } ?? "The default value of \(entity).\(attribute.name)"
        guard let converted = ValueCoercion.converted(value, for: attribute) else {
            throw NSError.coreData(NSManagedObjectValidationError,
                                   "\(place): \(entity).\(attribute.name) can't be \(value) (\(type(of: value))).",
                                   userInfo: [NSValidationKeyErrorKey: attribute.name,
                                              NSValidationValueErrorKey: value])
        }
        do {
            return try SQLiteValueCoding.databaseValue(converted, for: attribute) { data in
                try files.columnValue(data, for: attribute, previous: .null)
            }
        } catch let error as NSError {
            throw NSError.coreData(error.code, "\(place): \(error.localizedDescription)",
                                   userInfo: [NSValidationKeyErrorKey: attribute.name,
                                              NSValidationValueErrorKey: value])
        }
    }

    /// The column value of the common pairs of value and attribute type, by
    /// type identity (casts to protocols were most of a record's cost); nil
    /// for anything else, which takes the general conversion.
    private static func plainColumnValue(_ value: Any, for type: NSAttributeType) -> DatabaseValue? {
        // Opening the existential compares metadata instead of casting: a third of a cast's cost.
        func open<T>(_ value: T) -> DatabaseValue? {
            switch type {
            case .stringAttributeType where T.self == String.self:
                return unsafeBitCast(value, to: String.self).databaseValue
            case .integer64AttributeType, .integer32AttributeType, .integer16AttributeType:
                let integer: Int64
                if T.self == Int.self {
                    integer = Int64(unsafeBitCast(value, to: Int.self))
                } else if T.self == Int64.self {
                    integer = unsafeBitCast(value, to: Int64.self)
                } else {
                    return nil
                }
                let fits = switch type {
                case .integer16AttributeType: Int16(exactly: integer) != nil
                case .integer32AttributeType: Int32(exactly: integer) != nil
                default: true
                }
                return fits ? integer.databaseValue : nil
            case .doubleAttributeType where T.self == Double.self:
                return unsafeBitCast(value, to: Double.self).databaseValue
            case .dateAttributeType where T.self == Date.self:
                return unsafeBitCast(value, to: Date.self).timeIntervalSinceReferenceDate.databaseValue
            case .booleanAttributeType where T.self == Bool.self:
                return (unsafeBitCast(value, to: Bool.self) ? 1 : 0).databaseValue
            default:
                return nil
            }
        }
        return _openExistential(value, do: open)
    }

    fileprivate static func unknownKey(_ key: String, of entity: NSEntityDescription, record: Int) -> NSError {
        let property = entity.propertiesByName[key]
        let what = property == nil ? "has no attribute named '\(key)'"
            : "\(key) is a \(property is NSRelationshipDescription ? "relationship" : "property not stored"); "
                + "a batch insert sets stored attributes only"
        return NSError.coreData(NSPersistentStoreOperationError,
                                "Batch insert record \(record): entity \(entity.name ?? "") \(what).",
                                userInfo: [NSValidationKeyErrorKey: key])
    }

    private func bind(_ value: DatabaseValue, at index: CInt, _ statement: Statement) throws {
        try statement.checkBinding(value.bind(to: statement.sqliteStatement, at: index))
    }
}
