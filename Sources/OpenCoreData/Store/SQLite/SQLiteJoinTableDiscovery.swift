/// Finds, in an existing store file, the join table and columns that hold each
/// many-to-many pair of a model, where the file's names differ from the ones
/// ``SQLiteJoinTableLayout`` computes.
///
/// Computing is not enough for stores Core Data has migrated: a table added
/// by a later model version takes the next free suffix (artsy
/// `Z_3LOCATIONS ( Z_3ARTWORKS2, … )`), and a reflexive pair's table can be
/// named after either side (`Z_22TRUSTEDCLIENTS` in one version of an app,
/// `Z_24TRUSTEDBYCLIENTS` in a later one; shared/reference/join-tables.md).
/// The columns are the evidence: each is `Z_<destination number><NAME>`, maybe
/// with a numeric suffix, so a pair's table is the one whose two key columns
/// are its two relationships' (the inverse's name tells apart two same-named
/// relationships towards one entity). The table's own name is not trusted.
enum SQLiteJoinTableDiscovery {
    /// `computed` (the tables ``SQLiteJoinTableLayout`` gave `pairs`, same
    /// order) with each replaced by the file's table holding the same pair
    /// when the file does not have the computed one. A pair the file holds
    /// nowhere keeps its computed table, which the layout check then reports
    /// missing (134020). Each file table serves one pair. O(pairs × tables).
    static func resolve(_ pairs: [SQLiteJoinTableLayout.Pair], computed: [SQLiteTable],
                        numbers: [ObjectIdentifier: Int], in file: SQLiteFileJoinTables) -> [SQLiteTable] {
        let byName = Dictionary(file.tables.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var used = Set<String>()
        var result = computed
        var unresolved: [Int] = []
        // Tables the file has exactly as computed are taken first, so that a
        // search for another pair cannot claim them.
        for (index, table) in computed.enumerated() {
            if let found = byName[table.name], fits(table, found) {
                used.insert(found.name)
            } else {
                unresolved.append(index)
            }
        }
        for index in unresolved {
            let pair = pairs[index]
            let candidates = file.tables.filter { !used.contains($0.name) }
                .compactMap { match(pair, computed[index], $0, numbers: numbers) }
            // Two candidates only when the file has two tables for one pair: take the
            // one whose columns are the computed names, else the first by name.
            let exact = candidates.first { $0.primaryKey == computed[index].primaryKey }
            guard let table = exact ?? candidates.first else { continue }
            used.insert(table.name)
            result[index] = table
        }
        return result
    }

    /// Whether the file's `found` has the computed table's key and order columns.
    private static func fits(_ table: SQLiteTable, _ found: SQLiteFileJoinTables.Table) -> Bool {
        let columns = Set(found.columns)
        return table.columns.allSatisfy { columns.contains($0.name) }
    }

    /// The file's `table` as the join table of `pair`, with roles, or nil when
    /// its key columns are not the pair's.
    private static func match(_ pair: SQLiteJoinTableLayout.Pair, _ computed: SQLiteTable,
                              _ table: SQLiteFileJoinTables.Table, numbers: [ObjectIdentifier: Int]) -> SQLiteTable? {
        let keys = table.primaryKey.count == 2 ? table.primaryKey : table.columns.filter { !$0.hasPrefix("Z_FOK_") }
        guard keys.count == 2 else { return nil }
        let sides = [pair.inverse, pair.naming]
        func stem(_ r: NSRelationshipDescription) -> String {
            "Z_\(r.destinationEntity.map { numbers[ObjectIdentifier($0)] ?? 0 } ?? 0)" + r.name.uppercased()
        }
        func holds(_ column: String, _ r: NSRelationshipDescription) -> Bool {
            let base = stem(r)
            return column.hasPrefix(base) && column.dropFirst(base.count).allSatisfy(\.isNumber)
        }
        // Which key holds which side; a symmetric relationship owns both, in key order.
        let assigned: [String]
        if pair.naming === pair.inverse {
            guard keys.allSatisfy({ holds($0, pair.naming) }) else { return nil }
            assigned = keys
        } else if holds(keys[0], sides[0]) && holds(keys[1], sides[1]) {
            assigned = keys
        } else if holds(keys[1], sides[0]) && holds(keys[0], sides[1]) {
            assigned = [keys[1], keys[0]]
        } else {
            return nil
        }
        var columns = zip(sides, assigned).map { r, name in
            SQLiteColumn(name: name, type: .integer, role: .joinKey(entity: r.entity?.name ?? "", relationship: r.name))
        }
        // An ordered side needs its order column; without it the table is not this pair's.
        let orderSides = pair.naming === pair.inverse ? [(pair.naming, assigned[0])]
                                                      : Array(zip(sides, assigned))
        for (r, key) in orderSides where r.isOrdered {
            let order = "Z_FOK_" + key.dropFirst(2)
            guard table.columns.contains(order) else { return nil }
            columns.append(SQLiteColumn(name: order, type: .integer,
                                        role: .joinOrderKey(entity: r.entity?.name ?? "", relationship: r.name)))
        }
        // The relationship storage reads a symmetric pair's keys by position, so keep the file's key order.
        return SQLiteTable(name: table.name, columns: columns, primaryKey: keys)
    }
}
