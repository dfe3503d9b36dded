/// Join tables of many-to-many relationships that are their own inverse
/// (`Person.friends ⟷ Person.friends`), which ``SQLiteJoinTableLayout`` does
/// not lay out because it pairs two distinct relationships.
///
/// The table is `Z_<n><NAME>` and its columns are `Z_<n><NAME>` (the source)
/// and `Z_<n><NAME>1` (the destination): the names the pair rule gives when
/// both sides are the same relationship. A link between a and b is stored as
/// two rows, (a, b) and (b, a), so each side reads like any other join table.
enum SQLiteReflexiveJoinTables {
    struct Table {
        var entity: String
        var relationship: String
        var columns: SQLiteSchema.JoinColumns
        var table: SQLiteTable
    }

    /// The reflexive join tables of `model`'s entities in `schema`, named so
    /// they clash with none of the schema's tables. Linear in the relationships.
    static func tables(model entities: [NSEntityDescription], schema: SQLiteSchema) -> [Table] {
        var used = Set(schema.tables.map(\.name))
        var result: [Table] = []
        for entity in schema.entities {
            guard let description = entities.first(where: { $0.name == entity.name }) else { continue }
            let own = description.ownProperties.compactMap { $0 as? NSRelationshipDescription }
                .filter { $0.isToMany && !$0.isTransient && $0.inverseRelationship === $0 }
                .sorted { SQLiteEntityNumbering.precedes($0.name, $1.name) }
            for relationship in own {
                let base = "Z_\(entity.number)" + relationship.name.uppercased()
                var name = base, suffix = 0
                while used.contains(name) { suffix += 1; name = base + String(suffix) }
                used.insert(name)
                let source = base, destination = base + "1"
                let order = relationship.isOrdered ? "Z_FOK_" + destination.dropFirst(2) : nil
                var columns = [SQLiteColumn(name: source, type: .integer, role: .joinKey(entity: entity.name, relationship: relationship.name)),
                               SQLiteColumn(name: destination, type: .integer, role: .joinKey(entity: entity.name, relationship: relationship.name))]
                if let order {
                    columns.append(SQLiteColumn(name: order, type: .integer, role: .joinOrderKey(entity: entity.name, relationship: relationship.name)))
                }
                result.append(Table(entity: entity.name, relationship: relationship.name,
                                    columns: .init(table: name, source: source, destination: destination, order: order),
                                    table: SQLiteTable(name: name, columns: columns, primaryKey: [source, destination])))
            }
        }
        return result
    }

    /// The DDL of `tables`: each table and the index on its second column.
    static func createStatements(_ tables: [Table]) -> [String] {
        tables.flatMap { t in
            [t.table.createStatement,
             "CREATE INDEX \(t.table.name)_\(t.columns.destination)_INDEX ON \(t.table.name) (\(t.columns.destination), \(t.columns.source))"]
        }
    }
}
