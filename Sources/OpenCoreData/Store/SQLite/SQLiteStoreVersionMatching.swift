import GRDB

/// Which of several model versions wrote an SQLite store, found by the
/// store's schema.
///
/// Core Data finds a store's model by the entity version hashes in its
/// metadata. OpenCoreData's hashes are its own (docs/VersionHashes.md), so a
/// store written on an Apple device never matches by hash; its schema does:
/// Z_PRIMARYKEY's entity numbers and names, each table's columns and their
/// declared types, and the join tables. A version fits when the file has
/// every entity, table and column the version's layout needs; among those,
/// the versions closest to the model the file caches (Z_MODELCACHE, when it
/// has one), then with the fewest unused columns and tables, come first
/// (docs/Migration.md). A store OpenCoreData wrote matches by hash first.
public enum SQLiteStoreVersionMatching {
    /// How one version compares with the store.
    public struct Fit: Sendable, Equatable {
        /// The version's name, as given.
        public let name: String
        /// Whether the store's version hashes are this version's (a store OpenCoreData wrote).
        public let hashesAgree: Bool
        /// What the version needs and the file lacks, one phrase each; empty when the version fits.
        public let missing: [String]
        /// Tables and columns the file has and the version does not use.
        public let unused: [String]
        /// Indexes only one of the file and the version's layout has: they do
        /// not change what reads, but tell apart versions that differ only
        /// by a fetch index.
        public let indexDifferences: [String]
        /// How the version differs from the model the store caches (what no
        /// schema shows: optionality, delete rules, transient properties…);
        /// nil when the file caches no model.
        public internal(set) var cachedModelDifferences: [String]?

        /// Whether the store opens with this version.
        public var fits: Bool { hashesAgree || missing.isEmpty }
    }

    /// Every version of `versions` compared with the store at `url`, best
    /// first: agreeing hashes, then fitting versions by fewest differences
    /// from the cached model, fewest unused columns, fewest index
    /// differences, then the rest; ties keep the given order. A cache that
    /// does not decode is ignored. Reads the file's
    /// schema once (read-only), then costs a layout per version. Throws the
    /// errors of `metadataForPersistentStore` for a file that is no Core
    /// Data SQLite store, 134080 for a damaged Z_PRIMARYKEY and 134180 when
    /// SQLite fails.
    public static func fits(ofStoreAt url: URL, among versions: [(name: String, model: NSManagedObjectModel)])
        throws -> [Fit] {
        let metadata = try SQLiteMetadata.read(at: url)
        let file: FileSchema
        do {
            file = try FileSchema(url)
        } catch let error as DatabaseError {
            throw NSError.coreData(NSSQLiteError, "Cannot read the schema of \(url.lastPathComponent): "
                                   + (error.message ?? "\(error)"),
                                   userInfo: [NSFilePathErrorKey: url.path, NSUnderlyingErrorKey: error as NSError])
        }
        let cached = try? SQLiteModelCache.model(at: url)
        let stored = metadata[NSStoreModelVersionHashesKey] as? [String: Any] ?? [:]
        let compared = versions.enumerated().map { index, version in
            let differing = version.model.differingEntities(forConfigurationName: nil, storeHashes: stored)
            var fit = compare(file, version.name, version.model, hashesAgree: differing?.isEmpty ?? false)
            fit.cachedModelDifferences = cached.map { version.model.structuralDifferences(from: $0) }
            return (index, fit)
        }
        func rank(_ item: (Int, Fit)) -> [Int] {
            let fit = item.1
            return [fit.hashesAgree ? 0 : fit.fits ? 1 : 2, fit.cachedModelDifferences?.count ?? 0, fit.unused.count,
                    fit.indexDifferences.count, item.0]
        }
        return compared.sorted { rank($0).lexicographicallyPrecedes(rank($1)) }.map(\.1)
    }

    /// The name of the version that wrote the store at `url`: the best of
    /// ``fits(ofStoreAt:among:)`` if it fits, else nil (no version at hand
    /// wrote it: a migration would report 134130, missing source model).
    public static func version(ofStoreAt url: URL, among versions: [(name: String, model: NSManagedObjectModel)])
        throws -> String? {
        try fits(ofStoreAt: url, among: versions).first.flatMap { $0.fits ? $0.name : nil }
    }

    /// The store's entities, tables and columns.
    private struct FileSchema {
        var entities: [String: Int] = [:]
        var columns: [String: [String: String]] = [:]
        var indexes: Set<String> = []
        var joinTables: SQLiteFileJoinTables

        init(_ url: URL) throws {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: url.path, configuration: configuration)
            (entities, columns, indexes, joinTables) = try queue.read { db in
                // Numbers from 16000 are persistent history's own entities, not the app's.
                let rows = try SQLitePrimaryKeyTable.rows(db, file: url).filter { $0.number < 16000 }
                let entities = Dictionary(rows.map { ($0.name, $0.number) }, uniquingKeysWith: { a, _ in a })
                let bookkeeping: Set = ["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"]
                var columns: [String: [String: String]] = [:]
                for table in try SQLiteFileSchema.tables(in: db, where: { $0.hasPrefix("Z") })
                where !bookkeeping.contains(table.name) {
                    let declared = try SQLiteFileSchema.columns(of: table, in: db)
                    columns[table.name] = Dictionary(declared.map { ($0.name, $0.type.uppercased()) },
                                                     uniquingKeysWith: { a, _ in a })
                }
                let indexes = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' "
                                                       + "AND name NOT LIKE 'sqlite_autoindex%'")
                return (entities, columns, Set(indexes), try SQLiteFileJoinTables(db))
            }
        }
    }

    private static func compare(_ file: FileSchema, _ name: String, _ model: NSManagedObjectModel,
                                hashesAgree: Bool) -> Fit {
        let schema: SQLiteSchema
        do {
            schema = try SQLiteSchema(model: model, file: file.joinTables)
        } catch {
            return Fit(name: name, hashesAgree: hashesAgree, missing: ["a layout: \(error)"], unused: [],
                       indexDifferences: [])
        }
        var missing: [String] = [], unused: [String] = []
        let descriptions = model.entitiesByName
        for entity in schema.entities {
            let stored = file.entities[entity.name]
                ?? descriptions[entity.name]?.renamingIdentifier.flatMap { file.entities[$0] }
            if stored != entity.number { missing.append("entity \(entity.name) as number \(entity.number)") }
        }
        let modelEntities = Set(schema.entities.map(\.name)
            + schema.entities.compactMap { descriptions[$0.name]?.renamingIdentifier })
        unused += file.entities.keys.filter { !modelEntities.contains($0) }.sorted().map { "entity \($0)" }
        for table in schema.tables {
            guard let declared = file.columns[table.name] else { missing.append("table \(table.name)"); continue }
            for column in table.columns where declared[column.name] != column.type.rawValue {
                missing.append("\(table.name).\(column.name) \(column.type.rawValue)")
            }
            let used = Set(table.columns.map(\.name))
            unused += declared.keys.filter { !used.contains($0) }.sorted().map { "\(table.name).\($0)" }
        }
        let tables = Set(schema.tables.map(\.name))
        // Persistent history's tables (ACHANGE, ATRANSACTION…) do not start with Z and were never read.
        unused += file.columns.keys.filter { !tables.contains($0) }.sorted().map { "table \($0)" }
        let indexes = Set(schema.indexes.map(\.name))
        let indexDifferences = indexes.symmetricDifference(file.indexes).sorted()
        return Fit(name: name, hashesAgree: hashesAgree, missing: missing, unused: unused,
                   indexDifferences: indexDifferences)
    }
}
