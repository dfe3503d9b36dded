/// Lays out the table of one entity hierarchy: which columns, what they are
/// called and in which order Core Data creates them.
///
/// The order (docs/SQLiteLayout.md): `Z_PK, Z_ENT, Z_OPT`, then one group per
/// column type in ``SQLiteColumnType/groupRank`` order; inside a group the
/// hierarchy's entities in Z_ENT order, and inside an entity its properties
/// in model order. Model order is not name order: Xcode writes model files
/// sorted by name, so only a model built in code shows the difference
/// (CoreDataPlus's SampleModel2 store: `ZUNIQUEID BLOB, ZCOVER BLOB`).
/// In the INTEGER group each entity's attributes are followed by its to-one
/// foreign keys (each with its `Z<n>_` entity column), then their `Z_FOK_`
/// order keys, then the hidden keys of to-many relationships without inverse
/// that point at it. Names are given in entity order, within an entity
/// attributes then relationships; a taken name gets a numeric suffix.
struct SQLiteTableLayout {
    /// The Z_ENT of every entity of the model.
    var numbers: [ObjectIdentifier: Int]
    /// To-many relationships without inverse, by destination entity.
    var uninvertedToMany: [ObjectIdentifier: [NSRelationshipDescription]]

    /// The table named `name` for `hierarchy` (root first, in Z_ENT order).
    /// Linear in the number of properties.
    func table(named name: String, hierarchy: [NSEntityDescription]) throws -> SQLiteTable {
        var names = SQLiteNameSet(["Z_PK", "Z_ENT", "Z_OPT"])
        var groups = Array(repeating: [SQLiteColumn](), count: 5)
        for entity in hierarchy {
            let entityName = entity.name ?? ""
            let own = entity.ownProperties.filter { !$0.isTransient }
            for attribute in own.compactMap({ $0 as? NSAttributeDescription }) {
                guard let type = SQLiteColumnType(attributeType: attribute.attributeType) else {
                    throw SQLiteSchemaError.unsupported(attribute)
                }
                let column = SQLiteColumn(name: names.claim("Z" + attribute.name.uppercased()), type: type,
                                          role: .attribute(entity: entityName, name: attribute.name))
                groups[type.groupRank].append(column)
            }
            var keys: [SQLiteColumn] = [], orderKeys: [SQLiteColumn] = []
            for relationship in own.compactMap({ $0 as? NSRelationshipDescription }) where !relationship.isToMany {
                let key = names.claim("Z" + relationship.name.uppercased())
                keys.append(SQLiteColumn(name: key, type: .integer, role: .foreignKey(entity: entityName, relationship: relationship.name)))
                if let destination = relationship.destinationEntity, !destination.subentities.isEmpty {
                    let number = numbers[ObjectIdentifier(destination)] ?? 0
                    keys.append(SQLiteColumn(name: names.claim("Z\(number)_" + key.dropFirst()), type: .integer,
                                             role: .foreignEntity(entity: entityName, relationship: relationship.name)))
                }
                if let inverse = relationship.inverseRelationship, inverse.isToMany, inverse.isOrdered {
                    orderKeys.append(SQLiteColumn(name: names.claim("Z_FOK_" + key.dropFirst()), type: .integer,
                                                  role: .orderKey(entity: entityName, relationship: relationship.name)))
                }
            }
            let incoming = (uninvertedToMany[ObjectIdentifier(entity)] ?? []).map { relationship in
                let source = relationship.entity
                let number = source.map { numbers[ObjectIdentifier($0)] ?? 0 } ?? 0
                return SQLiteColumn(name: names.claim("Z\(number)" + relationship.name.uppercased()), type: .integer,
                                    role: .toManyForeignKey(entity: source?.name ?? "", relationship: relationship.name))
            }
            groups[0] += keys + orderKeys + incoming
        }
        // Each entity appended its own columns group by group, so concatenating
        // the groups yields "group, then entity, then model order".
        let fixed = [SQLiteColumn(name: "Z_PK", type: .integer, role: .primaryKey),
                     SQLiteColumn(name: "Z_ENT", type: .integer, role: .entity),
                     SQLiteColumn(name: "Z_OPT", type: .integer, role: .version)]
        return SQLiteTable(name: name, columns: fixed + groups.joined())
    }
}
