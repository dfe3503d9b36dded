import OpenCoreData

/// What `ocd migrate` does to a store: the model version that wrote it, the
/// version it migrates to, and the mapping Core Data infers between them,
/// as text a person reads before migrating.
public struct StoreMigrationPlan {
    /// The version that wrote the store, and how it was found.
    public let sourceName: String
    /// How the source version was found: "its version hashes", "its schema" or "Z_MODELCACHE".
    public let foundBy: String
    /// The version the store migrates to.
    public let destinationName: String
    /// The model of the destination version.
    public let destination: NSManagedObjectModel
    /// The version that wrote the store.
    public let source: NSManagedObjectModel
    /// The mapping: a mapping model file's when one beside the model maps the
    /// two versions (Core Data's first choice), else the inferred one; nil
    /// when the store already has the destination's version.
    public let mapping: NSMappingModel?
    /// True when ``mapping`` comes from an `.xcmappingmodel` file: the store
    /// is then copied through it by NSMigrationManager rather than migrated in SQL.
    public let usesMappingFile: Bool

    /// Finds the version of the `.xcdatamodeld` at `modelURL` that wrote
    /// `store` (by the store's version hashes, else by its schema, else the
    /// model cached in the file) and infers the mapping to `version` (the
    /// current version for nil). Throws ``StoreFileError`` for a file or
    /// version that is missing, and the inference's NSError (134190) when no
    /// mapping can be inferred.
    public init(store: URL, model modelURL: URL, to version: String?) throws {
        let metadata = try StoreFile.metadata(of: store)
        let bundle: ModelVersionBundle
        do {
            bundle = try ModelVersionBundle(url: modelURL)
        } catch {
            throw StoreFileError("\(modelURL.path) is not a .xcdatamodeld of model versions: \(ErrorText.line(error))")
        }
        let versions = try bundle.allVersions()
        let target = version ?? bundle.currentVersionName
        destinationName = target
        guard let destination = versions.first(where: { $0.name == target })?.model else {
            throw StoreFileError("no version named '\(target)'; the model has "
                                 + bundle.versionNames.joined(separator: ", "))
        }
        self.destination = destination
        if let byHash = versions.first(where: {
            $0.model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata)
        }) {
            (sourceName, foundBy, source) = (byHash.name, "its version hashes", byHash.model)
        } else if let name = try SQLiteStoreVersionMatching.version(ofStoreAt: store, among: versions),
                  let bySchema = versions.first(where: { $0.name == name }) {
            (sourceName, foundBy, source) = (name, "its schema", bySchema.model)
        } else if let cached = try? NSPersistentStoreCoordinator.cachedModelForPersistentStore(at: store) {
            (sourceName, foundBy, source) = ("(the model cached in the store)", "Z_MODELCACHE", cached)
        } else {
            throw StoreFileError("no version of \(modelURL.lastPathComponent) wrote the store, and it caches no "
                                 + "model: Core Data reports this as 134130, missing source model")
        }
        let same = source.entityVersionHashesByName == destination.entityVersionHashesByName
        // Where the store's automatic migration looks too: beside the .xcdatamodeld.
        let (from, to) = (source, destination)
        let folder = same ? nil : Bundle(path: modelURL.deletingLastPathComponent().path)
        let file = folder.flatMap { NSMappingModel(from: [$0], forSourceModel: from, destinationModel: to) }
        usesMappingFile = file != nil
        if same {
            mapping = nil
        } else if let file {
            mapping = file
        } else {
            mapping = try NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: destination)
        }
    }

    /// One line per entity mapping: its type, the entities, and for a
    /// transform the properties added, removed and renamed.
    public var text: String {
        var lines = ["written by: \(sourceName) (found by \(foundBy))", "migrating to: \(destinationName)"]
        guard let mapping else {
            return (lines + ["nothing to migrate: the store has this version"]).joined(separator: "\n")
        }
        lines.append(usesMappingFile ? "mapping model file (custom, copied through NSMigrationManager):"
                     : "inferred mapping (lightweight, in place):")
        for entityMapping in mapping.entityMappings {
            let from = entityMapping.sourceEntityName ?? "", to = entityMapping.destinationEntityName ?? ""
            switch entityMapping.mappingType {
            case .addEntityMappingType: lines.append("  add        \(to)")
            case .removeEntityMappingType: lines.append("  remove     \(from)")
            case .copyEntityMappingType: lines.append("  copy       \(to)")
            case .customEntityMappingType:
                let policy = entityMapping.entityMigrationPolicyClassName.map { " (policy \($0))" } ?? ""
                lines.append("  custom     \(from) → \(to)\(policy)")
            default:
                let title = from == to ? to : "\(from) → \(to) (renamed)"
                let stored = source.entitiesByName[from]?.properties.filter {
                    !$0.isTransient && ($0 is NSAttributeDescription || $0 is NSRelationshipDescription)
                }.map(\.name) ?? []
                let changes = Self.changes(entityMapping, source: stored)
                let detail = changes.isEmpty ? "" : ": " + changes.joined(separator: "; ")
                lines.append("  transform  \(title)\(detail)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The property changes of one transform mapping.
    private static func changes(_ mapping: NSEntityMapping, source: [String]) -> [String] {
        var added: [String] = [], renamed: [String] = [], kept: Set<String> = []
        for property in (mapping.attributeMappings ?? []) + (mapping.relationshipMappings ?? []) {
            let name = property.name ?? ""
            guard let old = sourceName(property) else { added.append(name); continue }
            kept.insert(old)
            if old != name { renamed.append("\(old) → \(name)") }
        }
        let removed = source.filter { !kept.contains($0) }
        return [("added", added), ("renamed", renamed), ("removed", removed)]
            .filter { !$0.1.isEmpty }.map { "\($0.0) \($0.1.joined(separator: ", "))" }
    }

    /// The source property a mapping's value expression reads: `$source.name`,
    /// or the relationship in `FUNCTION($manager, "…", "name", $source.name)`
    /// (a mapping file names an entity mapping where the inferred one names
    /// the relationship, so the last argument tells).
    private static func sourceName(_ property: NSPropertyMapping) -> String? {
        guard let expression = property.valueExpression else { return nil }
        switch expression.expressionType {
        case .keyPath: return expression.keyPath
        case .function:
            guard let last = expression.arguments?.last, last.expressionType == .keyPath else { return nil }
            return last.keyPath
        default: return nil
        }
    }
}
