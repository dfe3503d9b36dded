import Foundation
import Testing
@testable import OpenCoreDataCore

/// NSMigrationManager's copy migration through a mapping model built in
/// code: Apple's three phases, batches, policies found by class name,
/// cancellation, progress and errors.
/// https://developer.apple.com/documentation/coredata/nsmigrationmanager
/// https://developer.apple.com/documentation/coredata/nsentitymigrationpolicy
@Suite(.serialized) struct CustomMigrationTests {
    static let noteKeys = ["heading", "letter", "number", "score", "folder", "labels"]

    /// A split attribute, a FUNCTION transform, arithmetic, a policy making
    /// two destinations per source and relationships re-linked, in batches
    /// of 2, read back with the destination model and no migration option
    /// (the store carries the destination's version hashes).
    @Test(arguments: [2, 1000]) func mappingModelBuiltInCodeMigratesEveryObject(batchSize: Int) throws {
        let fixture = try CustomMigrationFixture()
        let manager = NSMigrationManager(sourceModel: fixture.source, destinationModel: fixture.destination)
        manager.batchSize = batchSize
        let migrated = try fixture.migrate(manager)
        let context = try MigrationModels.open(migrated, fixture.destination, options: nil)
        #expect(try MigrationModels.rows(context, "Note", Self.noteKeys) == CustomMigrationFixture.migratedNotes)
        #expect(try MigrationModels.rows(context, "Folder", ["name", "notes"]) == [["f0", "N0,N2,N4"],
                                                                                     ["f1", "N1,N3,N5"]])
        #expect(try MigrationModels.rows(context, "Label", ["name", "notes"]) == [
            ["t0-a", "N0,N1,N2,N3,N4,N5"], ["t0-b", "N0,N1,N2,N3,N4,N5"], ["t1-a", "N0,N3"], ["t1-b", "N0,N3"]])
        #expect(manager.migrationProgress == 1)
        // The source is only read; no working file is left beside the destination.
        #expect(try MigrationModels.rows(MigrationModels.open(fixture.url, fixture.source, options: nil), "Tag",
                                         ["name"]) == [["t0"], ["t1"]])
        #expect(fixture.folderContents.filter { $0.contains("migrating") }.isEmpty)
    }

    /// An inferred mapping runs either as the SQLite store's in-place
    /// migration of a copy (usesStoreSpecificMigrationManager, the default)
    /// or object by object through its expressions; both give the same store.
    @Test(arguments: [true, false]) func inferredMappingMigratesEitherWay(storeSpecific: Bool) throws {
        let fixture = try CustomMigrationFixture()
        let changed = MigrationModels()
        changed.note.properties += [NSAttributeDescription(name: "subtitle", type: .stringAttributeType)]
        let destination = changed.model()
        let manager = NSMigrationManager(sourceModel: fixture.source, destinationModel: destination)
        manager.usesStoreSpecificMigrationManager = storeSpecific
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: fixture.source,
                                                              destinationModel: destination)
        let migrated = try fixture.migrate(manager, mapping: mapping)
        let context = try MigrationModels.open(migrated, destination, options: nil)
        #expect(try MigrationModels.rows(context, "Note", LightweightMigrationTests.noteKeys + ["subtitle"])
                == LightweightMigrationTests.version1Notes.map { $0 + ["nil"] })
        #expect(try MigrationModels.rows(context, "Tag", ["name", "notes"]) == [["t0", "n0,n1,n2,n3,n4,n5"],
                                                                                  ["t1", "n0,n3"]])
    }

    /// The policy methods run in Apple's order, phase by phase, and
    /// `migrationProgress` only grows, from below one half to 1.
    @Test func phasesRunInOrderAndProgressGrows() throws {
        let fixture = try CustomMigrationFixture()
        ProgressRecordingPolicy.readings = []
        ProgressRecordingPolicy.calls = []
        let manager = NSMigrationManager(sourceModel: fixture.source, destinationModel: fixture.destination)
        manager.batchSize = 2
        _ = try fixture.migrate(manager, mapping: CustomMigrationFixture.mapping(notePolicy: "ProgressRecordingPolicy"))
        let readings = ProgressRecordingPolicy.readings
        #expect(readings.count == 12)
        #expect(zip(readings, readings.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(readings.first! < 0.5 && readings.last! < 1 && readings.last! > readings.first!)
        #expect(manager.migrationProgress == 1)
        #expect(ProgressRecordingPolicy.calls == ["begin", "endInstanceCreation", "endRelationshipCreation",
                                                  "performCustomValidation", "end"])
    }

    /// NSMigrationManager's copy migration: the caller's progress moves
    /// while the policies run (read from inside them), only forward, and
    /// is complete when `migrateStore` returns.
    @Test func customMigrationMovesTheCurrentProgress() throws {
        let fixture = try CustomMigrationFixture()
        ProgressRecordingPolicy.readings = []
        ProgressRecordingPolicy.calls = []
        ProgressRecordingPolicy.observedReadings = []
        let parent = Progress(totalUnitCount: 10)
        ProgressRecordingPolicy.observed = parent
        defer { ProgressRecordingPolicy.observed = nil }
        let manager = NSMigrationManager(sourceModel: fixture.source, destinationModel: fixture.destination)
        manager.batchSize = 2
        parent.becomeCurrent(withPendingUnitCount: 10)
        _ = try fixture.migrate(manager, mapping: CustomMigrationFixture.mapping(notePolicy: "ProgressRecordingPolicy"))
        #expect(parent.fractionCompleted == 1)
        parent.resignCurrent()
        let readings = ProgressRecordingPolicy.observedReadings
        #expect(readings.count == 12)
        #expect(zip(readings, readings.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(readings.last! > readings.first! && readings.last! < 1)
    }

    /// `migrationProgress` read from another thread while the migration runs.
    @Test func progressCanBeReadFromAnotherThread() throws {
        let fixture = try CustomMigrationFixture()
        let manager = NSMigrationManager(sourceModel: fixture.source, destinationModel: fixture.destination)
        manager.batchSize = 1
        let reader = ProgressReader(manager)
        _ = try fixture.migrate(manager)
        let values = reader.stop()
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(values.allSatisfy { (0...1).contains($0) })
    }
}

/// Reads a manager's progress in a loop on another thread until stopped.
final class ProgressReader: @unchecked Sendable {
    private let lock = NSLock()
    private var running = true
    private var values: [Float] = []
    private let done = DispatchSemaphore(value: 0)

    init(_ manager: NSMigrationManager) {
        DispatchQueue.global().async {
            while self.lock.withLock({ self.running }) {
                let value = manager.migrationProgress
                self.lock.withLock { self.values.append(value) }
            }
            self.done.signal()
        }
    }

    /// Stops reading; every value read.
    func stop() -> [Float] {
        lock.withLock { running = false }
        done.wait()
        return lock.withLock { values }
    }
}
