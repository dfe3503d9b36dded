/// A staged migration failed because the store's metadata does not support
/// staged migration (Apple's code; not raised here: any store's version is
/// found by its entity hashes).
public let NSStagedMigrationFrameworkVersionMismatchError = 134505
/// A staged migration would migrate a store backwards: the store's version
/// comes after the model's in the stages' order.
public let NSStagedMigrationBackwardMigrationError = 134506

/// The store option (in an NSPersistentStoreDescription's options) naming
/// the NSStagedMigrationManager that migrates the store as it loads.
public let NSPersistentStoreStagedMigrationManagerOptionKey = "NSPersistentStoreStagedMigrationManagerOptionKey"

/// Migrates a store through a sequence of stages, oldest version first
/// (Apple's NSStagedMigrationManager, iOS 17): lightweight stages over
/// consecutive versions and custom stages whose handlers change the data
/// before and after their step. Set it on a store description under
/// ``NSPersistentStoreStagedMigrationManagerOptionKey``;
/// `loadPersistentStores` runs the stages the store still needs, then adds
/// it with the container's model.
///
/// Lives with the container because its handlers reach the store through
/// one (``container``).
open class NSStagedMigrationManager: NSObject, @unchecked Sendable {
    /// The stages, in the order they run.
    public let stages: [NSMigrationStage]
    /// The container a custom stage's handler is running with: the store
    /// open with the stage's current model (`willMigrateHandler`) or next
    /// model (`didMigrateHandler`); nil outside a handler.
    open private(set) var container: NSPersistentContainer?

    /// A manager running `stages` in order.
    public init(_ stages: [NSMigrationStage]) {
        self.stages = stages
        super.init()
    }

    /// Runs the steps from the version of the store at `url` to `model`'s:
    /// each lightweight step opens the store with the next version (the
    /// in-place migration), each custom step calls its handlers around that.
    /// Nothing to do for a missing store, or one whose version no stage
    /// names (the usual migration on open then applies). Throws 134504 for
    /// a version that can't be found or has another checksum, 134506 when
    /// the store is newer than `model` in the stages' order, and what a
    /// step or handler throws; steps already run stay done (each is a migration of its own).
    func migrateStore(at url: URL, type: String, options: [AnyHashable: Any], to model: NSManagedObjectModel,
                      containerName: String) throws {
        guard FileManager.default.fileExists(atPath: url.path),
              let metadata = try? NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: type, at: url)
        else { return }
        let chain = try StagedMigrationChain(stages: stages, finalModel: model)
        guard let start = chain.index(ofStoreWith: metadata) else { return }
        let end = chain.index(of: model) ?? chain.versions.count - 1
        guard start <= end else {
            throw NSError.coreData(NSStagedMigrationBackwardMigrationError,
                                   "The staged migration attempted to migrate backwards: the store at \(url.path) "
                                   + "is at version \(start + 1) of the stages, the model at version \(end + 1).",
                                   userInfo: [NSFilePathErrorKey: url.path])
        }
        var options = options
        options[NSPersistentStoreStagedMigrationManagerOptionKey] = nil
        for index in start..<end {
            let (from, to) = (chain.versions[index], chain.versions[index + 1])
            let stage = chain.customStage(from: index)
            if let stage, let handler = stage.willMigrateHandler {
                try withContainer(model: from, url: url, type: type, options: options, name: containerName) {
                    try handler(self, stage)
                }
            }
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: to)
            var stepOptions = options
            stepOptions[NSMigratePersistentStoresAutomaticallyOption] = true
            stepOptions[NSInferMappingModelAutomaticallyOption] = true
            stepOptions[SQLiteStoreMigration.sourceModelOption] = from
            let store = try coordinator.addPersistentStore(ofType: type, configurationName: nil, at: url,
                                                           options: stepOptions)
            try coordinator.remove(store)
            if let stage, let handler = stage.didMigrateHandler {
                try withContainer(model: to, url: url, type: type, options: options, name: containerName) {
                    try handler(self, stage)
                }
            }
        }
    }

    /// Runs `body` with ``container`` holding the store opened with `model`, then closes the store.
    private func withContainer(model: NSManagedObjectModel, url: URL, type: String, options: [AnyHashable: Any],
                               name: String, _ body: () throws -> Void) throws {
        let container = NSPersistentContainer(name: name, managedObjectModel: model)
        try container.persistentStoreCoordinator.addPersistentStore(ofType: type, configurationName: nil, at: url,
                                                                    options: options)
        self.container = container
        defer {
            self.container = nil
            for store in container.persistentStoreCoordinator.persistentStores {
                try? container.persistentStoreCoordinator.remove(store)
            }
        }
        try body()
    }
}

/// The model versions the stages name, in order, and which steps between
/// consecutive ones are custom stages.
struct StagedMigrationChain {
    private(set) var versions: [NSManagedObjectModel] = []
    private var custom: [Int: NSCustomMigrationStage] = [:]

    /// Resolves every version: custom stages' references, lightweight
    /// stages' checksums among the versions of `finalModel`'s
    /// `.xcdatamodeld`, `finalModel` and the references. Throws 134504.
    init(stages: [NSMigrationStage], finalModel: NSManagedObjectModel) throws {
        var known = [finalModel]
        if let url = finalModel.versionBundleURL, let bundle = try? ModelVersionBundle(url: url) {
            known += bundle.versionNames.compactMap { try? bundle.model(named: $0) }
        }
        for case let stage as NSCustomMigrationStage in stages {
            known += [try stage.currentModel.model(), try stage.nextModel.model()]
        }
        for stage in stages {
            if let stage = stage as? NSCustomMigrationStage {
                append(try stage.currentModel.model())
                custom[versions.count - 1] = stage
                append(try stage.nextModel.model())
            } else if let stage = stage as? NSLightweightMigrationStage {
                for checksum in stage.versionChecksums {
                    guard let model = known.first(where: { $0.versionChecksum == checksum }) else {
                        throw NSError.coreData(NSManagedObjectModelReferenceNotFoundError,
                                               "The referenced managed object model couldn't be found or loaded: no "
                                               + "model version at hand has version checksum \(checksum) (stage "
                                               + "\(stage.label ?? "unlabelled"); OpenCoreData's checksums are not "
                                               + "Apple's, docs/VersionHashes.md).",
                                               userInfo: ["versionChecksum": checksum])
                    }
                    append(model)
                }
            }
        }
    }

    private mutating func append(_ model: NSManagedObjectModel) {
        if versions.last?.versionChecksum != model.versionChecksum { versions.append(model) }
    }

    /// The custom stage from version `index` to the next, if that step is one.
    func customStage(from index: Int) -> NSCustomMigrationStage? { custom[index] }

    /// The version a store with `metadata` was written with.
    func index(ofStoreWith metadata: [String: Any]) -> Int? {
        versions.firstIndex { $0.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) }
    }

    /// The version with `model`'s entity hashes.
    func index(of model: NSManagedObjectModel) -> Int? {
        versions.firstIndex { $0.versionChecksum == model.versionChecksum }
    }
}
