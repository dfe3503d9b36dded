import GRDB

/// What an in-place migration knows of both sides: the store's layout under
/// the source model (its tables renamed `Z_MIG_<name>` while the migration
/// runs, but those altered in place), the destination layout, and which entity and property each
/// destination one comes from (the inferred mapping model).
struct SQLiteMigrationSource {
    /// The prefix the source tables carry during the migration, but for
    /// those altered where they are (`inPlace`).
    static let prefix = "Z_MIG_"
    /// The source tables that keep their name until they are altered.
    var inPlace: Set<String> = []

    let source: SQLiteSchema
    let destination: SQLiteSchema
    let sourceModel: NSManagedObjectModel
    let destinationModel: NSManagedObjectModel
    /// Destination entity name → source entity name.
    let sourceEntity: [String: String]
    /// Destination entity name → destination property name → source property name.
    let sourceProperty: [String: [String: String]]
    /// Source entity name → destination entity name.
    private let destinationEntity: [String: String]

    init(source: SQLiteSchema, destination: SQLiteSchema, sourceModel: NSManagedObjectModel,
         destinationModel: NSManagedObjectModel, mapping: NSMappingModel) {
        self.source = source
        self.destination = destination
        self.sourceModel = sourceModel
        self.destinationModel = destinationModel
        var entities: [String: String] = [:], properties: [String: [String: String]] = [:]
        for entityMapping in mapping.entityMappings ?? [] {
            guard let to = entityMapping.destinationEntityName, let from = entityMapping.sourceEntityName else {
                continue
            }
            entities[to] = from
            for property in (entityMapping.attributeMappings ?? []) + (entityMapping.relationshipMappings ?? []) {
                if let name = property.name, let old = property.sourcePropertyName {
                    properties[to, default: [:]][name] = old
                }
            }
        }
        sourceEntity = entities
        destinationEntity = Dictionary(entities.map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        sourceProperty = properties
    }

    /// The source table `name` under its name during the migration.
    func old(_ name: String) -> String { inPlace.contains(name) ? name : Self.prefix + name }

    /// The source entity a destination entity comes from.
    func sourceEntity(of destination: NSEntityDescription) -> NSEntityDescription? {
        sourceEntity[destination.name ?? ""].flatMap { sourceModel.entitiesByName[$0] }
    }

    /// The source property the destination `property` of `entity` comes from.
    func sourceProperty(of property: NSPropertyDescription, in entity: NSEntityDescription) -> NSPropertyDescription? {
        guard let from = sourceEntity(of: entity),
              let name = sourceProperty[entity.name ?? ""]?[property.name] else { return nil }
        return from.propertiesByName[name]
    }

    /// The `CASE` mapping the source entity numbers of `column` (rows of the
    /// source table) to destination numbers; the column itself when none changes.
    func entityNumberExpression(_ column: String, among entities: [SQLiteEntity]) -> String {
        var branches: [String] = [], changed = false
        for entity in entities {
            guard let to = destinationEntityName(ofSource: entity.name),
                  let number = destination.entity(named: to)?.number else {
                changed = true
                continue
            }
            if number != entity.number { changed = true }
            branches.append("WHEN \(entity.number) THEN \(number)")
        }
        guard changed else { return column }
        return branches.isEmpty ? "NULL" : "CASE \(column) \(branches.joined(separator: " ")) ELSE NULL END"
    }

    /// The destination entity a source entity became, if any.
    func destinationEntityName(ofSource name: String) -> String? {
        destinationEntity[name]
    }

    /// The source entities stored in the source table `table`.
    func sourceEntities(inTable table: String) -> [SQLiteEntity] {
        source.entities.filter { $0.table == table }
    }
}
