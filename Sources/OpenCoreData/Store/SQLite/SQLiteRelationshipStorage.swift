/// Where the rows of one relationship live in a Core Data store, seen from
/// the entity that has the relationship.
enum SQLiteRelationshipStorage: Hashable, Sendable {
    /// A to-one: a key column in the source's own table.
    case foreignKey(ForeignKey)
    /// A to-many whose inverse is a to-one: the inverse's key column, in the
    /// destination's table, points back at the source.
    case inverseForeignKey(ForeignKey)
    /// A to-many without inverse: the hidden `Z<n><NAME>` key column in the
    /// destination's table points back at the source.
    case hiddenForeignKey(table: String, column: String)
    /// A many-to-many: a join table.
    case joinTable(JoinTable)

    /// A to-one key: the referenced row's `Z_PK` in `column`, its `Z_ENT` in
    /// `entityColumn` when the referenced entity has sub-entities, and the
    /// row's position in an ordered inverse in `orderColumn`.
    struct ForeignKey: Hashable, Sendable {
        var table: String
        var column: String
        var entityColumn: String?
        var orderColumn: String?
    }

    /// A join table: `source` holds the source object's `Z_PK`,
    /// `destination` the destination's, `order` the destination's position
    /// when the relationship is ordered.
    struct JoinTable: Hashable, Sendable {
        var table: String
        var source: String
        var destination: String
        var order: String?
    }

    /// The storage of every stored relationship of every entity (inherited
    /// ones included), by entity name then relationship name. `table(of:)`
    /// gives an entity's table. Linear in relationships times columns.
    static func map(_ entities: [NSEntityDescription], table: (NSEntityDescription?) -> SQLiteTable?,
                    joins: [(pair: SQLiteJoinTableLayout.Pair, table: SQLiteTable)]) -> [String: [String: SQLiteRelationshipStorage]] {
        var joinTables: [String: [String: JoinTable]] = [:]
        for (pair, joinTable) in joins {
            for (relationship, inverse) in [(pair.naming, pair.inverse), (pair.inverse, pair.naming)] {
                let keys = joinTable.primaryKey
                guard keys.count == 2 else { continue }
                // Columns belong to relationships by role; a relationship that is
                // its own inverse owns both, first as source.
                let destination = pair.naming === pair.inverse ? keys[1] : joinTable.column(joinRole(relationship))?.name
                let source = pair.naming === pair.inverse ? keys[0] : joinTable.column(joinRole(inverse))?.name
                guard let destination, let source else { continue }
                let order = joinTable.column(.joinOrderKey(entity: relationship.entity?.name ?? "", relationship: relationship.name))
                joinTables[relationship.entity?.name ?? "", default: [:]][relationship.name] =
                    JoinTable(table: joinTable.name, source: source, destination: destination, order: order?.name)
            }
        }
        var result: [String: [String: SQLiteRelationshipStorage]] = [:]
        for entity in entities {
            var storages: [String: SQLiteRelationshipStorage] = [:]
            for relationship in entity.properties.compactMap({ $0 as? NSRelationshipDescription }) where !relationship.isTransient {
                let owner = relationship.entity?.name ?? ""
                let storage: SQLiteRelationshipStorage?
                if !relationship.isToMany {
                    storage = table(relationship.entity).flatMap { foreignKey(relationship, in: $0) }.map(Self.foreignKey)
                } else if let inverse = relationship.inverseRelationship {
                    storage = inverse.isToMany
                        ? joinTables[owner]?[relationship.name].map(Self.joinTable)
                        : table(inverse.entity).flatMap { foreignKey(inverse, in: $0) }.map(Self.inverseForeignKey)
                } else {
                    let destination = table(relationship.destinationEntity)
                    storage = destination?.column(.toManyForeignKey(entity: owner, relationship: relationship.name)).map {
                        .hiddenForeignKey(table: destination!.name, column: $0.name)
                    }
                }
                storages[relationship.name] = storage
            }
            result[entity.name ?? ""] = storages
        }
        return result
    }

    private static func joinRole(_ r: NSRelationshipDescription) -> SQLiteColumn.Role {
        .joinKey(entity: r.entity?.name ?? "", relationship: r.name)
    }

    private static func foreignKey(_ r: NSRelationshipDescription, in table: SQLiteTable) -> ForeignKey? {
        let entity = r.entity?.name ?? ""
        guard let key = table.column(.foreignKey(entity: entity, relationship: r.name)) else { return nil }
        return ForeignKey(table: table.name, column: key.name,
                          entityColumn: table.column(.foreignEntity(entity: entity, relationship: r.name))?.name,
                          orderColumn: table.column(.orderKey(entity: entity, relationship: r.name))?.name)
    }
}
