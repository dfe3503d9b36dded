/// Migrates a store from one model version to another by copying it
/// through a mapping model (Apple's NSMigrationManager): every instance is
/// read from the source store, made into destination instances by its
/// entity mapping's ``NSEntityMigrationPolicy``, and written to a new store.
///
/// `migrateStore` runs Apple's three phases — instances, relationships,
/// validation — in batches of ``batchSize`` source instances: each batch is
/// saved and both contexts reset, so memory holds one batch of objects plus
/// two object IDs per migrated instance. ``migrationProgress`` can be read
/// from any thread, and a migration also reports to a child of the calling
/// thread's current `Progress` (Foundation's implicit composition), as the
/// SQLite store's in-place migration does; ``cancelMigrationWithError(_:)``
/// stops the migration.
open class NSMigrationManager: NSObject, @unchecked Sendable {
    /// The model of the stores migrated from.
    public let sourceModel: NSManagedObjectModel
    /// The model of the stores migrated to.
    public let destinationModel: NSManagedObjectModel
    /// Whether an inferred mapping between two SQLite stores runs as the
    /// SQLite store's own in-place migration (on a copy of the source) rather
    /// than object by object. True by default, as in Core Data.
    open var usesStoreSpecificMigrationManager = true
    /// Application data for the policies of one migration.
    open var userInfo: [AnyHashable: Any]?
    /// Source instances per batch; each batch ends with a save of the
    /// destination and a reset of both contexts. Not in Apple's API.
    public var batchSize = 1000

    private let lock = NSLock()
    private var progress: Float = 0
    /// The running migration's place in Foundation's implicit progress tree
    /// (a child of the caller's current `Progress`, if any), in thousandths.
    private var reportedProgress: Progress?
    private var cancellation: Error?
    var associations = MigrationAssociations()
    var currentMapping: NSEntityMapping?
    var runningMapping: NSMappingModel?
    var contexts: (source: NSManagedObjectContext, destination: NSManagedObjectContext)?
    var policies: [ObjectIdentifier: NSEntityMigrationPolicy] = [:]
    /// Relationship mappings the default policy leaves to inverse maintenance (MigrationInverses).
    var relationshipsLeftToInverse: Set<String> = []

    /// A manager migrating stores of `sourceModel` to `destinationModel`.
    public init(sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel) {
        self.sourceModel = sourceModel
        self.destinationModel = destinationModel
        super.init()
    }

    /// The mapping model of the running (or last) migration; empty before one.
    open var mappingModel: NSMappingModel { runningMapping ?? NSMappingModel() }

    /// The context reading the source store during a migration (a fresh,
    /// unattached context outside one). Policies fetch from it.
    open var sourceContext: NSManagedObjectContext {
        contexts?.source ?? NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
    }

    /// The context writing the destination store during a migration (a
    /// fresh, unattached context outside one). Policies insert into it.
    open var destinationContext: NSManagedObjectContext {
        contexts?.destination ?? NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
    }

    /// The entity mapping being run; an empty mapping outside a migration.
    open var currentEntityMapping: NSEntityMapping { currentMapping ?? NSEntityMapping() }

    /// How far the migration is, from 0 to 1, never going back. Safe to read
    /// from any thread while `migrateStore` runs.
    open var migrationProgress: Float { lock.withLock { progress } }

    /// Units of work (an instance created, related or validated) done and expected.
    var unitsDone = 0
    var unitsTotal = 0

    /// Counts `units` more done; progress stays below 1 until the destination is in place.
    func noteProgress(_ units: Int) {
        unitsDone += units
        setProgress(Float(unitsDone) / Float(max(unitsTotal, unitsDone, 1)) * 0.99)
    }

    func setProgress(_ value: Float) {
        lock.withLock {
            progress = max(progress, min(value, 1))
            reportedProgress?.completedUnitCount = Int64(progress * 1000)
        }
    }

    /// Starts reporting to a new `Progress` of 1000 units, which becomes a
    /// child of the calling thread's current one: a caller that made its
    /// `Progress` current around `migrateStore` sees the migration move.
    func startReportingProgress() {
        let reported = Progress(totalUnitCount: 1000)
        lock.withLock { reportedProgress = reported }
    }

    /// Stops reporting; the `Progress` keeps its last value.
    func stopReportingProgress() {
        lock.withLock { reportedProgress = nil }
    }

    /// `body` with this migration's `Progress` current for `units` of its
    /// thousand, so that a `Progress` made inside (the SQLite store's
    /// in-place migration) reports into it.
    func withProgressCurrent<T>(forUnits units: Int64, _ body: () throws -> T) rethrows -> T {
        guard let reported = lock.withLock({ reportedProgress }) else { return try body() }
        reported.becomeCurrent(withPendingUnitCount: units)
        defer { reported.resignCurrent() }
        return try body()
    }

    /// Stops the running migration: `migrateStore` throws `error` once the
    /// current instance is done, and the destination is not written. May be
    /// called from a policy or from another thread.
    open func cancelMigrationWithError(_ error: Error) {
        lock.withLock { if cancellation == nil { cancellation = error } }
    }

    /// Throws the error given to ``cancelMigrationWithError(_:)``, if any.
    func checkCancellation() throws {
        if let error = lock.withLock({ cancellation }) { throw error }
    }

    /// Forgets the state of the last migration (associations, progress,
    /// cancellation, contexts).
    open func reset() {
        lock.withLock {
            progress = 0
            cancellation = nil
        }
        associations = MigrationAssociations()
        currentMapping = nil
        runningMapping = nil
        contexts = nil
        policies = [:]
        relationshipsLeftToInverse = []
        unitsDone = 0
        unitsTotal = 0
    }

    /// The source model's entity `mapping` reads; nil for an added entity.
    open func sourceEntity(for mEntity: NSEntityMapping) -> NSEntityDescription? {
        mEntity.sourceEntityName.flatMap { sourceModel.entitiesByName[$0] }
    }

    /// The destination model's entity `mapping` makes; nil for a removed
    /// entity. During a migration it is the entity of the destination
    /// context's model: a copy of the destination model whose properties
    /// are validated only in phase 3.
    open func destinationEntity(for mEntity: NSEntityMapping) -> NSEntityDescription? {
        let model = contexts?.destination.persistentStoreCoordinator?.managedObjectModel ?? destinationModel
        return mEntity.destinationEntityName.flatMap { model.entitiesByName[$0] }
    }

    /// Records that `entityMapping` made `destinationInstance` from
    /// `sourceInstance`: what `destinationInstances` and `sourceInstances`
    /// answer, and what phase 2 walks. A policy that creates instances itself
    /// calls this for each.
    open func associate(sourceInstance: NSManagedObject, withDestinationInstance destinationInstance: NSManagedObject,
                        for entityMapping: NSEntityMapping) {
        associations.associate(sourceInstance.objectID, destinationInstance, mapping: entityMapping.name ?? "")
    }

    /// The destination instances the mapping named `mappingName` made from
    /// `sourceInstances` (every one it made when nil), in the destination
    /// context, in the order of the sources. Unknown names give none.
    open func destinationInstances(forEntityMappingName mappingName: String,
                                   sourceInstances: [NSManagedObject]?) -> [NSManagedObject] {
        guard let sourceInstances else {
            let all = associations.allDestinations(mapping: mappingName)
            return all.ids.map { destinationContext.object(with: $0) } + all.unsaved
        }
        return sourceInstances.flatMap { source in
            let found = associations.destinations(of: source.objectID, mapping: mappingName)
            return found.ids.map { destinationContext.object(with: $0) } + found.unsaved
        }
    }

    /// The source instances the mapping named `mappingName` made
    /// `destinationInstances` from (every one when nil), in the source context.
    open func sourceInstances(forEntityMappingName mappingName: String,
                              destinationInstances: [NSManagedObject]?) -> [NSManagedObject] {
        guard let destinationInstances else {
            return associations.allSources(mapping: mappingName).map { sourceContext.object(with: $0) }
        }
        return destinationInstances.compactMap { destination in
            associations.source(of: destination, mapping: mappingName).map { sourceContext.object(with: $0) }
        }
    }
}
