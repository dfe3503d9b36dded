import GRDB

/// A model rebuilt from a Core Data SQLite file whose model is unknown, good
/// enough to open the store read-only and read every object.
///
/// Z_PRIMARYKEY gives entity names, numbers and the hierarchy; each
/// hierarchy's table gives attributes (by declared column type) and to-one
/// keys; `Z<n><NAME>` columns give to-many relationships without inverse;
/// join tables give many-to-many pairs. What the file does not say is listed
/// in ``unrecovered`` (docs/SQLiteLayout.md explains the naming rules
/// inverted here).
public struct SQLiteModelReconstruction {
    /// The rebuilt model. Property names are spelled as the store's model
    /// cache (Z_MODELCACHE) spells them, or else are the column names in lower case.
    public let model: NSManagedObjectModel
    /// Facts the store does not hold, one sentence each, for people.
    public let unrecovered: [String]

    /// Reads the bookkeeping and schema of the store at `url` (without changing it).
    public init(store url: URL) throws {
        var configuration = Configuration()
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(path: url.path, configuration: configuration)
            (model, unrecovered) = try queue.read { db in
                var builder = try Builder(db, file: url)
                return try builder.build()
            }
        } catch let error as DatabaseError {
            throw NSError.coreData(NSPersistentStoreOpenError, "Cannot read the schema of \(url.lastPathComponent): \(error.message ?? "\(error)").",
                                   userInfo: [NSFilePathErrorKey: url.path, NSUnderlyingErrorKey: error as NSError])
        }
    }
}

/// The column-name patterns, made once: a regex literal is parsed again each
/// time it is evaluated, and the builder matches every column against several.
private enum Patterns {
    /// `Z<n><NAME>`: a to-many without inverse from entity n.
    nonisolated(unsafe) static let hiddenKey = /Z(\d+)([A-Z].*)/
    /// `Z<n>_<NAME>`: the entity column of a to-one key.
    nonisolated(unsafe) static let entityColumn = /Z\d+_.*/
    /// The start of an entity column's name.
    nonisolated(unsafe) static let entityPrefix = /Z\d+_/
    /// `Z_<n><NAME><suffix>`: a join table's key column.
    nonisolated(unsafe) static let joinKey = /Z_(\d+)([A-Z][A-Z0-9_]*?)\d*/
}

/// The reconstruction's working state: entities by Z_ENT, the notes so far.
private struct Builder {
    let db: Database
    let entities: [Int: NSEntityDescription]
    let supers: [Int: Int]
    /// The model's spelling of property names, when the store keeps its model cache.
    let cachedNames: SQLiteModelCacheNames
    var notes: [String] = [
        "property names: Core Data keeps them only in capitals (ZFIRSTNAME), so they are given in lower case",
        "attribute types: INTEGER columns read as Integer 64 (Integer 16/32, Boolean not told apart), FLOAT as Double, "
            + "BLOB as Binary Data (UUID, Transformable not told apart)",
        "properties of subentities: a hierarchy shares one table, so every column is given to the root entity",
        "abstract entities, optionality, defaults, validation, delete rules, fetched properties and fetch requests",
        "to-many inverses of to-one keys: not stored, so to-one relationships have no inverse",
    ]

    /// Reads Z_PRIMARYKEY, checked (``SQLitePrimaryKeyTable``): names are
    /// entity names and every superentity chain ends at a root.
    init(_ db: Database, file: URL) throws {
        self.db = db
        // Numbers from 16000 are persistent history's own entities (ACHANGE, ATRANSACTION…), not the app's.
        let rows = try SQLitePrimaryKeyTable.rows(db, file: file).filter { $0.number < 16000 }
        entities = Dictionary(rows.map { ($0.number, NSEntityDescription(name: $0.name)) }, uniquingKeysWith: { a, _ in a })
        supers = Dictionary(rows.map { ($0.number, $0.superNumber) }, uniquingKeysWith: { a, _ in a })
        cachedNames = SQLiteModelCacheNames(db)
        if !cachedNames.isEmpty { notes.removeFirst() } // the property names note: the cache gave them
    }

    mutating func build() throws -> (NSManagedObjectModel, [String]) {
        for (number, parent) in supers.sorted(by: { $0.key < $1.key }) where parent != 0 {
            guard let entity = entities[number], let superentity = entities[parent] else { continue }
            superentity.subentities.append(entity)
        }
        for (number, entity) in entities.sorted(by: { $0.key < $1.key }) where supers[number] == 0 {
            try addColumns(ofTable: "Z" + (entity.name ?? "").uppercased(), to: entity, number: number)
        }
        try addJoinTables()
        let model = NSManagedObjectModel()
        model.entities = entities.sorted { $0.key < $1.key }.map(\.value)
        return (model, notes)
    }

    mutating func addColumns(ofTable table: String, to root: NSEntityDescription, number: Int) throws {
        guard try db.tableExists(table) else { notes.append("entity \(root.name ?? ""): no table \(table)"); return }
        let columns = try db.columns(in: table).filter { !["Z_PK", "Z_ENT", "Z_OPT"].contains($0.name) }
        let names = Set(columns.map(\.name))
        let indexed = Set(try db.indexes(on: table).filter { $0.columns.count == 1 && $0.name == "\(table)_\($0.columns[0])_INDEX" }.map { $0.columns[0] })
        for column in columns {
            let name = column.name
            if name.hasPrefix("Z_FOK_") {
                notes.append("\(table).\(name): order key of an ordered to-many whose name is not stored; the order is not read")
            } else if let hidden = name.wholeMatch(of: Patterns.hiddenKey), let number = Int(hidden.1),
                      let source = entities[number] {
                // A to-many without inverse from entity n, stored in its destination's table.
                source.properties.append(NSRelationshipDescription(name: cachedNames.propertyName(String(hidden.2)),
                                                                   destination: root, toMany: true))
            } else if name.wholeMatch(of: Patterns.entityColumn) != nil {
                continue // a to-one key's destination entity column, read below with its key
            } else if column.type == "INTEGER", indexed.contains(name) || names.contains(where: {
                $0.prefixMatch(of: Patterns.entityPrefix) != nil && $0.hasSuffix("_" + name.dropFirst())
            }) {
                try addToOne(name, in: table, to: root, columns: names)
            } else {
                root.properties.append(NSAttributeDescription(name: cachedNames.propertyName(String(name.dropFirst())),
                                                              type: Self.type(column.type)))
            }
        }
    }

    /// A to-one key: its destination is the entity its `Z<n>_` column names, or
    /// the only entity without subentities holding every key value.
    mutating func addToOne(_ column: String, in table: String, to root: NSEntityDescription, columns: Set<String>) throws {
        let name = cachedNames.propertyName(String(column.dropFirst()))
        var destination: NSEntityDescription?
        if let entityColumn = columns.first(where: {
               $0.prefixMatch(of: Patterns.entityPrefix) != nil && $0.hasSuffix("_" + column.dropFirst())
           }),
           let number = Int(entityColumn.dropFirst().prefix { $0.isNumber }) {
            destination = entities[number]
        } else {
            // Only integer keys can name rows; other values in the column are not keys.
            let keys = Set(try Int.fetchAll(db, sql: "SELECT DISTINCT \(column.quotedDatabaseIdentifier) FROM \(table.quotedDatabaseIdentifier) "
                                                + "WHERE typeof(\(column.quotedDatabaseIdentifier)) = 'integer'"))
            var candidates: [NSEntityDescription] = []
            for (number, entity) in entities.sorted(by: { $0.key < $1.key }) where entity.subentities.isEmpty && !keys.isEmpty {
                var root = number
                while let parent = supers[root], parent != 0 { root = parent }
                let rootTable = "Z" + (entities[root]?.name ?? "").uppercased()
                guard try db.tableExists(rootTable) else { continue }
                let primaryKeys = Set(try Int.fetchAll(db, sql: "SELECT Z_PK FROM \(rootTable.quotedDatabaseIdentifier) WHERE Z_ENT = ? AND typeof(Z_PK) = 'integer'",
                                                       arguments: [number]))
                if keys.isSubset(of: primaryKeys) { candidates.append(entity) }
            }
            // Several entities can hold the same keys; the relationship's name often is the destination's.
            destination = candidates.count == 1
                ? candidates[0] : candidates.first { $0.name?.lowercased() == name.lowercased() }
        }
        if let destination {
            root.properties.append(NSRelationshipDescription(name: name, destination: destination))
        } else {
            notes.append("\(table).\(column): a to-one key whose destination could not be told (no or ambiguous values); read as an Integer 64")
            root.properties.append(NSAttributeDescription(name: name, type: .integer64AttributeType))
        }
    }

    /// Join tables `Z_<s><NAME> (Z_<s><INVERSE>, Z_<d><NAME>)`: NAME on
    /// entity s leads to d, INVERSE on d leads back to s. A trailing number
    /// is taken for a uniqueness suffix (docs/SQLiteLayout.md).
    mutating func addJoinTables() throws {
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'Z_[0-9]*' ORDER BY name")
        for table in tables {
            let keys = try db.columns(in: table).map(\.name).compactMap { $0.wholeMatch(of: Patterns.joinKey) }
            guard keys.count == 2, let sourceNumber = Int(keys[0].1), let destinationNumber = Int(keys[1].1),
                  let source = entities[sourceNumber], let destination = entities[destinationNumber] else {
                notes.append("table \(table): not read as a join table"); continue
            }
            let forward = NSRelationshipDescription(name: cachedNames.propertyName(String(keys[1].2)),
                                                    destination: destination, toMany: true)
            let inverse = NSRelationshipDescription(name: cachedNames.propertyName(String(keys[0].2)),
                                                    destination: source, toMany: true)
            (forward.inverseRelationship, inverse.inverseRelationship) = (inverse, forward)
            source.properties.append(forward)
            destination.properties.append(inverse)
        }
    }

    static func type(_ declared: String) -> NSAttributeType {
        switch declared.uppercased() {
        case "INTEGER": .integer64AttributeType
        case "FLOAT": .doubleAttributeType
        case "TIMESTAMP": .dateAttributeType
        case "DECIMAL": .decimalAttributeType
        case "VARCHAR": .stringAttributeType
        default: .binaryDataAttributeType
        }
    }
}
