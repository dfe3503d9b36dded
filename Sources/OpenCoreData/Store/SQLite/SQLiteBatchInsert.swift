import GRDB

/// Runs a batch insert inside the store's write transaction: one prepared
/// `INSERT` of every attribute column, rebound per record (`Z_OPT` 1, keys
/// from the hierarchy's `Z_PRIMARYKEY.Z_MAX`, which is raised once at the
/// end). On a table with uniqueness constraints the statement carries
/// `ON CONFLICT (…) DO UPDATE` (attributes replaced, `Z_OPT` raised,
/// relationships kept) or `DO NOTHING`, by the request's conflict rule.
///
/// Each record costs its values' conversions (as a save converts them) and
/// one statement execution; no object or snapshot is made.
struct SQLiteBatchInsert {
    let mapping: SQLiteMapping
    let db: Database
    let files: SQLiteExternalData.Save

    /// Inserts the records of `insert` as rows of `entity`, whose hierarchy's
    /// keys are counted on the `Z_PRIMARYKEY` row `root`; returns how many
    /// rows were inserted or updated and, when asked for, their `Z_PK`s.
    func run(_ entity: SQLiteMapping.Entity, root: Int, _ insert: StoreBatchInsert) throws -> (count: Int, keys: [Int64]) {
        let attributes = entity.attributes
        let positions = Dictionary(attributes.enumerated().map { ($1.attribute.name, $0) }, uniquingKeysWith: { a, _ in a })
        let defaults = try attributes.map { attribute, _ in
            try attribute.defaultValue.map { try columnValue($0, for: attribute, record: nil) } ?? .null
        }
        let targets = conflictTargets(entity.table)
        let returnsKeys = insert.wantsIDs && !targets.isEmpty && insert.conflicts != .fail
        let statement = try db.makeStatement(sql: sql(entity, targets: targets, conflicts: insert.conflicts, returnsKeys: returnsKeys))
        let first = try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [root]) ?? 0
        var last = first, count = 0, keys: [Int64] = []
        var index = 0
        while let record = try insert.nextRecord() {
            var values = defaults
            for (key, value) in record {
                guard let position = positions[key] else { throw Self.unknownKey(key, of: entity.description, record: index) }
                values[position] = try columnValue(value, for: attributes[position].attribute, record: index)
            }
            last += 1
            statement.setUncheckedArguments(StatementArguments())
            try bind(last.databaseValue, at: 1, statement)
            for (position, value) in values.enumerated() { try bind(value, at: CInt(position + 2), statement) }
            do {
                if returnsKeys {
                    if let pk = try Int64.fetchOne(statement) { keys.append(pk); count += 1 }
                } else {
                    try statement.execute()
                    let changed = db.changesCount > 0
                    if changed { count += 1 }
                    if changed, insert.wantsIDs { keys.append(last) }
                }
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                throw NSError.coreData(NSManagedObjectConstraintMergeError,
                                       "Batch insert record \(index) of \(entity.description.name ?? "") breaks a uniqueness "
                                       + "constraint (\(error.message ?? "")); the executing context's merge policy is "
                                       + "NSErrorMergePolicy, so nothing was inserted.",
                                       userInfo: [NSUnderlyingErrorKey: error as NSError])
            }
            index += 1
        }
        if last > first {
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", arguments: [last, root])
        }
        return (count, keys)
    }

    /// `INSERT INTO <table> (Z_PK, Z_ENT, Z_OPT, <attribute columns>) VALUES (?, <entity>, 1, ?…)`
    /// with the conflict clauses and `RETURNING Z_PK` as asked.
    private func sql(_ entity: SQLiteMapping.Entity, targets: [[String]], conflicts: StoreBatchInsert.Conflicts,
                     returnsKeys: Bool) -> String {
        let columns = entity.attributes.map(\.column)
        var sql = "INSERT INTO \(entity.table) (Z_PK, Z_ENT, Z_OPT\(columns.map { ", " + $0 }.joined())) VALUES (?, "
            + "\(entity.number), 1\(String(repeating: ", ?", count: columns.count)))"
        switch conflicts {
        case .fail: break
        case .keep: if !targets.isEmpty { sql += " ON CONFLICT DO NOTHING" }
        case .update:
            let assignments = (columns.map { "\($0) = excluded.\($0)" } + ["Z_OPT = Z_OPT + 1"]).joined(separator: ", ")
            for target in targets { sql += " ON CONFLICT (\(target.joined(separator: ", "))) DO UPDATE SET \(assignments)" }
        }
        return returnsKeys ? sql + " RETURNING Z_PK" : sql
    }

    /// The column lists of the uniqueness constraints of every entity stored
    /// in `table`: each is a unique index of the table (``SQLiteIndexLayout``).
    private func conflictTargets(_ table: String) -> [[String]] {
        var targets: [[String]] = []
        for stored in mapping.schema.entities where stored.table == table {
            guard let description = mapping.entity(number: stored.number), let entity = mapping.entity(description) else { continue }
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
    private func columnValue(_ value: Any, for attribute: NSAttributeDescription, record: Int?) throws -> DatabaseValue {
        guard let value = ValueCoercion.unwrapped(value), !(value is NSNull) else { return .null }
        let entity = attribute.entity?.name ?? ""
        let place = record.map { "Batch insert record \($0)" } ?? "The default value of \(entity).\(attribute.name)"
        guard let converted = ValueCoercion.converted(value, for: attribute) else {
            throw NSError.coreData(NSManagedObjectValidationError,
                                   "\(place): \(entity).\(attribute.name) can't be \(value) (\(type(of: value))).",
                                   userInfo: [NSValidationKeyErrorKey: attribute.name, NSValidationValueErrorKey: value])
        }
        do {
            return try SQLiteValueCoding.databaseValue(converted, for: attribute) { data in
                try files.columnValue(data, for: attribute, previous: .null)
            }
        } catch let error as NSError {
            throw NSError.coreData(error.code, "\(place): \(error.localizedDescription)",
                                   userInfo: [NSValidationKeyErrorKey: attribute.name, NSValidationValueErrorKey: value])
        }
    }

    private static func unknownKey(_ key: String, of entity: NSEntityDescription, record: Int) -> NSError {
        let property = entity.propertiesByName[key]
        let what = property == nil ? "has no attribute named '\(key)'"
            : "\(key) is a \(property is NSRelationshipDescription ? "relationship" : "property not stored"); "
                + "a batch insert sets stored attributes only"
        return NSError.coreData(NSPersistentStoreOperationError, "Batch insert record \(record): entity \(entity.name ?? "") \(what).",
                                userInfo: [NSValidationKeyErrorKey: key])
    }

    private func bind(_ value: DatabaseValue, at index: CInt, _ statement: Statement) throws {
        let code = value.bind(to: statement.sqliteStatement, at: index)
        guard code == ResultCode.SQLITE_OK.rawValue else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: statement.sql)
        }
    }
}
