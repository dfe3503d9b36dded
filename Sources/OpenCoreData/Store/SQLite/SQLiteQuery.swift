import GRDB

/// One SELECT being built: table aliases, the LEFT JOINs that key paths
/// through to-one relationships need, and the bound arguments. Key paths are
/// resolved against the mapping, so only the schema's names and `?`
/// placeholders reach the SQL text.
final class SQLiteQuery {
    let mapping: SQLiteMapping
    private(set) var arguments: [DatabaseValue] = []
    private var aliasCount = 0

    init(mapping: SQLiteMapping) { self.mapping = mapping }

    /// A placeholder bound to `value`.
    func bind(_ value: DatabaseValueConvertible?) -> String {
        arguments.append(value?.databaseValue ?? .null)
        return "?"
    }

    /// The result of `body`, or nil with every argument it bound taken back
    /// (a condition that could not be written completely leaves no trace).
    func attempt(_ body: () -> String?) -> String? {
        let count = arguments.count
        guard let result = body() else {
            arguments.removeLast(arguments.count - count)
            return nil
        }
        return result
    }

    func newAlias() -> String {
        defer { aliasCount += 1 }
        return "t\(aliasCount)"
    }

    /// A FROM clause and the joins its key paths added, for one table alias
    /// (the fetch itself, or a subquery over a to-many relationship).
    final class Scope {
        let query: SQLiteQuery
        let alias: String
        let entity: SQLiteMapping.Entity
        /// SUBQUERY iteration variables by name.
        var variables: [String: (alias: String, entity: SQLiteMapping.Entity)]
        private(set) var joins: [String] = []
        private var joinAliases: [String: String] = [:]

        init(query: SQLiteQuery, alias: String, entity: SQLiteMapping.Entity,
             variables: [String: (alias: String, entity: SQLiteMapping.Entity)] = [:]) {
            self.query = query
            self.alias = alias
            self.entity = entity
            self.variables = variables
        }

        /// The alias of the destination of to-one `column` of `alias`, joined once.
        func join(from alias: String, column: String, to destination: SQLiteMapping.Entity) -> String {
            let key = "\(alias).\(column)"
            if let existing = joinAliases[key] { return existing }
            let joined = query.newAlias()
            joins.append("LEFT JOIN \(destination.table) \(joined) ON \(joined).Z_PK = \(alias).\(column)")
            joinAliases[key] = joined
            return joined
        }
    }

    /// What a key path leads to from a row.
    enum Target {
        /// An attribute column (`t1.ZNAME`), NULL when unset or a to-one on the way is nil.
        case attribute(sql: String, attribute: NSAttributeDescription)
        /// An object: its key and the column of its entity number.
        case object(key: String, entityNumber: String?)
        /// The destinations of a to-many relationship of the row `owner`, then `rest` of the path.
        case toMany(owner: String, relationship: NSRelationshipDescription, storage: SQLiteMapping.Storage, rest: [String])
    }

    /// Follows `path` from `alias` (a row of `entity`) within `scope`: to-one
    /// steps become joins, the first to-many step stops the walk. Nil for keys
    /// the entity does not store (transient, unknown, collection operators).
    func resolve(_ path: [String], alias: String, entity: SQLiteMapping.Entity, in scope: Scope) -> Target? {
        var alias = alias, entity = entity
        guard !path.isEmpty else {
            return .object(key: "\(alias).Z_PK", entityNumber: "\(alias).Z_ENT")
        }
        for (index, key) in path.enumerated() {
            let isLast = index == path.count - 1
            if let column = entity.columns[key], let attribute = entity.description.attributesByName[key], !attribute.isTransient {
                return isLast ? .attribute(sql: "\(alias).\(column)", attribute: attribute) : nil
            }
            guard let (relationship, storage) = entity.relationships.first(where: { $0.relationship.name == key }) else { return nil }
            switch storage {
            case .foreignKey(let key):
                let (column, entityColumn) = (key.column, key.entityColumn)
                guard let destination = relationship.destinationEntity.flatMap(mapping.entity) else { return nil }
                if isLast {
                    return .object(key: "\(alias).\(column)", entityNumber: entityColumn.map { "\(alias).\($0)" })
                }
                alias = scope.join(from: alias, column: column, to: destination)
                entity = destination
            default:
                return .toMany(owner: alias, relationship: relationship, storage: storage, rest: Array(path[(index + 1)...]))
            }
        }
        return nil
    }

    /// `FROM … WHERE <correlation>` selecting the destinations of a to-many
    /// relationship of `owner` as alias `destination`, or nil when the
    /// destination entity has no table here.
    func destinations(of relationship: NSRelationshipDescription, storage: SQLiteMapping.Storage, owner: String,
                      destination: String) -> (from: String, correlation: String, entity: SQLiteMapping.Entity)? {
        guard let entity = relationship.destinationEntity.flatMap(mapping.entity) else { return nil }
        switch storage {
        case .inverseForeignKey(let key):
            return ("\(key.table) \(destination)", "\(destination).\(key.column) = \(owner).Z_PK", entity)
        case .hiddenForeignKey(let table, let column):
            return ("\(table) \(destination)", "\(destination).\(column) = \(owner).Z_PK", entity)
        case .joinTable(let join):
            let link = newAlias()
            return ("\(join.table) \(link) JOIN \(entity.table) \(destination) ON \(destination).Z_PK = \(link).\(join.destination)",
                    "\(link).\(join.source) = \(owner).Z_PK", entity)
        case .foreignKey:
            return nil
        }
    }
}
