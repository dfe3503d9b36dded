import GRDB

/// Runs a batch delete inside the store's write transaction with set-based
/// SQL, applying delete rules as Core Data's SQLite store does (it installs
/// SQL triggers for them): cascade deletes the destinations, nullify clears
/// the inverse keys (raising those rows' `Z_OPT`) and join-table rows, and a
/// nullify whose inverse is mandatory or a deny rule with a destination
/// left refuses the whole delete (NSPersistentStoreSaveConflictsError, 134050).
///
/// An entity whose table holds no relationships to follow and no external
/// data is deleted with one `DELETE … WHERE <predicate>`. Otherwise the
/// selected keys go into a temporary table per hierarchy table, cascades add
/// the destinations' keys round by round, and each relationship costs one
/// statement per round and one to nullify; then one `DELETE` per table.
/// Every change is a plain `DELETE` or `UPDATE` of entity and join tables.
final class SQLiteBatchDelete {
    /// The records to delete.
    enum Selection {
        /// `SELECT Z_PK, Z_ENT …` of the records.
        case keySelection(String, [DatabaseValue])
        /// The condition of `DELETE FROM <table> AS t0 WHERE …`.
        case condition(String, [DatabaseValue])
        /// Primary keys in the entity's table (rows already gone are skipped).
        case keys([Int64])
    }

    private let mapping: SQLiteMapping
    private let db: Database
    private let files: SQLiteExternalData.Save
    /// The temporary table of keys to delete, per hierarchy table.
    private var deleting: [String: String] = [:]

    init(mapping: SQLiteMapping, db: Database, files: SQLiteExternalData.Save) {
        self.mapping = mapping
        self.db = db
        self.files = files
    }

    /// Deletes the selected records of `entity`'s table (and what cascades
    /// from them); returns how many were selected and, when `wantsKeys`,
    /// their `Z_PK` and `Z_ENT`.
    func run(_ entity: SQLiteMapping.Entity, _ selection: Selection, wantsKeys: Bool) throws
        -> (count: Int, keys: [(pk: Int64, entityNumber: Int)]) {
        if case .condition(let condition, let arguments) = selection, !needsFollowUp(entity.table) {
            let from = "FROM \(entity.table) AS t0 WHERE \(condition)"
            let keys = wantsKeys ? try selectKeys("SELECT t0.Z_PK, t0.Z_ENT \(from)", arguments) : []
            try db.execute(sql: "DELETE \(from)", arguments: StatementArguments(arguments))
            return (db.changesCount, keys)
        }
        let selected = try seed(entity.table, selection)
        var round = 0
        while try cascade(round: round) { round += 1 }
        try refuseBrokenRules()
        try nullify()
        let keys = wantsKeys ? try selectKeys("SELECT Z_PK, Z_ENT FROM \(selected) WHERE ROUND = 0", []) : []
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(selected) WHERE ROUND = 0") ?? 0
        for (table, keysTable) in deleting {
            try noteExternalFiles(table, keysTable)
            try db.execute(sql: "DELETE FROM \(table) WHERE Z_PK IN (SELECT Z_PK FROM \(keysTable))")
            try db.execute(sql: "DROP TABLE \(keysTable)")
        }
        return (count, keys)
    }

    // MARK: Selection

    /// Fills the keys table of `table` with the selection as round 0; returns its name.
    private func seed(_ table: String, _ selection: Selection) throws -> String {
        let keys = try keysTable(table)
        switch selection {
        case .keySelection(let sql, let arguments):
            try db.execute(sql: "INSERT OR IGNORE INTO \(keys) SELECT Z_PK, Z_ENT, 0 FROM (\(sql))",
                           arguments: StatementArguments(arguments))
        case .condition(let condition, let arguments):
            try db.execute(sql: "INSERT OR IGNORE INTO \(keys) SELECT t0.Z_PK, t0.Z_ENT, 0 FROM \(table) AS t0 "
                           + "WHERE \(condition)", arguments: StatementArguments(arguments))
        case .keys(let primaryKeys):
            let insert = try db.makeStatement(sql: "INSERT OR IGNORE INTO \(keys) "
                                              + "SELECT Z_PK, Z_ENT, 0 FROM \(table) WHERE Z_PK = ?")
            for pk in primaryKeys { try insert.execute(arguments: [pk]) }
        }
        return keys
    }

    /// The temporary table of keys to delete from `table`, made on first use.
    private func keysTable(_ table: String) throws -> String {
        if let name = deleting[table] { return name }
        let name = "temp.ocd_delete_\(table)"
        try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS ocd_delete_\(table) "
                       + "(Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, ROUND INTEGER)")
        try db.execute(sql: "DELETE FROM \(name)")
        deleting[table] = name
        return name
    }

    private func selectKeys(_ sql: String, _ arguments: [DatabaseValue]) throws -> [(pk: Int64, entityNumber: Int)] {
        var keys: [(pk: Int64, entityNumber: Int)] = []
        let rows = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(arguments))
        while let row = try rows.next() {
            if let pk = SQLiteColumnReader.integer(in: row, at: 0),
               let number = SQLiteColumnReader.integer(in: row, at: 1).flatMap({ Int(exactly: $0) }) {
                keys.append((pk, number))
            }
        }
        return keys
    }

    // MARK: Relationships

    /// A relationship declared by an entity stored in a deleted table, with
    /// where its destinations live.
    private struct Link {
        let owner: SQLiteMapping.Entity
        let relationship: NSRelationshipDescription
        let storage: SQLiteRelationshipStorage
        let destinationTable: String
    }

    /// The relationships declared by the entities stored in `table`.
    private func links(in table: String) -> [Link] {
        mapping.schema.entities.filter { $0.table == table }.flatMap { stored -> [Link] in
            guard let description = mapping.entity(number: stored.number),
                  let owner = mapping.entity(description) else { return [] }
            return owner.relationships.compactMap { relationship, storage in
                guard relationship.entity === description, let destination = relationship.destinationEntity,
                      let destinationTable = mapping.entity(destination)?.table else { return nil }
                return Link(owner: owner, relationship: relationship, storage: storage,
                            destinationTable: destinationTable)
            }
        }
    }

    /// Whether deleting rows of `table` changes or checks anything beyond the rows themselves.
    private func needsFollowUp(_ table: String) -> Bool {
        links(in: table).contains(where: Self.requiresWork) || !externalColumns(table).isEmpty
    }

    /// Whether deleting a source row of `link` touches or checks other rows. A to-one kept in the
    /// deleted row whose inverse is an optional to-many (or that has none) needs nothing: the row
    /// and its key go together.
    private static func requiresWork(_ link: Link) -> Bool {
        let rule = link.relationship.deleteRule
        guard rule != .noActionDeleteRule else {
            // No Action leaves other rows alone, but a join-table row or hidden key is the deleted row's own data.
            switch link.storage {
            case .joinTable, .hiddenForeignKey: return true
            case .foreignKey, .inverseForeignKey: return false
            }
        }
        guard case .foreignKey = link.storage, rule == .nullifyDeleteRule else { return true }
        guard let inverse = link.relationship.inverseRelationship else { return false }
        return !inverse.isToMany || !inverse.isOptional
    }

    /// The keys of the rows of `link`'s owner among the keys to delete (of `round`, or all).
    private func sources(_ link: Link, round: Int?) -> String {
        let numbers = link.owner.numbers
        return "SELECT Z_PK FROM \(deleting[link.owner.table]!) "
            + "WHERE Z_ENT BETWEEN \(numbers.lowerBound) AND \(numbers.upperBound)"
            + (round.map { " AND ROUND = \($0)" } ?? "")
    }

    /// The keys of the destination rows of `link` for the rows `sources` selects.
    private func destinations(_ link: Link, of sources: String) -> String {
        switch link.storage {
        case .foreignKey(let key): "SELECT \(key.column) FROM \(key.table) WHERE Z_PK IN (\(sources))"
        case .inverseForeignKey(let key): "SELECT Z_PK FROM \(key.table) WHERE \(key.column) IN (\(sources))"
        case .hiddenForeignKey(let table, let column): "SELECT Z_PK FROM \(table) WHERE \(column) IN (\(sources))"
        case .joinTable(let join): "SELECT \(join.destination) FROM \(join.table) WHERE \(join.source) IN (\(sources))"
        }
    }

    /// Adds the destinations of cascading relationships of the rows of
    /// `round` as the next round; false when none was new.
    private func cascade(round: Int) throws -> Bool {
        var added = false
        for table in Array(deleting.keys) {
            for link in links(in: table) where link.relationship.deleteRule == .cascadeDeleteRule {
                let keys = try keysTable(link.destinationTable)
                try db.execute(sql: "INSERT OR IGNORE INTO \(keys) "
                               + "SELECT Z_PK, Z_ENT, \(round + 1) FROM \(link.destinationTable) "
                               + "WHERE Z_PK IN (\(destinations(link, of: sources(link, round: round))))")
                added = added || db.changesCount > 0
            }
        }
        return added
    }

    /// Throws when a deny rule has a destination that stays, or a nullify
    /// rule would leave a mandatory inverse without the deleted row.
    private func refuseBrokenRules() throws {
        for table in deleting.keys {
            for link in links(in: table) where Self.requiresWork(link) {
                let rule = link.relationship.deleteRule
                let mandatoryInverse = link.relationship.inverseRelationship.map { !$0.isOptional } ?? false
                guard rule == .denyDeleteRule || (rule == .nullifyDeleteRule && mandatoryInverse) else { continue }
                let related = destinations(link, of: sources(link, round: nil))
                var sql = "SELECT 1 FROM \(link.destinationTable) WHERE Z_PK IN (\(related))"
                if let staying = deleting[link.destinationTable] {
                    sql += " AND Z_PK NOT IN (SELECT Z_PK FROM \(staying))"
                }
                guard try Int.fetchOne(db, sql: sql + " LIMIT 1") != nil else { continue }
                let name = "\(link.owner.description.name ?? "")/\(link.relationship.name)"
                // Core Data's trigger message (wireapp/wire-ios-data-model#1287); the deny wording is ours.
                let reason = rule == .denyDeleteRule
                    ? "Batch delete failed due to deny delete rule on \(name)"
                    : "Batch delete failed due to mandatory \(Self.shape(link.relationship)) nullify inverse on \(name)"
                let message = "Constraint trigger violation: \(reason)"
                throw NSError.coreData(NSPersistentStoreSaveConflictsError, message,
                                       userInfo: [NSLocalizedFailureReasonErrorKey: message])
            }
        }
    }

    /// Core Data's names of relationship shapes in its trigger messages.
    private static func shape(_ relationship: NSRelationshipDescription) -> String {
        guard relationship.isToMany else { return "OTO" }
        return relationship.inverseRelationship?.isToMany == true ? "MTM" : "OTM"
    }

    /// Removes the deleted rows from the relationships of the rows that stay:
    /// inverse keys cleared (with their order and entity columns, the row's
    /// version raised), hidden keys cleared, join-table rows deleted.
    private func nullify() throws {
        for table in deleting.keys {
            for link in links(in: table) where Self.requiresWork(link) {
                let sources = sources(link, round: nil)
                let staying = deleting[link.destinationTable].map { " AND Z_PK NOT IN (SELECT Z_PK FROM \($0))" } ?? ""
                switch link.storage {
                case .joinTable(let join):
                    // A relationship that is its own inverse finds the deleted rows in both columns.
                    let both = link.relationship.inverseRelationship === link.relationship
                    try db.execute(sql: "DELETE FROM \(join.table) WHERE \(join.source) IN (\(sources))"
                                   + (both ? " OR \(join.destination) IN (\(sources))" : ""))
                case .hiddenForeignKey(let table, let column):
                    try db.execute(sql: "UPDATE \(table) SET \(column) = NULL "
                                   + "WHERE \(column) IN (\(sources))\(staying)")
                case .inverseForeignKey(let key):
                    try clear(key, pointingAt: sources, staying: staying)
                case .foreignKey:
                    // The row holding the key goes; only a to-one inverse keeps a key of its own.
                    guard let inverse = link.relationship.inverseRelationship, !inverse.isToMany,
                          let owner = inverse.entity.flatMap(mapping.entity),
                          case .foreignKey(let key)? = owner.relationships
                            .first(where: { $0.relationship === inverse })?.storage
                    else { continue }
                    try clear(key, pointingAt: sources, staying: staying)
                }
            }
        }
    }

    private func clear(_ key: SQLiteRelationshipStorage.ForeignKey, pointingAt sources: String,
                       staying: String) throws {
        let columns = [key.column, key.entityColumn, key.orderColumn].compactMap { $0 }
        let cleared = columns.map { "\($0) = NULL" }.joined(separator: ", ")
        try db.execute(sql: "UPDATE \(key.table) SET \(cleared), Z_OPT = Z_OPT + 1 "
                       + "WHERE \(key.column) IN (\(sources))\(staying)")
    }

    // MARK: External data

    /// The columns of `table` whose attributes may keep their bytes in files.
    private func externalColumns(_ table: String) -> [String] {
        let columns = mapping.schema.entities.filter { $0.table == table }.flatMap { stored -> [String] in
            guard let description = mapping.entity(number: stored.number),
                  let entity = mapping.entity(description) else { return [] }
            return entity.attributes.filter { $0.attribute.allowsExternalBinaryDataStorage }.map(\.column)
        }
        return Array(Set(columns)).sorted()
    }

    /// Marks the files the deleted rows' external values name for removal after the commit.
    private func noteExternalFiles(_ table: String, _ keys: String) throws {
        let columns = externalColumns(table)
        guard !columns.isEmpty else { return }
        let rows = try Row.fetchCursor(db, sql: "SELECT \(columns.joined(separator: ", ")) FROM \(table) "
                                       + "WHERE Z_PK IN (SELECT Z_PK FROM \(keys))")
        while let row = try rows.next() {
            for index in columns.indices { files.replaced(row[index] as DatabaseValue) }
        }
    }
}
