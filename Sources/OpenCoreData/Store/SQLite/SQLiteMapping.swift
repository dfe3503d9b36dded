/// How the store reads and writes each entity: the schema's table and column
/// names resolved once per model entity, so that saving and loading a record
/// cost dictionary reads, not scans of the schema.
struct SQLiteMapping: @unchecked Sendable {
    /// Where one relationship's destinations live.
    enum Storage {
        /// A to-one: the destination's key in `column` of the source's table,
        /// its entity number in `entityColumn` when the destination has sub-entities.
        case toOne(column: String, entityColumn: String?)
        /// A to-many whose inverse is a to-one: the source's key in `column`
        /// of the destination's `table`, position in `orderColumn` when ordered.
        case inverseKey(table: String, column: String, orderColumn: String?)
        /// A many-to-many: rows of a join table.
        case join(SQLiteSchema.JoinColumns)
        /// A to-many without inverse: the source's key in the hidden `column`
        /// of the destination's `table`.
        case hiddenKey(table: String, column: String)
    }

    /// One entity's table, number and stored properties.
    struct Entity {
        let description: NSEntityDescription
        let number: Int
        /// The numbers of the entity and its sub-entities.
        let numbers: ClosedRange<Int>
        let table: String
        /// Stored attributes with their columns.
        let attributes: [(attribute: NSAttributeDescription, column: String)]
        /// Stored relationships with where their destinations live.
        let relationships: [(relationship: NSRelationshipDescription, storage: Storage)]
        /// Every property's column, for sorts and predicates.
        let columns: [String: String]
    }

    let schema: SQLiteSchema
    let reflexiveTables: [SQLiteReflexiveJoinTables.Table]
    private let byName: [String: Entity]
    private let byNumber: [Int: NSEntityDescription]

    /// The mapping of the entities of `configuration` of `model`. Throws
    /// NSPersistentStoreInvalidTypeError for a model the layout cannot hold.
    init(model: NSManagedObjectModel, configuration: String?) throws {
        let entities = model.entities(forConfigurationName: configuration) ?? []
        do {
            schema = try SQLiteSchema(model: model, configuration: configuration)
        } catch let error as SQLiteSchemaError {
            throw NSError.coreData(NSPersistentStoreInvalidTypeError, "The model cannot be stored in SQLite: \(error.description).")
        }
        reflexiveTables = SQLiteReflexiveJoinTables.tables(model: entities, schema: schema)
        let descriptions = Dictionary(entities.compactMap { e in e.name.map { ($0, e) } }, uniquingKeysWith: { a, _ in a })
        var byName: [String: Entity] = [:], byNumber: [Int: NSEntityDescription] = [:]
        for entity in schema.entities {
            guard let description = descriptions[entity.name], let table = schema.table(named: entity.table) else { continue }
            byNumber[entity.number] = description
            byName[entity.name] = Self.entity(description, entity, table, schema: schema, reflexive: reflexiveTables)
        }
        self.byName = byName
        self.byNumber = byNumber
    }

    /// The mapping of `entity`; nil when the store does not hold it.
    func entity(_ entity: NSEntityDescription) -> Entity? { byName[entity.name ?? ""] }

    /// The model entity whose `Z_ENT` is `number`.
    func entity(number: Int) -> NSEntityDescription? { byNumber[number] }

    /// The DDL of a new store: the schema's, then the reflexive join tables.
    var createStatements: [String] {
        schema.createStatements + SQLiteReflexiveJoinTables.createStatements(reflexiveTables)
    }

    private static func entity(_ description: NSEntityDescription, _ entity: SQLiteEntity, _ table: SQLiteTable,
                               schema: SQLiteSchema, reflexive: [SQLiteReflexiveJoinTables.Table]) -> Entity {
        var attributes: [(NSAttributeDescription, String)] = []
        var relationships: [(NSRelationshipDescription, Storage)] = []
        var columns: [String: String] = [:]
        for property in description.properties where !property.isTransient {
            let declaring = property.entity?.name ?? ""
            switch property {
            case let attribute as NSAttributeDescription:
                guard let column = table.column(.attribute(entity: declaring, name: attribute.name))?.name else { continue }
                attributes.append((attribute, column))
                columns[attribute.name] = column
            case let relationship as NSRelationshipDescription where !relationship.isToMany:
                guard let column = table.column(.foreignKey(entity: declaring, relationship: relationship.name))?.name else { continue }
                let entityColumn = table.column(.foreignEntity(entity: declaring, relationship: relationship.name))?.name
                relationships.append((relationship, .toOne(column: column, entityColumn: entityColumn)))
                columns[relationship.name] = column
            case let relationship as NSRelationshipDescription:
                if let storage = toManyStorage(relationship, declaring: declaring, schema: schema, reflexive: reflexive) {
                    relationships.append((relationship, storage))
                }
            default: break
            }
        }
        return Entity(description: description, number: entity.number, numbers: entity.numbers, table: entity.table,
                      attributes: attributes, relationships: relationships, columns: columns)
    }

    private static func toManyStorage(_ relationship: NSRelationshipDescription, declaring: String, schema: SQLiteSchema,
                                      reflexive: [SQLiteReflexiveJoinTables.Table]) -> Storage? {
        guard let destination = relationship.destinationEntity?.name,
              let destinationTable = schema.table(forEntity: destination) else { return nil }
        guard let inverse = relationship.inverseRelationship else {
            let role = SQLiteColumn.Role.toManyForeignKey(entity: declaring, relationship: relationship.name)
            return destinationTable.column(role).map { .hiddenKey(table: destinationTable.name, column: $0.name) }
        }
        if inverse === relationship {
            return reflexive.first { $0.entity == declaring && $0.relationship == relationship.name }.map { .join($0.columns) }
        }
        if inverse.isToMany {
            return schema.joinColumns(forRelationship: relationship.name, ofEntity: declaring).map { .join($0) }
        }
        let inverseEntity = inverse.entity?.name ?? ""
        guard let key = destinationTable.column(.foreignKey(entity: inverseEntity, relationship: inverse.name)) else { return nil }
        let order = relationship.isOrdered
            ? destinationTable.column(.orderKey(entity: inverseEntity, relationship: inverse.name))?.name : nil
        return .inverseKey(table: destinationTable.name, column: key.name, orderColumn: order)
    }
}
