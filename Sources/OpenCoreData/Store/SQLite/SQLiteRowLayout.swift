import GRDB

/// Where an entity's columns sit in the rows of one query: looked up by name
/// once per entity and query, so that reading a row costs positional reads
/// instead of a case-insensitive name search per column (GRDB's `row[name]`).
final class SQLiteRowLayout {
    /// The positions of one entity's columns; nil where the query lacks one.
    struct Columns {
        let entity: Int?
        let version: Int?
        /// In the order of `SQLiteMapping.Entity.attributes`.
        let attributes: [Int?]
        /// Per `SQLiteMapping.Entity.relationships`: the key column and the
        /// destination entity column of a to-one foreign key.
        let foreignKeys: [(key: Int?, entity: Int?)]
    }

    private let positions: [String: Int]
    private var byEntity: [ObjectIdentifier: Columns] = [:]

    /// The layout of rows with `columnNames` (a statement's); a name
    /// selected twice is found at its first position.
    init(columnNames: [String]) {
        var positions: [String: Int] = [:]
        for (index, name) in columnNames.enumerated() where positions[name.uppercased()] == nil {
            positions[name.uppercased()] = index
        }
        self.positions = positions
    }

    func columns(of entity: SQLiteMapping.Entity) -> Columns {
        if let known = byEntity[ObjectIdentifier(entity.description)] { return known }
        let columns = Columns(
            entity: position("Z_ENT"), version: position("Z_OPT"),
            attributes: entity.attributes.map { position($0.column) },
            foreignKeys: entity.relationships.map { _, storage in
                guard case .foreignKey(let key) = storage else { return (nil, nil) }
                return (position(key.column), key.entityColumn.flatMap(position))
            })
        byEntity[ObjectIdentifier(entity.description)] = columns
        return columns
    }

    private func position(_ column: String) -> Int? { positions[column.uppercased()] }
}
