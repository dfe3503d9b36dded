/// One step of a staged migration (Apple's NSMigrationStage, iOS 17).
open class NSMigrationStage: NSObject, @unchecked Sendable {
    /// A name for logs and errors.
    open var label: String?
}

/// Consecutive model versions, by version checksum, between which every
/// migration is lightweight (inferred, in place in SQL for SQLite stores).
/// The versions are looked up among the versions of the container's
/// `.xcdatamodeld` and the models of the other stages.
open class NSLightweightMigrationStage: NSMigrationStage, @unchecked Sendable {
    /// The version checksums, oldest first.
    public let versionChecksums: [String]

    /// A stage over the versions with `versionChecksums`, oldest first.
    public init(_ versionChecksums: [String]) {
        self.versionChecksums = versionChecksums
        super.init()
    }
}

/// A migration from one model version to the next with code around it
/// (Apple's NSCustomMigrationStage): `willMigrateHandler` runs with the store
/// open with ``currentModel``, then the store migrates (lightweight) to
/// ``nextModel``, then `didMigrateHandler` runs with the store open with
/// ``nextModel``. A handler reaches the store through the manager's
/// `container`; an error it throws stops the migration.
open class NSCustomMigrationStage: NSMigrationStage, @unchecked Sendable {
    /// The version the stage migrates from.
    public let currentModel: NSManagedObjectModelReference
    /// The version the stage migrates to.
    public let nextModel: NSManagedObjectModelReference
    /// Called before the migration, the store open with ``currentModel``.
    open var willMigrateHandler: ((NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void)?
    /// Called after the migration, the store open with ``nextModel``.
    open var didMigrateHandler: ((NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void)?

    /// A stage from `currentModel` to `nextModel`.
    public init(migratingFrom currentModel: NSManagedObjectModelReference,
                to nextModel: NSManagedObjectModelReference) {
        self.currentModel = currentModel
        self.nextModel = nextModel
        super.init()
    }
}
