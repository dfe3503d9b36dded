import GRDB

/// How one destination entity table of an in-place migration is filled: the
/// source table its rows come from (there is at most one, hierarchies never
/// merging) and, for each destination column, an SQL expression over a
/// source row (`s.`) with its bound arguments.
struct SQLiteMigrationTable {
    /// An SQL expression over the source row `s`.
    struct Expression: Equatable {
        var sql: String
        var arguments: [DatabaseValue] = []
        /// Whether it reads only the row itself (no subquery): then the table
        /// can be altered in place instead of rebuilt.
        var sameRow = true

        static let null = Expression(sql: "NULL")
        static func column(_ name: String) -> Expression { Expression(sql: "s.\(name)") }

        /// The source column it copies as it is, if it is one.
        var plainColumn: String? {
            let name = sql.dropFirst(2)
            let plain = sql.hasPrefix("s.") && arguments.isEmpty
                && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
            return plain ? String(name) : nil
        }
    }

    /// A value the destination requires that a source row may lack: rows of
    /// source entity `entity` for which `expression` is NULL fail the migration.
    struct MandatoryCheck {
        var sourceNumber: Int
        var expression: Expression
        var entity: String
        var property: String
        var isRelationship: Bool
    }

    let table: SQLiteTable
    /// The source table (unprefixed name), nil when no row comes from the store.
    let sourceTable: String?
    /// Source entity number → destination entity, for every source row kept.
    let feeding: [(source: SQLiteEntity, destination: NSEntityDescription)]
    /// One expression per column of `table`, in column order.
    private(set) var expressions: [Expression] = []
    private(set) var checks: [MandatoryCheck] = []
    /// Whether a column changes its declared type (then the table is rebuilt).
    private(set) var retypesColumns = false
    /// Whether every row of the source table is kept (no entity removed or moved out).
    let keepsEveryRow: Bool

    init(_ table: SQLiteTable, _ context: SQLiteMigrationSource) {
        self.table = table
        let members = context.destination.entities.filter { $0.table == table.name }
        var feeding: [(SQLiteEntity, NSEntityDescription)] = []
        for member in members {
            guard let entity = context.destinationModel.entitiesByName[member.name],
                  let old = context.sourceEntity(of: entity).flatMap({ context.source.entity(named: $0.name ?? "") })
            else { continue }
            feeding.append((old, entity))
        }
        self.feeding = feeding
        sourceTable = feeding.first?.0.table
        keepsEveryRow = sourceTable.map { name in
            context.sourceEntities(inTable: name).allSatisfy { old in feeding.contains { $0.0.number == old.number } }
        } ?? false
        guard sourceTable != nil else { return }
        for column in table.columns { expressions.append(expression(for: column, context)) }
    }

    /// The column's expression: the same for every source entity, or a `CASE` on the row's `Z_ENT`.
    private mutating func expression(for column: SQLiteColumn, _ context: SQLiteMigrationSource) -> Expression {
        switch column.role {
        case .primaryKey: return .column("Z_PK")
        case .version: return .column("Z_OPT")
        case .entity:
            return Expression(sql: context.entityNumberExpression("s.Z_ENT", among: feeding.map(\.source)))
        default: break
        }
        var branches: [(number: Int, expression: Expression)] = []
        for (old, entity) in feeding {
            branches.append((old.number, branch(column, old, entity, context)))
        }
        if let first = branches.first?.expression, branches.allSatisfy({ $0.expression == first }) { return first }
        var sql = "CASE s.Z_ENT", arguments: [DatabaseValue] = [], sameRow = true
        for (number, expression) in branches {
            sql += " WHEN \(number) THEN \(expression.sql)"
            arguments += expression.arguments
            sameRow = sameRow && expression.sameRow
        }
        return Expression(sql: sql + " ELSE NULL END", arguments: arguments, sameRow: sameRow)
    }

    /// The value of `column` in the rows of the source entity `old`, which became `entity`.
    private mutating func branch(_ column: SQLiteColumn, _ old: SQLiteEntity, _ entity: NSEntityDescription,
                                 _ context: SQLiteMigrationSource) -> Expression {
        let model = context.destinationModel.entitiesByName
        switch column.role {
        case .attribute(let owner, let name):
            guard let declaring = model[owner], entity.isKindOf(entity: declaring),
                  let attribute = entity.attributesByName[name] else { return .null }
            return attributeValue(attribute, old, entity, context)
        case .foreignKey(let owner, let name), .foreignEntity(let owner, let name), .orderKey(let owner, let name):
            guard let declaring = model[owner], entity.isKindOf(entity: declaring),
                  let relationship = entity.relationshipsByName[name] else { return .null }
            let pairs = SQLiteMigrationPairs.of(relationship, in: entity, context)
            let key = destinationKey(pairs, old)
            if case .foreignKey = column.role {
                if !relationship.isOptional, !(context.sourceProperty(of: relationship, in: entity)
                                                .map { !$0.isOptional } ?? false) {
                    checks.append(MandatoryCheck(sourceNumber: old.number, expression: key, entity: entity.name ?? "",
                                                 property: name, isRelationship: true))
                }
                return key
            }
            if case .orderKey = column.role {
                return Expression(sql: "CASE WHEN \(key.sql) IS NULL THEN NULL ELSE s.Z_PK END",
                                  arguments: key.arguments, sameRow: key.sameRow)
            }
            return destinationNumber(pairs, key: key, context)
        case .toManyForeignKey(let owner, let name):
            guard let source = model[owner], let relationship = source.relationshipsByName[name],
                  let destination = relationship.destinationEntity, entity.isKindOf(entity: destination),
                  let pairs = SQLiteMigrationPairs.of(relationship, in: source, context) else { return .null }
            if let row = pairs.inDestinationRow, row.table == old.table { return .column(row.column) }
            return Expression(sql: "(SELECT p.o FROM (\(pairs.query)) AS p WHERE p.t = s.Z_PK LIMIT 1)",
                              sameRow: false)
        default:
            return .null
        }
    }

    /// An attribute's value: the source attribute's column (converted for a
    /// numeric type change), the default value for an added attribute or a
    /// NULL in one made non-optional.
    private mutating func attributeValue(_ attribute: NSAttributeDescription, _ old: SQLiteEntity,
                                         _ entity: NSEntityDescription, _ context: SQLiteMigrationSource)
        -> Expression {
        let defaultValue = attribute.defaultValue.flatMap {
            try? SQLiteValueCoding.databaseValue($0, for: attribute) { _ in .null }
        }.flatMap { $0.isNull ? nil : $0 }
        let source = context.sourceProperty(of: attribute, in: entity) as? NSAttributeDescription
        var read = source.flatMap { context.source.columnName(forProperty: $0.name, ofEntity: old.name) }
            .map { "s.\($0)" }
        if let column = read, let source, source.attributeType != attribute.attributeType {
            // The value converted as NSNumber converts it; the column is declared anew (a rebuild).
            retypesColumns = true
            switch SQLiteColumnType(attributeType: attribute.attributeType) {
            case .integer?: read = "CAST(\(column) AS INTEGER)"
            case .float?: read = "CAST(\(column) AS REAL)"
            default: break
            }
        }
        var value: Expression
        switch (read, defaultValue) {
        case (let read?, let defaultValue?) where !attribute.isOptional && source?.isOptional != false:
            value = Expression(sql: "COALESCE(\(read), ?)", arguments: [defaultValue])
        case (let read?, _): value = Expression(sql: read)
        case (nil, let defaultValue?): value = Expression(sql: "?", arguments: [defaultValue])
        case (nil, nil): value = .null
        }
        if !attribute.isOptional, defaultValue == nil, source?.isOptional != false {
            checks.append(MandatoryCheck(sourceNumber: old.number, expression: value, entity: entity.name ?? "",
                                         property: attribute.name, isRelationship: false))
        }
        return value
    }

    /// The destination key of a to-one relationship in a row of `old`'s table.
    private func destinationKey(_ pairs: SQLiteMigrationPairs?, _ old: SQLiteEntity) -> Expression {
        guard let pairs else { return .null }
        if let row = pairs.inOwnerRow, row.table == old.table { return .column(row.column) }
        return Expression(sql: "(SELECT p.t FROM (\(pairs.query)) AS p WHERE p.o = s.Z_PK LIMIT 1)", sameRow: false)
    }

    /// The destination's entity number (`Z<n>_` column) for a to-one key.
    private func destinationNumber(_ pairs: SQLiteMigrationPairs?, key: Expression,
                                   _ context: SQLiteMigrationSource) -> Expression {
        guard let pairs, let target = pairs.destinationEntity,
              let table = context.source.entity(named: target.name ?? "")?.table else { return .null }
        let everyEntity = context.sourceEntities(inTable: table)
        if let row = pairs.inOwnerRow, key.plainColumn == row.column, let entityColumn = row.entityColumn {
            return Expression(sql: context.entityNumberExpression("s.\(entityColumn)", among: everyEntity))
        }
        if target.subentities.isEmpty, let to = context.destinationEntityName(ofSource: target.name ?? ""),
           let number = context.destination.entity(named: to)?.number {
            return Expression(sql: "CASE WHEN \(key.sql) IS NULL THEN NULL ELSE \(number) END",
                              arguments: key.arguments, sameRow: key.sameRow)
        }
        let number = context.entityNumberExpression("x.Z_ENT", among: everyEntity)
        return Expression(sql: "(SELECT \(number) FROM \(context.old(table)) AS x "
                            + "WHERE x.Z_PK = \(key.sql))", arguments: key.arguments, sameRow: false)
    }
}
