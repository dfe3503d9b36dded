/// Lays out the join tables of many-to-many relationships.
///
/// Each column is named after the relationship whose destinations it holds:
/// `Z_<destination number><RELATIONSHIP>`. Of the two relationships of a
/// pair, the one with the greater (destination number, name) names the table
/// after its source, `Z_<source number><RELATIONSHIP>`, and owns the second
/// column; its inverse owns the first. Table and column names are unique
/// across all join tables: a taken name gets the first free numeric suffix,
/// in the order of the naming relationships (source number, then model order).
/// An ordered side adds `Z_FOK_` + its column name without `Z_`.
enum SQLiteJoinTableLayout {
    /// One many-to-many pair: the relationship that names the table, and its inverse.
    struct Pair {
        var naming: NSRelationshipDescription
        var inverse: NSRelationshipDescription
    }

    /// The many-to-many pairs among `entities` (in Z_ENT order), in table order.
    static func pairs(_ entities: [NSEntityDescription], numbers: [ObjectIdentifier: Int]) -> [Pair] {
        func key(_ r: NSRelationshipDescription) -> (Int, String) {
            (r.destinationEntity.map { numbers[ObjectIdentifier($0)] ?? 0 } ?? 0, r.name)
        }
        func greater(_ a: NSRelationshipDescription, _ b: NSRelationshipDescription) -> Bool {
            let (ka, kb) = (key(a), key(b))
            return ka.0 != kb.0 ? ka.0 > kb.0 : SQLiteEntityNumbering.precedes(kb.1, ka.1)
        }
        var pairs: [Pair] = []
        for entity in entities {
            let own = entity.ownProperties.compactMap { $0 as? NSRelationshipDescription }
            for relationship in own where relationship.isToMany && !relationship.isTransient {
                // A relationship that is its own inverse (symmetric "friends") is a
                // pair with itself; its second column then takes a suffix. [Inf]
                guard let inverse = relationship.inverseRelationship, inverse.isToMany,
                      inverse === relationship || greater(relationship, inverse) else { continue }
                pairs.append(Pair(naming: relationship, inverse: inverse))
            }
        }
        return pairs
    }

    /// The join tables of `pairs`, with unique names. Linear in the pair count.
    static func tables(_ pairs: [Pair], numbers: [ObjectIdentifier: Int]) -> [SQLiteTable] {
        var tableNames = SQLiteNameSet(), columnNames = SQLiteNameSet()
        func number(_ entity: NSEntityDescription?) -> Int { entity.map { numbers[ObjectIdentifier($0)] ?? 0 } ?? 0 }
        return pairs.map { pair in
            let name = tableNames.claim("Z_\(number(pair.naming.entity))" + pair.naming.name.uppercased())
            let sides = [pair.inverse, pair.naming]
            let keys = sides.map { r in
                SQLiteColumn(name: columnNames.claim("Z_\(number(r.destinationEntity))" + r.name.uppercased()),
                             type: .integer, role: .joinKey(entity: r.entity?.name ?? "", relationship: r.name))
            }
            let orderKeys = zip(sides, keys).filter { $0.0.isOrdered }.prefix(pair.naming === pair.inverse ? 1 : 2).map { r, key in
                SQLiteColumn(name: "Z_FOK_" + key.name.dropFirst(2), type: .integer,
                             role: .joinOrderKey(entity: r.entity?.name ?? "", relationship: r.name))
            }
            return SQLiteTable(name: name, columns: keys + orderKeys, primaryKey: keys.map(\.name))
        }
    }

    /// The index Core Data puts on a join table (from framework 849):
    /// `<TABLE>_<SECOND>_INDEX` on (second, first), so that both directions
    /// of the relationship are served by an index, the primary key covering
    /// the other.
    static func index(_ table: SQLiteTable) -> SQLiteIndex {
        let (first, second) = (table.primaryKey[0], table.primaryKey[1])
        return SQLiteIndex(name: "\(table.name)_\(second)_INDEX", table: table.name, terms: [second, first], isUnique: false)
    }
}
