import Foundation
import GRDB

/// Lightweight migration of an SQLite store in place, "solely by issuing SQL
/// statements" as Core Data does with an inferred mapping: no object is
/// loaded, so memory stays bounded whatever the row count.
///
/// Runs inside the caller's transaction: a failure (or a killed process)
/// leaves the store as it was. The source tables are renamed `Z_MIG_<name>`;
/// a table whose rows all stay and whose columns come from the same row is
/// then altered (ADD / RENAME / DROP COLUMN, one UPDATE for computed
/// values) and renamed back, any other is rebuilt (CREATE, INSERT … SELECT);
/// join tables are rebuilt; the leftovers are dropped, the destination's
/// indexes created, Z_PRIMARYKEY renumbered and the metadata rewritten.
struct SQLiteInPlaceMigration {
    let context: SQLiteMigrationSource
    let configuration: String?

    /// Plans the migration of a store whose file holds `file`'s join tables
    /// from `sourceModel` to `destinationModel` along `mapping`.
    init(sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel, mapping: NSMappingModel,
         configuration: String?, file: SQLiteFileJoinTables) throws {
        let source = try SQLiteSchema(model: sourceModel, configuration: configuration, file: file)
        let destination = try SQLiteSchema(model: destinationModel, configuration: configuration)
        context = SQLiteMigrationSource(source: source, destination: destination, sourceModel: sourceModel,
                                        destinationModel: destinationModel, mapping: mapping)
        self.configuration = configuration
    }

    /// Migrates the store in `db` (in a transaction) and returns its new
    /// metadata: `metadata` with the destination's version hashes.
    /// `progress` counts the steps: a table altered or rebuilt, a join table
    /// filled, an index made, and the bookkeeping at the end.
    func run(_ db: Database, metadata: [String: Any], progress: Progress) throws -> [String: Any] {
        let existing = try context.source.tables.map(\.name).filter { try db.tableExists($0) }
        try dropTriggers(on: existing, db)
        let maxima = try primaryKeyMaxima(db)
        let entityTables = context.destination.tables.filter { $0.primaryKey.isEmpty }
        // Which tables are altered where they are does not depend on names: it
        // is decided first, and the others are renamed out of the way.
        var context = self.context
        let names = Set(existing), destinationNames = Set(context.destination.tables.map(\.name))
        for table in entityTables.map({ SQLiteMigrationTable($0, context) }) {
            // A table changing name must take a free name and leave its own to no other.
            guard let plan = SQLiteTableAlteration(table), names.contains(plan.sourceTable),
                  plan.sourceTable == plan.destinationTable
                    || (!names.contains(plan.destinationTable) && !destinationNames.contains(plan.sourceTable)),
                  try !hasTableConstraints(plan.sourceTable, db) else { continue }
            context.inPlace.insert(plan.sourceTable)
        }
        for name in existing where !context.inPlace.contains(name) {
            try db.execute(sql: "ALTER TABLE \(name) RENAME TO \(context.old(name))")
        }
        let tables = entityTables.map { SQLiteMigrationTable($0, context) }
        let joinTables = context.destination.tables.filter { !$0.primaryKey.isEmpty }
        progress.totalUnitCount = Int64(tables.count + joinTables.count + context.destination.indexes.count + 1)
        for table in tables { try check(table, context, db) }
        // Everything that reads the source tables runs before any of them is altered.
        var alterations: [SQLiteTableAlteration] = []
        for table in tables {
            if let plan = SQLiteTableAlteration(table), context.inPlace.contains(plan.sourceTable) {
                alterations.append(plan)
            } else {
                try rebuild(table, context, db)
                progress.completedUnitCount += 1
            }
        }
        for table in joinTables {
            try fillJoinTable(table, context, db)
            progress.completedUnitCount += 1
        }
        for plan in alterations {
            try plan.run(db, table: plan.sourceTable, keepingIndexes: context.destination.indexes)
            progress.completedUnitCount += 1
        }
        for name in existing where !context.inPlace.contains(name) {
            try db.execute(sql: "DROP TABLE \(context.old(name))")
        }
        try dropDanglingReferences(db)
        for index in context.destination.indexes {
            try create(index, db)
            progress.completedUnitCount += 1
        }
        try renumber(db, maxima: maxima, tables: tables)
        if try db.tableExists("Z_MODELCACHE") { try db.execute(sql: "DELETE FROM Z_MODELCACHE") }
        let updated = try Self.metadata(metadata, versionedFor: context.destinationModel, configuration: configuration)
        try SQLiteMetadata.write(updated, db)
        progress.completedUnitCount += 1
        return updated
    }

    /// `metadata` with `model`'s version hashes, checksum and version
    /// identifiers; its UUID and application keys kept.
    static func metadata(_ metadata: [String: Any], versionedFor model: NSManagedObjectModel,
                         configuration: String?) throws -> [String: Any] {
        var updated = metadata
        let fresh = SQLiteStoreSetup.newMetadata(uuid: "", model: model,
                                                 mapping: try SQLiteMapping(model: model, configuration: configuration))
        for key in [NSStoreModelVersionHashesKey, "NSStoreModelVersionChecksumKey", "NSStoreModelVersionHashesDigest",
                    SQLiteStoreSetup.hashesVersionKey, SQLiteStoreSetup.versionIdentifiersKey] {
            updated[key] = fresh[key]
        }
        return updated
    }

    /// Throws NSMigrationError (134110) when a row lacks a value the destination requires.
    private func check(_ table: SQLiteMigrationTable, _ context: SQLiteMigrationSource, _ db: Database) throws {
        guard let source = table.sourceTable else { return }
        for check in table.checks {
            let found = try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM \(context.old(source)) AS s
                WHERE s.Z_ENT = \(check.sourceNumber) AND (\(check.expression.sql)) IS NULL)
                """, arguments: StatementArguments(check.expression.arguments)) ?? false
            guard found else { continue }
            let kind = check.isRelationship ? "relationship" : "attribute"
            let reason = "Validation error missing attribute values on mandatory destination \(kind)"
            throw NSError.coreData(NSMigrationError,
                                   "Cannot migrate store in-place: \(reason) (\(check.entity).\(check.property)).",
                                   userInfo: ["entity": check.entity, kind: check.property, "reason": reason])
        }
    }

    private func rebuild(_ table: SQLiteMigrationTable, _ context: SQLiteMigrationSource, _ db: Database) throws {
        try db.execute(sql: table.table.createStatement)
        guard let source = table.sourceTable, !table.expressions.isEmpty else { return }
        let numbers = table.feeding.map { String($0.source.number) }.joined(separator: ", ")
        try db.execute(sql: """
            INSERT INTO \(table.table.name) (\(table.table.columns.map(\.name).joined(separator: ", ")))
            SELECT \(table.expressions.map(\.sql).joined(separator: ", "))
            FROM \(context.old(source)) AS s WHERE s.Z_ENT IN (\(numbers))
            """, arguments: StatementArguments(table.expressions.flatMap(\.arguments)))
    }

    /// A join table: the pairs of the relationship that names it, from wherever the source kept them.
    private func fillJoinTable(_ table: SQLiteTable, _ context: SQLiteMigrationSource, _ db: Database) throws {
        try db.execute(sql: table.createStatement)
        for entity in context.destinationModel.entities(forConfigurationName: configuration) ?? [] {
            for relationship in entity.properties.compactMap({ $0 as? NSRelationshipDescription }) {
                guard case .joinTable(let join)? = context.destination.storage(ofRelationship: relationship.name,
                                                                               ofEntity: entity.name ?? ""),
                      join.table == table.name else { continue }
                guard let pairs = SQLiteMigrationPairs.of(relationship, in: entity, context) else { return }
                var columns = [join.source, join.destination], values = ["p.o", "p.t"]
                if let order = join.order { columns.append(order); values.append("COALESCE(p.ord, p.t)") }
                if let inverse = relationship.inverseRelationship, let inverseEntity = inverse.entity,
                   case .joinTable(let other)? = context.destination.storage(ofRelationship: inverse.name,
                                                                             ofEntity: inverseEntity.name ?? ""),
                   let order = other.order, !columns.contains(order) {
                    columns.append(order)
                    values.append("p.o")
                }
                try db.execute(sql: "INSERT OR IGNORE INTO \(table.name) (\(columns.joined(separator: ", "))) "
                                   + "SELECT \(values.joined(separator: ", ")) FROM (\(pairs.query)) AS p")
                return
            }
        }
    }

    /// When the rows of a removed entity went, references to them go too, as
    /// Core Data's migration relates only the instances it migrated: keys
    /// set to NULL, join rows deleted. Skipped when no entity was removed.
    private func dropDanglingReferences(_ db: Database) throws {
        guard context.source.entities.contains(where: { context.destinationEntityName(ofSource: $0.name) == nil })
        else { return }
        func rows(of entity: NSEntityDescription?) -> String? {
            guard let mapped = context.destination.entity(named: entity?.name ?? "") else { return nil }
            return "SELECT Z_PK FROM \(mapped.table) WHERE Z_ENT BETWEEN \(mapped.numbers.lowerBound) "
                + "AND \(mapped.numbers.upperBound)"
        }
        for entity in context.destinationModel.entities(forConfigurationName: configuration) ?? [] {
            for case let relationship as NSRelationshipDescription in entity.ownProperties
            where !relationship.isTransient {
                switch context.destination.storage(ofRelationship: relationship.name, ofEntity: entity.name ?? "") {
                case .foreignKey(let key)?:
                    guard let targets = rows(of: relationship.destinationEntity) else { continue }
                    let cleared = [key.column, key.entityColumn, key.orderColumn].compactMap { $0 }
                        .map { "\($0) = NULL" }.joined(separator: ", ")
                    try db.execute(sql: "UPDATE \(key.table) SET \(cleared) "
                                       + "WHERE \(key.column) IS NOT NULL AND \(key.column) NOT IN (\(targets))")
                case .hiddenForeignKey(let table, let column)?:
                    guard let owners = rows(of: entity) else { continue }
                    try db.execute(sql: "UPDATE \(table) SET \(column) = NULL "
                                       + "WHERE \(column) IS NOT NULL AND \(column) NOT IN (\(owners))")
                case .joinTable(let join)?:
                    guard let targets = rows(of: relationship.destinationEntity) else { continue }
                    try db.execute(sql: "DELETE FROM \(join.table) WHERE \(join.destination) NOT IN (\(targets))")
                case .inverseForeignKey?, nil:
                    continue
                }
            }
        }
    }

    /// Creates a destination index; a uniqueness constraint the rows break
    /// fails the migration with NSMigrationConstraintViolationError (134111).
    private func create(_ index: SQLiteIndex, _ db: Database) throws {
        do {
            try db.execute(sql: "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(index.name) "
                               + "ON \(index.table) (\(index.terms.joined(separator: ", ")))")
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            let entities = context.destination.entities.filter { $0.table == index.table }.map(\.name)
            let reason = "rows of \(entities.joined(separator: ", ")) share values of the uniqueness constraint "
                + "on \(index.terms.joined(separator: ", "))"
            throw NSError.coreData(NSMigrationConstraintViolationError, "Cannot migrate store in-place: \(reason).",
                                   userInfo: ["entity": entities.first ?? "", "reason": reason,
                                              NSUnderlyingErrorKey: error as NSError])
        }
    }

    /// Z_PRIMARYKEY for the destination entities, each hierarchy keeping the
    /// highest key handed out for the source table its rows come from.
    private func renumber(_ db: Database, maxima: [String: Int64], tables: [SQLiteMigrationTable]) throws {
        try db.execute(sql: "DELETE FROM Z_PRIMARYKEY WHERE Z_ENT < 16000")
        let sources = Dictionary(tables.map { ($0.table.name, $0.sourceTable) }, uniquingKeysWith: { a, _ in a })
        for entity in context.destination.entities {
            var highest: Int64 = 0
            if entity.superNumber == 0 {
                let used = try Int64.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM \(entity.table)") ?? 0
                highest = max(used, sources[entity.table].flatMap { $0 }.flatMap { maxima[$0] } ?? 0)
            }
            try db.execute(sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)",
                           arguments: [entity.number, entity.name, entity.superNumber, highest])
        }
    }

    /// The highest key handed out per source table (the Z_MAX of its root's row).
    private func primaryKeyMaxima(_ db: Database) throws -> [String: Int64] {
        var result: [String: Int64] = [:]
        for entity in context.source.entities where entity.superNumber == 0 {
            let value = try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?",
                                           arguments: [entity.number]) ?? 0
            result[entity.table] = max(result[entity.table] ?? 0, value)
        }
        return result
    }

    /// Whether the file declares UNIQUE or other constraints in the table's
    /// definition (old Core Data releases did): its columns cannot be dropped.
    private func hasTableConstraints(_ table: String, _ db: Database) throws -> Bool {
        let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?",
                                      arguments: [table]) ?? ""
        return sql.uppercased().contains("CONSTRAINT") || sql.uppercased().contains("UNIQUE")
    }

    /// Triggers on the migrated tables would block column changes; Core Data
    /// recreates its own (derived attributes), OpenCoreData computes those at save.
    private func dropTriggers(on tables: [String], _ db: Database) throws {
        guard !tables.isEmpty else { return }
        let names = try String.fetchAll(db, sql: """
            SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN (\(tables.map { _ in "?" }
                .joined(separator: ", ")))
            """, arguments: StatementArguments(tables))
        for name in names { try db.execute(sql: "DROP TRIGGER \(name.quotedDatabaseIdentifier)") }
    }
}
