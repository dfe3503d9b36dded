import Foundation
import Testing
@testable import OpenCoreDataCore

/// A migration reports into the caller's current `Progress`, Foundation's
/// implicit composition: a `Progress` made current with a pending unit count
/// gets the migration's own `Progress` as its child.
/// https://developer.apple.com/documentation/foundation/progress ("Reporting
/// Progress for Multiple Operations": becomeCurrent(withPendingUnitCount:)).
/// The copy migration's case is CustomMigrationTests'
/// `customMigrationMovesTheCurrentProgress` (it shares that suite's policy).
@Suite struct MigrationProgressTests {
    /// The SQLite store's in-place migration, run as the store opens with a
    /// newer model: its steps complete the caller's progress.
    @Test func inPlaceMigrationCompletesTheCurrentProgress() throws {
        let changed = MigrationModels()
        changed.note.properties += [NSAttributeDescription(name: "subtitle", type: .stringAttributeType)]
        let versions = try MigrationModels.versions(MigrationModels().model(), changed.model())
        let url = TestStack.temporaryStoreURL()
        try MigrationModels.writeVersion1(to: url, model: versions[0])
        let parent = Progress(totalUnitCount: 1)
        parent.becomeCurrent(withPendingUnitCount: 1)
        let context = try MigrationModels.open(url, versions[1])
        // Read before resignCurrent, which completes the pending units when no child joined.
        #expect(parent.completedUnitCount == 1)
        #expect(parent.fractionCompleted == 1)
        parent.resignCurrent()
        #expect(try MigrationModels.rows(context, "Note", ["title", "subtitle"]).count == 6)

        // Opening the migrated store again migrates nothing and reports nothing.
        let again = Progress(totalUnitCount: 1)
        again.becomeCurrent(withPendingUnitCount: 1)
        _ = try MigrationModels.open(url, versions[1])
        #expect(again.completedUnitCount == 0)
        again.resignCurrent()
    }

    /// The lightweight path of NSMigrationManager (the store's in-place
    /// migration of a copy) reports through the manager's progress too.
    @Test func storeSpecificMigrationCompletesTheCurrentProgress() throws {
        let fixture = try CustomMigrationFixture()
        let changed = MigrationModels()
        changed.note.properties += [NSAttributeDescription(name: "subtitle", type: .stringAttributeType)]
        let destination = changed.model()
        let manager = NSMigrationManager(sourceModel: fixture.source, destinationModel: destination)
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: fixture.source,
                                                              destinationModel: destination)
        let parent = Progress(totalUnitCount: 1)
        parent.becomeCurrent(withPendingUnitCount: 1)
        _ = try fixture.migrate(manager, mapping: mapping)
        #expect(parent.fractionCompleted == 1)
        parent.resignCurrent()
        #expect(manager.migrationProgress == 1)
    }
}
