/// Lays out the join tables of many-to-many relationships.
///
/// Each column is named after the relationship whose destinations it holds:
/// `Z_<destination number><RELATIONSHIP>`. Of the two relationships of a
/// pair, the one with the greater (destination number, name) names the table
/// after its source, `Z_<source number><RELATIONSHIP>`, and owns the second
/// column; its inverse owns the first. Table and column names are unique
/// across all join tables: a taken name gets the first free numeric suffix.
/// Names are claimed in the model's entity order (an Xcode file lists
/// entities by name), then property order. An ordered side adds `Z_FOK_` +
/// its column name without `Z_`.
///
/// The claim order follows Apple's stores of one messaging app
/// (shared/reference/join-tables.md): `SystemMessage.users` and
/// `Reaction.users`, both towards User, give Reaction's column the plain
/// `Z_21USERS` and SystemMessage's `Z_21USERS1`, although SystemMessage has
/// the smaller entity number (it is numbered under its superentity Message).
/// Names an existing file chose otherwise (a table added by a later
/// migration, a reflexive table named after the other side) are found in the
/// file by ``SQLiteJoinTableDiscovery``.
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

    /// The join tables of `pairs` (same order), with unique names claimed in
    /// the order `claimOrder` gives the naming entities (their position in
    /// the model; missing ones last). O(p log p) in the pair count.
    static func tables(_ pairs: [Pair], numbers: [ObjectIdentifier: Int],
                       claimOrder: [ObjectIdentifier: Int] = [:]) -> [SQLiteTable] {
        var tableNames = SQLiteNameSet(), columnNames = SQLiteNameSet()
        func number(_ entity: NSEntityDescription?) -> Int { entity.map { numbers[ObjectIdentifier($0)] ?? 0 } ?? 0 }
        func rank(_ pair: Pair) -> Int { pair.naming.entity.flatMap { claimOrder[ObjectIdentifier($0)] } ?? Int.max }
        // Ties keep the pairs' own order, which is property order inside an entity.
        let claiming = pairs.indices.sorted { (rank(pairs[$0]), $0) < (rank(pairs[$1]), $1) }
        var result = [SQLiteTable?](repeating: nil, count: pairs.count)
        for index in claiming {
            let pair = pairs[index]
            let name = tableNames.claim("Z_\(number(pair.naming.entity))" + pair.naming.name.uppercased())
            let sides = [pair.inverse, pair.naming]
            let keys = sides.map { r in
                SQLiteColumn(name: columnNames.claim("Z_\(number(r.destinationEntity))" + r.name.uppercased()),
                             type: .integer, role: .joinKey(entity: r.entity?.name ?? "", relationship: r.name))
            }
            let ordered = zip(sides, keys).filter { $0.0.isOrdered }.prefix(pair.naming === pair.inverse ? 1 : 2)
            let orderKeys = ordered.map { r, key in
                SQLiteColumn(name: "Z_FOK_" + key.name.dropFirst(2), type: .integer,
                             role: .joinOrderKey(entity: r.entity?.name ?? "", relationship: r.name))
            }
            result[index] = SQLiteTable(name: name, columns: keys + orderKeys, primaryKey: keys.map(\.name))
        }
        return result.map { $0! }
    }

    /// The index Core Data puts on a join table (from framework 849):
    /// `<TABLE>_<SECOND>_INDEX` on (second, first), so that both directions
    /// of the relationship are served by an index, the primary key covering
    /// the other.
    static func index(_ table: SQLiteTable) -> SQLiteIndex {
        let (first, second) = (table.primaryKey[0], table.primaryKey[1])
        return SQLiteIndex(name: "\(table.name)_\(second)_INDEX", table: table.name, terms: [second, first],
                           isUnique: false)
    }
}
