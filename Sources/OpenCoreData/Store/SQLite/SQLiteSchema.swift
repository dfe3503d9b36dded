/// The SQLite layout Core Data gives a managed object model: entity numbers,
/// tables, columns, join tables and indexes, and the DDL that creates them.
///
/// The SQLite store builds one schema per model (and configuration) and
/// takes every table and column name it puts in SQL from it. The rules are
/// established against stores written by Core Data (docs/SQLiteLayout.md).
///
///     let schema = try SQLiteSchema(model: model)
///     schema.entity(named: "Note")?.number     // Z_ENT
///     schema.createStatements                   // CREATE TABLE ZNOTE ( Z_PK …
///
/// Building it walks the model once and sorts each entity's properties:
/// O(p log p) in the number of properties. Lookups are dictionary reads.
struct SQLiteSchema: Sendable {
    /// The Core Data release whose DDL is reproduced.
    let format: SQLiteSchemaFormat
    /// The entities in Z_ENT order (`entities[i].number == i + 1`).
    let entities: [SQLiteEntity]
    /// Entity tables (in Z_ENT order of their roots), each followed by the join
    /// tables its hierarchy names.
    let tables: [SQLiteTable]
    /// The indexes, in the order Core Data creates them.
    let indexes: [SQLiteIndex]

    private let entityIndex: [String: Int]
    private let tableIndex: [String: Int]
    /// Column names by entity name, then property name (inherited included).
    private let propertyColumns: [String: [String: String]]
    /// Join table and its (source, destination) columns by entity, then relationship.
    private let joins: [String: [String: JoinColumns]]

    /// Where a many-to-many relationship's rows live, seen from one side.
    struct JoinColumns: Hashable, Sendable {
        var table: String
        /// The column holding the primary key of the relationship's source object.
        var source: String
        /// The column holding the primary key of the destination object.
        var destination: String
        /// The `Z_FOK_` column when the relationship is ordered.
        var order: String?
    }

    /// The layout of the entities of `configuration` (all entities for nil)
    /// of `model`, written as the Core Data release `format` writes it.
    /// Throws for attributes the layout cannot hold (composite attributes).
    init(model: NSManagedObjectModel, configuration: String? = nil, format: SQLiteSchemaFormat = .current) throws {
        self.format = format
        let ordered = SQLiteEntityNumbering.order(model.entities(forConfigurationName: configuration) ?? [])
        var numbers: [ObjectIdentifier: Int] = [:]
        for (offset, item) in ordered.enumerated() { numbers[ObjectIdentifier(item.entity)] = offset + 1 }

        var uninverted: [ObjectIdentifier: [NSRelationshipDescription]] = [:]
        for (entity, _) in ordered {
            let own = entity.ownProperties.compactMap { $0 as? NSRelationshipDescription }
                .sorted { SQLiteEntityNumbering.precedes($0.name, $1.name) }
            for r in own where r.isToMany && !r.isTransient && r.inverseRelationship == nil {
                if let destination = r.destinationEntity { uninverted[ObjectIdentifier(destination), default: []].append(r) }
            }
        }

        let layout = SQLiteTableLayout(numbers: numbers, uninvertedToMany: uninverted)
        let indexLayout = SQLiteIndexLayout(format: format)
        let pairs = SQLiteJoinTableLayout.pairs(ordered.map(\.entity), numbers: numbers)
        let joinTables = SQLiteJoinTableLayout.tables(pairs, numbers: numbers)

        var entities: [SQLiteEntity] = [], tables: [SQLiteTable] = [], indexes: [SQLiteIndex] = []
        var start = 0
        while start < ordered.count {
            let root = ordered[start].root
            let end = ordered[start...].firstIndex { $0.root !== root } ?? ordered.count
            let hierarchy = ordered[start..<end].map(\.entity)
            let tableName = "Z" + (root.name ?? "").uppercased()
            for entity in hierarchy {
                let number = numbers[ObjectIdentifier(entity)]!
                let last = number + Self.descendantCount(entity, among: numbers)
                entities.append(SQLiteEntity(name: entity.name ?? "", number: number,
                                             superNumber: entity.superentity.flatMap { numbers[ObjectIdentifier($0)] } ?? 0,
                                             table: tableName, numbers: number...last))
            }
            var table = try layout.table(named: tableName, hierarchy: hierarchy)
            indexes += indexLayout.indexes(for: &table, hierarchy: hierarchy)
            tables.append(table)
            for (pair, joinTable) in zip(pairs, joinTables) where pair.naming.entity.map({ $0.isKindOf(entity: root) }) ?? false {
                tables.append(joinTable)
                if format.indexesJoinTables, joinTable.primaryKey.count == 2 {
                    let (first, second) = (joinTable.primaryKey[0], joinTable.primaryKey[1])
                    indexes.append(SQLiteIndex(name: "\(joinTable.name)_\(second)_INDEX", table: joinTable.name,
                                               terms: [second, first], isUnique: false))
                }
            }
            start = end
        }
        self.entities = entities
        self.tables = tables
        self.indexes = indexes
        entityIndex = Dictionary(uniqueKeysWithValues: entities.enumerated().map { ($1.name, $0) })
        tableIndex = Dictionary(uniqueKeysWithValues: tables.enumerated().map { ($1.name, $0) })
        propertyColumns = Self.propertyColumns(ordered.map(\.entity), entities: entities, tables: tables)
        joins = Self.joinColumns(pairs, joinTables)
    }

    /// The entity named `name`, if the schema has it.
    func entity(named name: String) -> SQLiteEntity? { entityIndex[name].map { entities[$0] } }

    /// The table named `name` (an entity table or a join table).
    func table(named name: String) -> SQLiteTable? { tableIndex[name].map { tables[$0] } }

    /// The table holding the rows of the entity named `entity`.
    func table(forEntity entity: String) -> SQLiteTable? { self.entity(named: entity).flatMap { table(named: $0.table) } }

    /// The column storing the attribute or to-one relationship `property` of
    /// the entity named `entity` (inherited properties included).
    func columnName(forProperty property: String, ofEntity entity: String) -> String? {
        propertyColumns[entity]?[property]
    }

    /// The join table of the many-to-many relationship `relationship` of the
    /// entity named `entity` (or of a superentity).
    func joinColumns(forRelationship relationship: String, ofEntity entity: String) -> JoinColumns? {
        var current = self.entity(named: entity)
        while let candidate = current {
            if let found = joins[candidate.name]?[relationship] { return found }
            current = candidate.superNumber > 0 ? entities[candidate.superNumber - 1] : nil
        }
        return nil
    }

    /// The DDL that creates an empty store with this layout: entity and join
    /// tables, then indexes, then the bookkeeping tables. Statements carry no
    /// trailing semicolon; run them in order.
    var createStatements: [String] {
        tables.map(\.createStatement) + indexes.map(\.createStatement) + SQLiteBookkeeping.createStatements(format)
    }

    private static func descendantCount(_ entity: NSEntityDescription, among numbers: [ObjectIdentifier: Int]) -> Int {
        entity.subentities.filter { numbers[ObjectIdentifier($0)] != nil }
            .reduce(0) { $0 + 1 + descendantCount($1, among: numbers) }
    }

    private static func propertyColumns(_ models: [NSEntityDescription], entities: [SQLiteEntity],
                                        tables: [SQLiteTable]) -> [String: [String: String]] {
        let byName = Dictionary(uniqueKeysWithValues: tables.map { ($0.name, $0) })
        var result: [String: [String: String]] = [:]
        for (model, entity) in zip(models, entities) {
            guard let table = byName[entity.table] else { continue }
            var columns: [String: String] = [:]
            for property in model.properties {
                if let column = table.column(storing: property) { columns[property.name] = column.name }
            }
            result[entity.name] = columns
        }
        return result
    }

    private static func joinColumns(_ pairs: [SQLiteJoinTableLayout.Pair],
                                    _ tables: [SQLiteTable]) -> [String: [String: JoinColumns]] {
        var result: [String: [String: JoinColumns]] = [:]
        for (pair, table) in zip(pairs, tables) {
            for (relationship, inverse) in [(pair.naming, pair.inverse), (pair.inverse, pair.naming)] {
                func role(_ r: NSRelationshipDescription) -> SQLiteColumn.Role {
                    .joinKey(entity: r.entity?.name ?? "", relationship: r.name)
                }
                guard let destination = table.column(role(relationship)), let source = table.column(role(inverse)) else { continue }
                let order = table.column(.joinOrderKey(entity: relationship.entity?.name ?? "", relationship: relationship.name))
                result[relationship.entity?.name ?? "", default: [:]][relationship.name] =
                    JoinColumns(table: table.name, source: source.name, destination: destination.name, order: order?.name)
            }
        }
        return result
    }
}
