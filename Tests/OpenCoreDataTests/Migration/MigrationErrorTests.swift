import Foundation
import GRDB
import Testing
@testable import OpenCoreDataCore

/// What opening a store with another model version reports, with Apple's
/// codes (CoreDataErrors.h; https://developer.apple.com/documentation/coredata/nsmigrationerror),
/// and that a refused or failed migration leaves the store as it was.
@Suite struct MigrationErrorTests {
    /// Version 2 adds `subtitle` to Note; the store is written with version 1.
    static func store() throws -> (url: URL, v1: NSManagedObjectModel, v2: NSManagedObjectModel) {
        let changed = MigrationModels()
        changed.note.properties += [NSAttributeDescription(name: "subtitle", type: .stringAttributeType)]
        let versions = try MigrationModels.versions(MigrationModels().model(), changed.model())
        let url = TestStack.temporaryStoreURL()
        try MigrationModels.writeVersion1(to: url, model: versions[0])
        return (url, versions[0], versions[1])
    }

    static func error(_ body: () throws -> Void) -> NSError? {
        do { try body() } catch { return error as NSError }
        return nil
    }

    /// The file's schema and rows, to compare before and after a refusal.
    static func dump(_ url: URL) throws -> [String] {
        try DatabaseQueue(path: url.path).read { db in
            var lines = try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE sql NOT NULL ORDER BY name")
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY 1")
            for table in tables {
                lines += try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1").map { "\(table) \($0)" }
            }
            return lines
        }
    }

    /// Without NSMigratePersistentStoresAutomaticallyOption: 134100, "The
    /// model used to open the store is incompatible with the one used to create the store".
    @Test func withoutTheMigrateOptionTheStoreIsIncompatible() throws {
        let (url, _, v2) = try Self.store()
        let before = try Self.dump(url)
        let error = Self.error { _ = try MigrationModels.open(url, v2, options: nil) }
        #expect(error?.code == NSPersistentStoreIncompatibleVersionHashError)
        #expect(try Self.dump(url) == before)
    }

    /// Migrate without infer: no mapping model can be found (134140), as
    /// OpenCoreData reads no `.xcmappingmodel` yet.
    @Test func withoutTheInferOptionNoMappingModelIsFound() throws {
        let (url, _, v2) = try Self.store()
        let before = try Self.dump(url)
        let error = Self.error {
            _ = try MigrationModels.open(url, v2, options: [NSMigratePersistentStoresAutomaticallyOption: true])
        }
        #expect(error?.code == NSMigrationMissingMappingModelError)
        #expect(try Self.dump(url) == before)
    }

    /// A change inference refuses (a type change): 134140 on open, with the
    /// inference's 134190 naming the entity and attribute underneath.
    @Test func aTypeChangeIsRefusedAndTheStoreStays() throws {
        let changed = MigrationModels()
        (changed.property(changed.note, "count") as! NSAttributeDescription).attributeType = .stringAttributeType
        let versions = try MigrationModels.versions(MigrationModels().model(), changed.model())
        let url = TestStack.temporaryStoreURL()
        try MigrationModels.writeVersion1(to: url, model: versions[0])
        let before = try Self.dump(url)
        let error = Self.error { _ = try MigrationModels.open(url, versions[1]) }
        #expect(error?.code == NSMigrationMissingMappingModelError)
        let underlying = error?.userInfo[NSUnderlyingErrorKey] as? NSError
        #expect(underlying?.code == NSInferredMappingModelError)
        #expect(underlying?.userInfo["entity"] as? String == "Note")
        #expect(underlying?.userInfo["property"] as? String == "count")
        #expect(error?.localizedDescription.contains("Note.count") == true)
        #expect(try Self.dump(url) == before)
        // The store still opens with the model that wrote it.
        #expect(try MigrationModels.rows(MigrationModels.open(url, versions[0]), "Note", ["title"]).count == 6)
    }

    /// An attribute made non-optional without a default: the mapping is
    /// inferred, but rows without a value fail the migration with 134110,
    /// "Validation error missing attribute values on mandatory destination
    /// attribute", naming entity and attribute (as Core Data reports it:
    /// https://github.com/paulw11/Seam3/issues/28). The store is untouched.
    @Test func mandatoryAttributeWithoutDefaultFailsOnMissingValues() throws {
        let changed = MigrationModels()
        (changed.property(changed.note, "body") as! NSAttributeDescription).isOptional = false
        let versions = try MigrationModels.versions(MigrationModels().model(), changed.model())
        #expect(throws: Never.self) {
            try NSMappingModel.inferredMappingModel(forSourceModel: versions[0], destinationModel: versions[1])
        }
        let url = TestStack.temporaryStoreURL()
        try MigrationModels.writeVersion1(to: url, model: versions[0])
        let before = try Self.dump(url)
        let error = Self.error { _ = try MigrationModels.open(url, versions[1]) }
        #expect(error?.code == NSMigrationError)
        let underlying = error?.userInfo[NSUnderlyingErrorKey] as? NSError
        #expect(underlying?.userInfo["entity"] as? String == "Note")
        #expect(underlying?.userInfo["attribute"] as? String == "body")
        #expect(error?.localizedDescription.contains("mandatory destination attribute") == true)
        #expect(try Self.dump(url) == before)
    }

    /// The same change migrates when every row has a value.
    @Test func mandatoryAttributeWithoutDefaultMigratesWhenNothingIsMissing() throws {
        let changed = MigrationModels()
        (changed.property(changed.note, "title") as! NSAttributeDescription).isOptional = false
        let versions = try MigrationModels.versions(MigrationModels().model(), changed.model())
        let url = TestStack.temporaryStoreURL()
        try MigrationModels.writeVersion1(to: url, model: versions[0])
        let context = try MigrationModels.open(url, versions[1])
        #expect(try MigrationModels.rows(context, "Note", ["title"]).count == 6)
    }

    /// An added mandatory to-one relationship without values: 134110 naming the relationship.
    @Test func addedMandatoryRelationshipFailsOnExistingRows() throws {
        let changed = MigrationModels()
        let owner = TestStack.relationship("owner", to: changed.folder, optional: false)
        changed.tag.properties += [owner]
        let versions = try MigrationModels.versions(MigrationModels().model(), changed.model())
        let url = TestStack.temporaryStoreURL()
        try MigrationModels.writeVersion1(to: url, model: versions[0])
        let error = Self.error { _ = try MigrationModels.open(url, versions[1]) }
        #expect(error?.code == NSMigrationError)
        let underlying = error?.userInfo[NSUnderlyingErrorKey] as? NSError
        #expect(underlying?.userInfo["relationship"] as? String == "owner")
        #expect(underlying?.userInfo["entity"] as? String == "Tag")
    }

    /// A uniqueness constraint added over rows that break it:
    /// NSMigrationConstraintViolationError (134111, "migration failed due to a
    /// violated uniqueness constraint", CoreDataErrors.h), naming the entity; the store stays.
    @Test func addedUniquenessConstraintBrokenByTheRows() throws {
        let changed = MigrationModels()
        changed.note.uniquenessConstraints = [["count"]]
        let unique = MigrationModels()
        unique.folder.uniquenessConstraints = [["name"]]
        let versions = try MigrationModels.versions(MigrationModels().model(), changed.model(), unique.model())
        let url = TestStack.temporaryStoreURL()
        try MigrationModels.writeVersion1(to: url, model: versions[0])
        // Notes' counts are all different: that constraint holds and the migration runs.
        #expect(try MigrationModels.rows(MigrationModels.open(url, versions[1]), "Note", ["title"]).count == 6)

        let clash = TestStack.temporaryStoreURL()
        try MigrationModels.writeVersion1(to: clash, model: versions[0])
        let writer = try MigrationModels.open(clash, versions[0], options: nil)
        try writer.performAndWait { () throws in
            TestStack.insert("Folder", into: writer, ["name": "f0"])
            try writer.save()
        }
        let before = try Self.dump(clash)
        let error = Self.error { _ = try MigrationModels.open(clash, versions[2]) }
        #expect(error?.code == NSMigrationConstraintViolationError)
        #expect(error?.userInfo["entity"] as? String == "Folder")
        #expect(try Self.dump(clash) == before)
    }

    /// No version at hand wrote the store: 134130, missing source model.
    @Test func unknownSourceModel() throws {
        let (url, _, _) = try Self.store()
        let stranger = MigrationModels()
        stranger.tag.properties += [NSAttributeDescription(name: "colour", type: .stringAttributeType)]
        let lone = try MigrationModels.versions(stranger.model())[0]
        let error = Self.error { _ = try MigrationModels.open(url, lone) }
        #expect(error?.code == NSMigrationMissingSourceModelError)
    }

    /// NSPersistentContainer's descriptions set both options, as Apple's do:
    /// loading the container migrates.
    @Test func aContainerMigratesByDefault() throws {
        let (url, _, v2) = try Self.store()
        let container = NSPersistentContainer(name: "Notes", managedObjectModel: v2)
        let description = NSPersistentStoreDescription(url: url)
        #expect(description.shouldMigrateStoreAutomatically && description.shouldInferMappingModelAutomatically)
        container.persistentStoreDescriptions = [description]
        var failure: Error?
        container.loadPersistentStores { _, error in failure = error }
        #expect(failure == nil)
        #expect(try MigrationModels.rows(container.viewContext, "Note", ["title", "subtitle"]).count == 6)
    }

    /// Opened again after a migration, the store needs none.
    @Test func aMigratedStoreOpensWithoutOptions() throws {
        let (url, _, v2) = try Self.store()
        _ = try MigrationModels.open(url, v2)
        let context = try MigrationModels.open(url, v2, options: nil)
        #expect(try MigrationModels.rows(context, "Note", LightweightMigrationTests.noteKeys)
                    == LightweightMigrationTests.version1Notes)
    }
}
