/// The indexes Core Data creates for a hierarchy's table, in its order.
///
/// Always: `<TABLE>_<COLUMN>_INDEX` on every foreign key (to-one and hidden
/// to-many keys, not the `Z<n>_` or `Z_FOK_` columns), and
/// `<TABLE>_Z_ENT_INDEX` when the root has sub-entities. Then, depending on
/// ``SQLiteSchemaFormat/usesFetchIndexes``, either the old forms —
/// `<TABLE>_<COLUMN>_INDEX` per indexed attribute (written first),
/// `<TABLE>_<C1>_<C2>` per compound index, uniqueness as table constraints —
/// or the fetch-index forms, per entity in Z_ENT order: `Z_<Entity>_<attr>`
/// per indexed attribute (including one named by a one-element ascending
/// fetch index), `Z_<Entity>_<index>` per fetch index,
/// `Z_<Entity>_UNIQUE_<a>_<b>` per uniqueness constraint, with
/// `COLLATE BINARY ASC|DESC` terms.
struct SQLiteIndexLayout {
    var format: SQLiteSchemaFormat

    /// The indexes of `table`, and the table with its constraints set when the
    /// format writes them inline. Linear in columns and index definitions.
    func indexes(for table: inout SQLiteTable, hierarchy: [NSEntityDescription]) -> [SQLiteIndex] {
        func plain(_ column: String) -> SQLiteIndex {
            SQLiteIndex(name: "\(table.name)_\(column)_INDEX", table: table.name, terms: [column], isUnique: false)
        }
        let keys = table.columns.filter {
            switch $0.role {
            case .foreignKey, .toManyForeignKey: true
            default: false
            }
        }.map(\.name)
        var indexes = keys.map(plain)
        if hierarchy.count > 1 { indexes.append(plain("Z_ENT")) }
        let snapshot = table
        func columnOf(_ entity: NSEntityDescription) -> (String) -> String? {
            { name in entity.propertiesByName[name].flatMap { snapshot.column(storing: $0)?.name } }
        }
        if format.usesFetchIndexes {
            for entity in hierarchy {
                indexes += fetchIndexes(entity, table: table.name, columnOf: columnOf(entity))
            }
        } else {
            let indexed = table.columns.filter { column in
                guard case .attribute(let entity, let name) = column.role else { return false }
                return hierarchy.first { $0.name == entity }?.propertiesByName[name]?.isIndexed ?? false
            }
            indexes.insert(contentsOf: indexed.map { plain($0.name) }, at: 0)
            for entity in hierarchy {
                let resolve = columnOf(entity)
                for names in entity.compoundIndexNames {
                    let columns = names.compactMap(resolve)
                    indexes.append(SQLiteIndex(name: ([table.name] + columns).joined(separator: "_"), table: table.name,
                                               terms: columns, isUnique: false))
                }
                table.uniqueConstraints += entity.uniquenessConstraintNames.map { $0.compactMap(resolve) }
            }
        }
        return indexes
    }

    /// The fetch-index-era indexes declared by `entity` itself.
    private func fetchIndexes(_ entity: NSEntityDescription, table: String, columnOf: @escaping (String) -> String?) -> [SQLiteIndex] {
        let name = entity.name ?? ""
        func term(_ property: String, ascending: Bool = true) -> String? {
            columnOf(property).map { "\($0) COLLATE BINARY \(ascending ? "ASC" : "DESC")" }
        }
        // Core Data treats a property as indexed when the model says so or when
        // a one-element ascending fetch index names it, and then writes an index
        // for the property besides the fetch index (LoopKit, DuckDuckGo stores).
        var indexed = Set(entity.ownProperties.filter { $0.isIndexed && $0 is NSAttributeDescription }.map(\.name))
        for index in entity.indexes where index.elements.count == 1 {
            if let element = index.elements.first, element.isAscending, element.collationType == .binary,
               let property = element.propertyName { indexed.insert(property) }
        }
        var indexes = indexed.sorted(by: SQLiteEntityNumbering.precedes).compactMap { property in
            term(property).map { SQLiteIndex(name: "Z_\(name)_\(property)", table: table, terms: [$0], isUnique: false) }
        }
        // R-tree elements become virtual tables in Core Data; not generated here.
        for index in entity.indexes where index.elements.allSatisfy({ $0.collationType == .binary }) {
            let terms = index.elements.compactMap { term($0.propertyName ?? "", ascending: $0.isAscending) }
            indexes.append(SQLiteIndex(name: "Z_\(name)_\(index.name)", table: table, terms: terms, isUnique: false))
        }
        for names in entity.compoundIndexNames {
            let columns = names.compactMap(columnOf)
            indexes.append(SQLiteIndex(name: ([table] + columns).joined(separator: "_"), table: table, terms: columns, isUnique: false))
        }
        for names in entity.uniquenessConstraintNames {
            indexes.append(SQLiteIndex(name: "Z_\(name)_UNIQUE_" + names.joined(separator: "_"), table: table,
                                       terms: names.compactMap { term($0) }, isUnique: true))
        }
        return indexes
    }
}
