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
/// Building it walks the model a few times: about linear in the number of
/// properties (plus sorting entity names). Lookups are dictionary reads.
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
    /// The many-to-many join tables, one per pair (also in `tables`).
    let joinTables: [SQLiteTable]

    private let entityIndex: [String: Int]
    private let tableIndex: [String: Int]
    /// Column names by entity name, then property name (inherited included).
    private let propertyColumns: [String: [String: String]]
    /// Relationship storage by entity, then relationship (inherited included).
    private let relationships: [String: [String: SQLiteRelationshipStorage]]

    /// The layout of the entities of `configuration` (all entities for nil)
    /// of `model`, written as the Core Data release `format` writes it.
    /// Throws for what the layout cannot hold: composite attributes, two root
    /// entities whose names differ only in case (one table name). With
    /// `file`, the join tables of an existing store: each many-to-many pair
    /// is read from the table the file holds it in (``SQLiteJoinTableDiscovery``).
    init(model: NSManagedObjectModel, configuration: String? = nil, format: SQLiteSchemaFormat = .current,
         file: SQLiteFileJoinTables? = nil) throws {
        self.format = format
        let members = model.entities(forConfigurationName: configuration) ?? []
        let ordered = SQLiteEntityNumbering.order(members)
        var numbers: [ObjectIdentifier: Int] = [:]
        for (offset, item) in ordered.enumerated() { numbers[ObjectIdentifier(item.entity)] = offset + 1 }

        var uninverted: [ObjectIdentifier: [NSRelationshipDescription]] = [:]
        for (entity, _) in ordered {
            let own = entity.ownProperties.compactMap { $0 as? NSRelationshipDescription }
            for r in own where r.isToMany && !r.isTransient && r.inverseRelationship == nil {
                if let destination = r.destinationEntity { uninverted[ObjectIdentifier(destination), default: []].append(r) }
            }
        }

        let layout = SQLiteTableLayout(numbers: numbers, uninvertedToMany: uninverted)
        let indexLayout = SQLiteIndexLayout(format: format)
        let pairs = SQLiteJoinTableLayout.pairs(ordered.map(\.entity), numbers: numbers)
        let claimOrder = Dictionary(members.enumerated().map { (ObjectIdentifier($1), $0) },
                                    uniquingKeysWith: { a, _ in a })
        let computed = SQLiteJoinTableLayout.tables(pairs, numbers: numbers, claimOrder: claimOrder)
        let joinTables = file.map {
            SQLiteJoinTableDiscovery.resolve(pairs, computed: computed, numbers: numbers, in: $0)
        } ?? computed

        var entities: [SQLiteEntity] = [], tables: [SQLiteTable] = [], indexes: [SQLiteIndex] = []
        var start = 0
        while start < ordered.count {
            let root = ordered[start].root
            let end = ordered[start...].firstIndex { $0.root !== root } ?? ordered.count
            let hierarchy = ordered[start..<end].map(\.entity)
            let tableName = "Z" + (root.name ?? "").uppercased()
            if let clash = tables.first(where: { $0.name == tableName }) {
                throw SQLiteSchemaError(description: "\(root.name ?? "") and another root entity both need table \(clash.name)")
            }
            for entity in hierarchy {
                let number = numbers[ObjectIdentifier(entity)]!
                let last = number + Self.descendantCount(entity, among: numbers)
                entities.append(SQLiteEntity(name: entity.name ?? "", number: number,
                                             superNumber: entity.superentity.flatMap { numbers[ObjectIdentifier($0)] } ?? 0,
                                             table: tableName, numbers: number...last))
            }
            var table = try layout.table(named: tableName, hierarchy: hierarchy)
            table.uniqueConstraints = indexLayout.tableConstraints(for: table, hierarchy: hierarchy)
            indexes += indexLayout.indexes(for: table, hierarchy: hierarchy)
            tables.append(table)
            for (pair, joinTable) in zip(pairs, joinTables) where pair.naming.entity.map({ $0.isKindOf(entity: root) }) ?? false {
                tables.append(joinTable)
                if format.indexesJoinTables { indexes.append(SQLiteJoinTableLayout.index(joinTable)) }
            }
            start = end
        }
        self.entities = entities
        self.tables = tables
        self.indexes = indexes
        self.joinTables = joinTables
        entityIndex = Dictionary(entities.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        tableIndex = Dictionary(tables.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        propertyColumns = Self.propertyColumns(ordered.map(\.entity), entities: entities, tables: tables)
        let tablesByName = Dictionary(tables.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let entityTables = Dictionary(entities.map { ($0.name, $0.table) }, uniquingKeysWith: { first, _ in first })
        relationships = SQLiteRelationshipStorage.map(ordered.map(\.entity), table: { entity in
            entity?.name.flatMap { entityTables[$0] }.flatMap { tablesByName[$0] }
        }, joins: Array(zip(pairs, joinTables)).map { (pair: $0, table: $1) })
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

    /// Where the relationship `relationship` of the entity named `entity`
    /// (inherited relationships included) keeps its rows; nil for a
    /// transient or unknown relationship.
    func storage(ofRelationship relationship: String, ofEntity entity: String) -> SQLiteRelationshipStorage? {
        relationships[entity]?[relationship]
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
        let byName = Dictionary(tables.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
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
}
