/// Where the source store keeps the pairs (owner, destination) of one
/// destination relationship, in source primary keys: from the source
/// relationship it was inferred from, or, for a new relationship, from the
/// source relationship its inverse comes from, read backwards.
struct SQLiteMigrationPairs {
    /// `SELECT o, t, ord FROM …`: owner key, destination key, and the
    /// destination's position in the owner's ordered relationship (NULL when
    /// the source kept none).
    var query: String
    /// When each owner row of the source table `table` holds its destination
    /// in `column` (a to-one key): its entity number in `entityColumn` when
    /// the destination had sub-entities.
    var inOwnerRow: (table: String, column: String, entityColumn: String?)?
    /// When each destination row of `table` holds its owner in `column`, and
    /// its position in the owner's ordered relationship in `order`.
    var inDestinationRow: (table: String, column: String, order: String?)?
    /// The source entity the destinations were rows of.
    var destinationEntity: NSEntityDescription?

    /// The pairs of `relationship` (of the destination entity `entity`), nil
    /// when neither it nor its inverse existed in the source.
    static func of(_ relationship: NSRelationshipDescription, in entity: NSEntityDescription,
                   _ context: SQLiteMigrationSource) -> SQLiteMigrationPairs? {
        if let old = context.sourceProperty(of: relationship, in: entity) as? NSRelationshipDescription,
           let pairs = forward(old, context) {
            return pairs
        }
        guard let inverse = relationship.inverseRelationship, let destination = relationship.destinationEntity,
              let old = context.sourceProperty(of: inverse, in: destination) as? NSRelationshipDescription else {
            return nil
        }
        // The source inverse's own inverse is the same pairs read forwards.
        if let oldInverse = old.inverseRelationship, let pairs = forward(oldInverse, context) { return pairs }
        return forward(old, context).map { reversed($0, owner: old.entity) }
    }

    /// The pairs a source relationship stores.
    private static func forward(_ old: NSRelationshipDescription, _ context: SQLiteMigrationSource)
        -> SQLiteMigrationPairs? {
        guard let owner = old.entity?.name,
              let storage = context.source.storage(ofRelationship: old.name, ofEntity: owner) else { return nil }
        let table = { context.old($0) }
        switch storage {
        case .foreignKey(let key):
            return SQLiteMigrationPairs(
                query: "SELECT Z_PK AS o, \(key.column) AS t, NULL AS ord FROM \(table(key.table)) "
                    + "WHERE \(key.column) IS NOT NULL",
                inOwnerRow: (key.table, key.column, key.entityColumn), destinationEntity: old.destinationEntity)
        case .inverseForeignKey(let key):
            return SQLiteMigrationPairs(
                query: "SELECT \(key.column) AS o, Z_PK AS t, \(key.orderColumn ?? "NULL") AS ord "
                    + "FROM \(table(key.table)) WHERE \(key.column) IS NOT NULL",
                inDestinationRow: (key.table, key.column, key.orderColumn), destinationEntity: old.destinationEntity)
        case .hiddenForeignKey(let name, let column):
            return SQLiteMigrationPairs(
                query: "SELECT \(column) AS o, Z_PK AS t, NULL AS ord FROM \(table(name)) WHERE \(column) IS NOT NULL",
                inDestinationRow: (name, column, nil), destinationEntity: old.destinationEntity)
        case .joinTable(let join):
            return SQLiteMigrationPairs(
                query: "SELECT \(join.source) AS o, \(join.destination) AS t, \(join.order ?? "NULL") AS ord "
                    + "FROM \(table(join.table))", destinationEntity: old.destinationEntity)
        }
    }

    /// The same pairs seen from the other side (no order survives).
    private static func reversed(_ pairs: SQLiteMigrationPairs, owner: NSEntityDescription?) -> SQLiteMigrationPairs {
        SQLiteMigrationPairs(query: "SELECT t AS o, o AS t, NULL AS ord FROM (\(pairs.query))",
                                          inOwnerRow: pairs.inDestinationRow.map { ($0.table, $0.column, nil) },
                             inDestinationRow: pairs.inOwnerRow.map { ($0.table, $0.column, nil) },
                             destinationEntity: owner)
    }
}
