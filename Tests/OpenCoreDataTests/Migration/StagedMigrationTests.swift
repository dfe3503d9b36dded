import Foundation
import Testing
@testable import OpenCoreDataCore

/// Staged migration (iOS 17, WWDC23 "Evolve your app's schema"): a
/// lightweight stage V1 → V2, then a custom stage V2 → V3 whose handlers
/// change data with the store open at V2 (before) and at V3 (after).
/// https://developer.apple.com/documentation/coredata/nsstagedmigrationmanager
/// https://developer.apple.com/documentation/coredata/nscustommigrationstage
@Suite(.serialized) struct StagedMigrationTests {
    /// V1 (MigrationModels), V2 (Note.subtitle added), V3 (Folder.noteCount added), as one `.xcdatamodeld`.
    static func versions() throws -> [NSManagedObjectModel] {
        let v2 = MigrationModels()
        v2.note.properties += [NSAttributeDescription(name: "subtitle", type: .stringAttributeType)]
        let v3 = MigrationModels()
        v3.note.properties += [NSAttributeDescription(name: "subtitle", type: .stringAttributeType)]
        v3.folder.properties += [NSAttributeDescription(name: "noteCount", type: .integer64AttributeType)]
        return try MigrationModels.versions(MigrationModels().model(), v2.model(), v3.model())
    }

    /// Loads the store at `url` in a container of `model` with `manager` in the description's options.
    static func load(_ url: URL, _ model: NSManagedObjectModel, _ manager: NSStagedMigrationManager) throws
        -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "Notes", managedObjectModel: model)
        let description = NSPersistentStoreDescription(url: url)
        description.setOption(manager, forKey: NSPersistentStoreStagedMigrationManagerOptionKey)
        container.persistentStoreDescriptions = [description]
        var failure: Error?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }

    /// The custom stage V2 → V3: before, every note gets a subtitle; after, every folder counts its notes.
    static func customStage(_ v: [NSManagedObjectModel], log: LogBox,
                            checksum: String? = nil) -> NSCustomMigrationStage {
        let current = NSManagedObjectModelReference(model: v[1], versionChecksum: checksum ?? v[1].versionChecksum)
        let next = NSManagedObjectModelReference(model: v[2], versionChecksum: v[2].versionChecksum)
        let stage = NSCustomMigrationStage(migratingFrom: current, to: next)
        stage.willMigrateHandler = { manager, _ in
            let container = try #require(manager.container)
            log.lines.append("will: \(container.managedObjectModel.versionChecksum == v[1].versionChecksum)")
            let context = container.newBackgroundContext()
            try context.performAndWait {
                for note in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note")) {
                    note.setValue("s-\(note.value(forKey: "title") as! String)", forKey: "subtitle")
                }
                try context.save()
            }
        }
        stage.didMigrateHandler = { manager, _ in
            let container = try #require(manager.container)
            log.lines.append("did: \(container.managedObjectModel.versionChecksum == v[2].versionChecksum)")
            let context = container.newBackgroundContext()
            try context.performAndWait {
                for folder in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Folder")) {
                    folder.setValue(Int64((folder.value(forKey: "notes") as! NSSet).count), forKey: "noteCount")
                }
                try context.save()
            }
        }
        return stage
    }

    @Test func lightweightThenCustomStageRunInOrder() throws {
        let v = try Self.versions()
        let url = TestStack.temporaryStoreURL()
        try MigrationModels.writeVersion1(to: url, model: v[0])
        let log = LogBox()
        let manager = NSStagedMigrationManager([
            NSLightweightMigrationStage([v[0].versionChecksum, v[1].versionChecksum]),
            Self.customStage(v, log: log),
        ])
        let container = try Self.load(url, v[2], manager)
        #expect(log.lines == ["will: true", "did: true"])
        #expect(manager.container == nil)
        let context = container.newBackgroundContext()
        #expect(try MigrationModels.rows(context, "Note", ["title", "subtitle", "folder"]) == (0..<6).map {
            ["n\($0)", "s-n\($0)", "f\($0 % 2)"]
        })
        #expect(try MigrationModels.rows(context, "Folder", ["name", "noteCount"]) == [["f0", "3"], ["f1", "3"]])
    }

    /// A store already at V2 runs only the custom stage; one at V3 runs nothing.
    @Test func storesRunOnlyTheStagesTheyNeed() throws {
        let v = try Self.versions()
        let url = TestStack.temporaryStoreURL()
        try MigrationModels.writeVersion1(to: url, model: v[0])
        _ = try MigrationModels.open(url, v[1])
        let log = LogBox()
        let stages: [NSMigrationStage] = [NSLightweightMigrationStage([v[0].versionChecksum, v[1].versionChecksum]),
                                          Self.customStage(v, log: log)]
        _ = try Self.load(url, v[2], NSStagedMigrationManager(stages))
        #expect(log.lines == ["will: true", "did: true"])
        _ = try Self.load(url, v[2], NSStagedMigrationManager(stages))
        #expect(log.lines.count == 2)
    }

    /// A reference whose checksum is not its model's (an Apple checksum,
    /// say): NSManagedObjectModelReferenceNotFoundError (134504), store untouched.
    @Test func checksumMismatchIs134504() throws {
        let v = try Self.versions()
        let url = TestStack.temporaryStoreURL()
        try MigrationModels.writeVersion1(to: url, model: v[0])
        let stage = Self.customStage(v, log: LogBox(), checksum: "bMpud663vz0bXQE24C6Rh4MvJ5jVnzsD2sI3njZkKbc=")
        #expect {
            _ = try Self.load(url, v[2], NSStagedMigrationManager([stage]))
        } throws: { ($0 as NSError).code == NSManagedObjectModelReferenceNotFoundError }
        let unknown = NSLightweightMigrationStage(["no-such-checksum", v[1].versionChecksum])
        #expect {
            _ = try Self.load(url, v[2], NSStagedMigrationManager([unknown]))
        } throws: { ($0 as NSError).code == NSManagedObjectModelReferenceNotFoundError }
        #expect(try MigrationModels.rows(MigrationModels.open(url, v[0], options: nil), "Tag", ["name"])
                == [["t0"], ["t1"]])
    }

    /// A store newer than the container's model in the stages' order: 134506.
    @Test func backwardMigrationIs134506() throws {
        let v = try Self.versions()
        let url = TestStack.temporaryStoreURL()
        try MigrationModels.writeVersion1(to: url, model: v[0])
        _ = try MigrationModels.open(url, v[2])
        let stages = NSStagedMigrationManager([NSLightweightMigrationStage(v.map(\.versionChecksum))])
        #expect {
            _ = try Self.load(url, v[1], stages)
        } throws: { ($0 as NSError).code == NSStagedMigrationBackwardMigrationError }
    }

    /// An error a handler throws stops the migration and is what loading reports.
    @Test func handlerErrorStopsTheMigration() throws {
        let v = try Self.versions()
        let url = TestStack.temporaryStoreURL()
        try MigrationModels.writeVersion1(to: url, model: v[0])
        let stage = Self.customStage(v, log: LogBox())
        stage.willMigrateHandler = { _, _ in throw NSError(domain: "Handler", code: 3) }
        let manager = NSStagedMigrationManager([
            NSLightweightMigrationStage([v[0].versionChecksum, v[1].versionChecksum]), stage,
        ])
        #expect { _ = try Self.load(url, v[2], manager) } throws: { ($0 as NSError).domain == "Handler" }
        // Each step is a migration of its own: the lightweight step before the handler stays done (V2).
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        #expect(v[1].isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
    }
}

/// Lines a handler appends to.
final class LogBox: @unchecked Sendable {
    var lines: [String] = []
}
