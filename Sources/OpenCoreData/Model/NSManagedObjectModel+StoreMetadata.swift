/// A model measured against a store's metadata: Apple's version API
/// (`versionChecksum`, `isConfiguration(withName:compatibleWithStoreMetadata:)`,
/// `mergedModel(from:forStoreMetadata:)`, `init?(byMerging:forStoreMetadata:)`).
///
/// Everything here compares version hashes, as Core Data does. OpenCoreData's
/// hashes are its own (docs/VersionHashes.md), so these answer for stores
/// OpenCoreData wrote; a store written on an Apple device is matched by its
/// schema instead (``SQLiteStoreVersionMatching``, docs/Migration.md).
extension NSManagedObjectModel {
    /// The metadata key of the version hashes' checksum (`NSStoreModelVersionChecksumKey`).
    static let versionChecksumKey = "NSStoreModelVersionChecksumKey"

    /// The checksum of the model's entity version hashes, as Core Data writes it
    /// to `NSStoreModelVersionChecksumKey` and as `NSLightweightMigrationStage`
    /// takes it: base64 of the SHA-256 of the hashes in entity-name order
    /// (``ModelVersionChecksums``). Costs one hash per entity and one SHA-256.
    public var versionChecksum: String {
        ModelVersionChecksums.checksum(of: entityVersionHashesByName)
    }

    /// Whether the entities of `configuration` (every entity for nil) are the
    /// ones a store with `metadata` was written for: the same entity names
    /// and, for each, the same version hash (`NSStoreModelVersionHashes`).
    /// False for metadata without hashes and for an unknown configuration.
    /// Linear in the number of entities.
    public func isConfiguration(withName configuration: String?, compatibleWithStoreMetadata metadata: [String: Any])
        -> Bool {
        guard let stored = metadata[NSStoreModelVersionHashesKey] as? [String: Any] else { return false }
        return differingEntities(forConfigurationName: configuration, storeHashes: stored)?.isEmpty ?? false
    }

    /// The names of the entities whose version hash differs between
    /// `configuration` and `storeHashes`, or that only one of them has,
    /// sorted; nil for an unknown configuration.
    func differingEntities(forConfigurationName configuration: String?, storeHashes: [String: Any]) -> [String]? {
        guard let members = entities(forConfigurationName: configuration) else { return nil }
        let expected = Dictionary(members.compactMap { e in e.name.map { ($0, e.versionHash) } },
                                  uniquingKeysWith: { a, _ in a })
        let differing = Set(storeHashes.keys).symmetricDifference(expected.keys)
            .union(expected.filter { storeHashes[$0.key] as? Data != $0.value }.map(\.key))
        return differing.sorted()
    }

    /// The model, among every version of every model file in `bundles` (the
    /// main bundle for nil), whose entities a store with `metadata` was
    /// written for; nil when no combination fits. Each `.xcdatamodeld` takes
    /// the version whose hashes all appear in the metadata; the merged result
    /// must then match the metadata exactly. Reads every version's file.
    public class func mergedModel(from bundles: [Bundle]?, forStoreMetadata metadata: [String: Any])
        -> NSManagedObjectModel? {
        let urls = (bundles ?? [Bundle.main]).flatMap(ModelFile.modelURLs(in:))
        let files = urls.compactMap { url -> [NSManagedObjectModel]? in
            if let bundle = try? ModelVersionBundle(url: url) { return try? bundle.allVersions().map(\.model) }
            return (try? ModelFile.load(url)).map { [$0] }
        }
        return merging(versionsOf: files, forStoreMetadata: metadata)
    }

    /// One model merging, for each of `models`, that model if a store with
    /// `metadata` was written for its entities (with the others'); nil when
    /// the merged model's hashes are not exactly the metadata's.
    public convenience init?(byMerging models: [NSManagedObjectModel], forStoreMetadata metadata: [String: Any]) {
        guard let merged = Self.merging(versionsOf: models.map { [$0] }, forStoreMetadata: metadata) else { return nil }
        self.init(byMerging: [merged])
    }

    /// From each group (the versions of one model file), the first version
    /// whose every entity hash is in `metadata`, merged; nil unless the
    /// merged entities are exactly the metadata's.
    private static func merging(versionsOf groups: [[NSManagedObjectModel]], forStoreMetadata metadata: [String: Any])
        -> NSManagedObjectModel? {
        guard let stored = metadata[NSStoreModelVersionHashesKey] as? [String: Any] else { return nil }
        let chosen = groups.compactMap { versions in
            versions.first { version in
                version.entityVersionHashesByName.allSatisfy { stored[$0.key] as? Data == $0.value }
            }
        }
        guard !chosen.isEmpty, let merged = try? merging(chosen),
              merged.differingEntities(forConfigurationName: nil, storeHashes: stored)?.isEmpty == true else {
            return nil
        }
        return merged
    }
}
