/// The indexes Core Data creates for a hierarchy's table, in its order.
///
/// Always: `<TABLE>_<COLUMN>_INDEX` on every foreign key (to-one and hidden
/// to-many keys, not the `Z<n>_` or `Z_FOK_` columns), `<TABLE>_Z_ENT_INDEX`
/// when the root has sub-entities, and `<TABLE>_<C1>_<C2>` per compound index.
/// The rest depends on ``SQLiteSchemaFormat/usesFetchIndexes``: either the
/// old forms — `<TABLE>_<COLUMN>_INDEX` per indexed attribute (written
/// first), uniqueness as table constraints (``tableConstraints(for:hierarchy:)``)
/// — or the fetch-index forms, per entity in Z_ENT order: `Z_<Entity>_<attr>`
/// per indexed attribute (including one named by a one-element ascending
/// fetch index), `Z_<Entity>_<index>` per fetch index and
/// `Z_<Entity>_UNIQUE_<a>_<b>` per uniqueness constraint, with
/// `COLLATE BINARY ASC|DESC` terms.
struct SQLiteIndexLayout {
    var format: SQLiteSchemaFormat

    /// The indexes of `table`, the table of `hierarchy` (root first, Z_ENT
    /// order). Linear in columns and index definitions.
    func indexes(for table: SQLiteTable, hierarchy: [NSEntityDescription]) -> [SQLiteIndex] {
        let keys = table.columns.filter {
            switch $0.role {
            case .foreignKey, .toManyForeignKey: true
            default: false
            }
        }
        var indexes = keys.map { plain($0.name, table) }
        if hierarchy.count > 1 { indexes.append(plain("Z_ENT", table)) }
        if !format.usesFetchIndexes {
            let indexed = table.columns.filter { column in
                guard case .attribute(let entity, let name) = column.role else { return false }
                return hierarchy.first { $0.name == entity }?.propertiesByName[name]?.isIndexed ?? false
            }
            indexes.insert(contentsOf: indexed.map { plain($0.name, table) }, at: 0)
        }
        for entity in hierarchy {
            if format.usesFetchIndexes { indexes += fetchIndexes(entity, table: table) }
            for names in entity.compoundIndexNames {
                let columns = names.compactMap { column(of: $0, in: entity, table: table) }
                indexes.append(SQLiteIndex(name: ([table.name] + columns).joined(separator: "_"), table: table.name,
                                           terms: columns, isUnique: false))
            }
            if format.usesFetchIndexes { indexes += uniqueIndexes(entity, table: table) }
        }
        return indexes
    }

    /// The uniqueness constraints written inside `CREATE TABLE`, as column
    /// names: empty when the format writes unique indexes instead.
    func tableConstraints(for table: SQLiteTable, hierarchy: [NSEntityDescription]) -> [[String]] {
        guard !format.usesFetchIndexes else { return [] }
        return hierarchy.flatMap { entity in
            entity.uniquenessConstraintNames.map { $0.compactMap { column(of: $0, in: entity, table: table) } }
        }
    }

    private func plain(_ column: String, _ table: SQLiteTable) -> SQLiteIndex {
        SQLiteIndex(name: "\(table.name)_\(column)_INDEX", table: table.name, terms: [column], isUnique: false)
    }

    /// The column of the property named `name` as `entity` sees it (inherited included).
    private func column(of name: String, in entity: NSEntityDescription, table: SQLiteTable) -> String? {
        entity.propertiesByName[name].flatMap { table.column(storing: $0)?.name }
    }

    private func term(_ name: String, in entity: NSEntityDescription, table: SQLiteTable, ascending: Bool = true) -> String? {
        column(of: name, in: entity, table: table).map { "\($0) COLLATE BINARY \(ascending ? "ASC" : "DESC")" }
    }

    /// The indexed-property and fetch indexes declared by `entity` itself.
    private func fetchIndexes(_ entity: NSEntityDescription, table: SQLiteTable) -> [SQLiteIndex] {
        let name = entity.name ?? ""
        // Core Data treats a property as indexed when the model says so or when
        // a one-element ascending fetch index names it, and then writes an index
        // for the property besides the fetch index (LoopKit, DuckDuckGo stores).
        var indexed = Set(entity.ownProperties.filter { $0.isIndexed && $0 is NSAttributeDescription }.map(\.name))
        for index in entity.indexes where index.elements.count == 1 {
            if let element = index.elements.first, element.isAscending, element.collationType == .binary,
               let property = element.propertyName { indexed.insert(property) }
        }
        var indexes = indexed.sorted(by: SQLiteEntityNumbering.precedes).compactMap { property in
            term(property, in: entity, table: table).map {
                SQLiteIndex(name: "Z_\(name)_\(property)", table: table.name, terms: [$0], isUnique: false)
            }
        }
        // R-tree elements become virtual tables in Core Data; not generated here.
        for index in entity.indexes where index.elements.allSatisfy({ $0.collationType == .binary }) {
            let terms = index.elements.compactMap { term($0.propertyName ?? "", in: entity, table: table, ascending: $0.isAscending) }
            indexes.append(SQLiteIndex(name: "Z_\(name)_\(index.name)", table: table.name, terms: terms, isUnique: false))
        }
        return indexes
    }

    private func uniqueIndexes(_ entity: NSEntityDescription, table: SQLiteTable) -> [SQLiteIndex] {
        entity.uniquenessConstraintNames.map { names in
            SQLiteIndex(name: "Z_\(entity.name ?? "")_UNIQUE_" + names.joined(separator: "_"), table: table.name,
                        terms: names.compactMap { term($0, in: entity, table: table) }, isUnique: true)
        }
    }
}
