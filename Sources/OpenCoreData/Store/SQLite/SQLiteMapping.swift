import GRDB

/// How the store reads and writes each entity: the schema's table and column
/// names resolved once per model entity, so that saving and loading a record
/// cost dictionary reads, not scans of the schema. A class, immutable once
/// made: the store reads it for every record, and a struct was copied (every
/// table retained) at each of those reads.
final class SQLiteMapping: @unchecked Sendable {
    /// Where one relationship's destinations live (the schema's lookup).
    typealias Storage = SQLiteRelationshipStorage

    /// One entity's table, number and stored properties. A class, immutable
    /// once made: a fault fired alone looks its entity up twice, and copying
    /// a struct of these arrays retained and released each (~460 instructions a lookup).
    final class Entity: @unchecked Sendable {
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
        /// The slot of each of `attributes` and of `relationships` in the
        /// entity's records (`PropertySlotLayout`), by position.
        let attributeSlots: [Int], relationshipSlots: [Int]
        /// The slots whose values live in the entity's row: its attributes
        /// and the relationships kept as a foreign key.
        let columnSlots: SlotSet

        init(description: NSEntityDescription, number: Int, numbers: ClosedRange<Int>, table: String,
             attributes: [(attribute: NSAttributeDescription, column: String)],
             relationships: [(relationship: NSRelationshipDescription, storage: Storage)], columns: [String: String],
             attributeSlots: [Int], relationshipSlots: [Int], columnSlots: SlotSet) {
            self.description = description
            self.number = number
            self.numbers = numbers
            self.table = table
            self.attributes = attributes
            self.relationships = relationships
            self.columns = columns
            self.attributeSlots = attributeSlots
            self.relationshipSlots = relationshipSlots
            self.columnSlots = columnSlots
        }
    }

    let schema: SQLiteSchema
    private let byName: [String: Entity]
    /// The same by description identity: the lookup of every record read and
    /// written, cheaper than hashing the name. IDs of another model instance
    /// (an equal model loaded twice) fall back to the name.
    private let byIdentity: [ObjectIdentifier: Entity]
    private let byNumber: [Int: NSEntityDescription]

    /// The mapping of the entities of `configuration` of `model`; with `file`,
    /// the join tables an existing store holds its many-to-many pairs in.
    /// Throws NSPersistentStoreInvalidTypeError for a model the layout cannot hold.
    init(model: NSManagedObjectModel, configuration: String?, file: SQLiteFileJoinTables? = nil) throws {
        let entities = model.entities(forConfigurationName: configuration) ?? []
        do {
            schema = try SQLiteSchema(model: model, configuration: configuration, file: file)
        } catch let error as SQLiteSchemaError {
            throw NSError.coreData(NSPersistentStoreInvalidTypeError, "The model cannot be stored in SQLite: \(error.description).")
        }
        let descriptions = Dictionary(entities.compactMap { e in e.name.map { ($0, e) } }, uniquingKeysWith: { a, _ in a })
        var byName: [String: Entity] = [:], byNumber: [Int: NSEntityDescription] = [:]
        for entity in schema.entities {
            guard let description = descriptions[entity.name], let table = schema.table(named: entity.table) else { continue }
            byNumber[entity.number] = description
            byName[entity.name] = Self.entity(description, entity, table, schema: schema)
        }
        self.byName = byName
        byIdentity = Dictionary(byName.values.map { (ObjectIdentifier($0.description), $0) }, uniquingKeysWith: { a, _ in a })
        self.byNumber = byNumber
    }

    /// The mapping for the existing store file `db`: this one when the file
    /// holds every join table where this mapping has it, with its columns (a
    /// mapping built from the file's join tables would be the same; checked
    /// without a statement), else one built from the file's join tables.
    func reading(_ db: Database, model: NSManagedObjectModel, configuration: String?) throws -> SQLiteMapping {
        let holdsJoinTables = schema.joinTables.allSatisfy { table in
            SQLiteFileSchema.hasTable(table.name, in: db)
                && table.columns.allSatisfy { SQLiteFileSchema.declaredColumn($0.name, of: table.name, in: db) != nil }
        }
        guard !holdsJoinTables else { return self }
        return try SQLiteMapping(model: model, configuration: configuration, file: SQLiteFileJoinTables(db))
    }

    /// The mapping of `entity`; nil when the store does not hold it.
    func entity(_ entity: NSEntityDescription) -> Entity? { byIdentity[ObjectIdentifier(entity)] ?? byName[entity.name ?? ""] }

    /// The model entity whose `Z_ENT` is `number`.
    func entity(number: Int) -> NSEntityDescription? { byNumber[number] }

    /// The DDL of a new store.
    var createStatements: [String] { schema.createStatements }

    private static func entity(_ description: NSEntityDescription, _ entity: SQLiteEntity, _ table: SQLiteTable,
                               schema: SQLiteSchema) -> Entity {
        var attributes: [(NSAttributeDescription, String)] = []
        var relationships: [(NSRelationshipDescription, Storage)] = []
        var columns: [String: String] = [:]
        for property in description.properties where !property.isTransient {
            switch property {
            case let attribute as NSAttributeDescription:
                guard let column = schema.columnName(forProperty: attribute.name, ofEntity: entity.name) else { continue }
                attributes.append((attribute, column))
                columns[attribute.name] = column
            case let relationship as NSRelationshipDescription:
                guard let storage = schema.storage(ofRelationship: relationship.name, ofEntity: entity.name) else { continue }
                relationships.append((relationship, storage))
                if case .foreignKey(let key) = storage { columns[relationship.name] = key.column }
            default: break
            }
        }
        let slots = description.slotLayout
        let attributeSlots = attributes.map { slots.slot(of: $0.0) }
        let relationshipSlots = relationships.map { slots.slot(of: $0.0) }
        let foreignKeySlots = zip(relationships, relationshipSlots).compactMap { relationship, slot in
            if case .foreignKey = relationship.1 { slot } else { nil }
        }
        return Entity(description: description, number: entity.number, numbers: entity.numbers, table: entity.table,
                      attributes: attributes, relationships: relationships, columns: columns,
                      attributeSlots: attributeSlots, relationshipSlots: relationshipSlots,
                      columnSlots: SlotSet(attributeSlots + foreignKeySlots))
    }
}
