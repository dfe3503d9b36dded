import Foundation
import Testing
@testable import OpenCoreDataCore

/// Mapping models read from Xcode's `.xcmappingmodel` (Tests/Fixtures/NotesMapping:
/// a Core Data XML store of XDDEVMAPPINGMODEL, XDDEVENTITYMAPPING and
/// XDDEV…MAPPING objects, written for these tests in the format Xcode's
/// mapping editor saves), found in bundles by the models they map, and used
/// by the coordinator on open before inference ("Core Data looks for a
/// mapping model in the bundles first", NSMigratePersistentStoresAutomaticallyOption).
/// https://developer.apple.com/documentation/coredata/nsmappingmodel/init(from:forsourcemodel:destinationmodel:)
/// https://developer.apple.com/documentation/coredata/nsmigratepersistentstoresautomaticallyoption
@Suite(.serialized) struct XcodeMappingModelTests {
    /// The fixture folder copied to a temporary folder (tests write only there).
    static func fixture() throws -> URL {
        let folder = TestStack.temporaryStoreURL("NotesMapping")
        try FileManager.default.copyItem(at: Subprocess.root.appendingPathComponent("Tests/Fixtures/NotesMapping"),
                                         to: folder)
        return folder
    }

    static func versions(in folder: URL) throws -> (NSManagedObjectModel, NSManagedObjectModel) {
        let bundle = try ModelVersionBundle(url: folder.appendingPathComponent("Notes.xcdatamodeld"))
        return (try bundle.model(named: "Notes"), try bundle.model(named: "Notes 2"))
    }

    /// The notes the fixture's mapping keeps (count >= 20: n2…n5), as CustomMigrationFixture lists them.
    static let migratedNotes = Array(CustomMigrationFixture.migratedNotes[2...]).map { row in
        row.enumerated().map { $0.offset == 5 ? ($0.element.contains("t1") ? "t0-a,t0-b,t1-a,t1-b" : "t0-a,t0-b")
                                              : $0.element }
    }

    @Test func readsEntityMappingsInOrderWithXcodesDefaults() throws {
        let folder = try Self.fixture()
        let mapping = try #require(NSMappingModel(contentsOf: folder.appendingPathComponent(
            "NotesToNotes2.xcmappingmodel")))
        let mappings = mapping.entityMappings ?? []
        #expect(mappings.map(\.name) == ["FolderToFolder", "NoteToNote", "TagToLabel"])
        // "Undefined" is worked out from the recorded models: Folder is unchanged, Note changed.
        #expect(mappings.map(\.mappingType) == [.copyEntityMappingType, .transformEntityMappingType,
                                                 .customEntityMappingType])
        #expect(mappings[2].entityMigrationPolicyClassName == "TwoLabelsPolicy")
        let (source, destination) = try Self.versions(in: folder)
        #expect(mappings[1].sourceEntityVersionHash == source.entitiesByName["Note"]?.versionHash)
        #expect(mappings[1].destinationEntityVersionHash == destination.entitiesByName["Note"]?.versionHash)
        // Defaults Xcode leaves to its compiler: $source.<name>, and the relationship re-linked through the
        // mapping of its destination entity.
        #expect("\(mappings[0].attributeMappings![0].valueExpression!)" == "$source.name")
        let notes = "\(mappings[0].relationshipMappings![0].valueExpression!)"
        #expect(notes.contains("destinationInstancesForEntityMappingNamed:sourceInstances:")
                && notes.contains("NoteToNote") && notes.contains("$source.notes"))
        #expect(MigrationPhases.sourceFetch(in: mappings[0].sourceExpression!)! == ("Folder", "TRUEPREDICATE"))
        #expect(MigrationPhases.sourceFetch(in: mappings[1].sourceExpression!)! == ("Note", "count >= 20"))
    }

    @Test func foundInBundlesByTheModelsItMaps() throws {
        let folder = try Self.fixture()
        let (source, destination) = try Self.versions(in: folder)
        let bundle = try #require(Bundle(path: folder.path))
        #expect(NSMappingModel(from: [bundle], forSourceModel: source, destinationModel: destination)?
            .entityMappings.count == 3)
        #expect(NSMappingModel(from: [bundle], forSourceModel: destination, destinationModel: source) == nil)
        #expect(NSMappingModel(from: [bundle], forSourceModel: source, destinationModel: source) == nil)
    }

    /// The fixture's mapping run by NSMigrationManager: the filter keeps 4 of 6 notes.
    @Test func migratesWithTheFileMapping() throws {
        let folder = try Self.fixture()
        let (source, destination) = try Self.versions(in: folder)
        let url = folder.appendingPathComponent("Notes.sqlite")
        try MigrationModels.writeVersion1(to: url, model: source)
        let bundle = try #require(Bundle(path: folder.path))
        let mapping = try #require(NSMappingModel(from: [bundle], forSourceModel: source,
                                                  destinationModel: destination))
        let migrated = folder.appendingPathComponent("Notes2.sqlite")
        try NSMigrationManager(sourceModel: source, destinationModel: destination)
            .migrateStore(from: url, type: .sqlite, mapping: mapping, to: migrated, type: .sqlite)
        let context = try MigrationModels.open(migrated, destination, options: nil)
        #expect(try MigrationModels.rows(context, "Note", CustomMigrationTests.noteKeys) == Self.migratedNotes)
        #expect(try MigrationModels.rows(context, "Folder", ["name", "notes"]) == [["f0", "N2,N4"], ["f1", "N3,N5"]])
    }

    /// addPersistentStore with the migration options finds the mapping model
    /// beside the model's `.xcdatamodeld` and migrates with it, in place of
    /// the store's file, even without the infer option.
    @Test func coordinatorMigratesWithTheFileOnOpen() throws {
        let folder = try Self.fixture()
        let (source, destination) = try Self.versions(in: folder)
        let url = folder.appendingPathComponent("Notes.sqlite")
        try MigrationModels.writeVersion1(to: url, model: source)
        let context = try MigrationModels.open(url, destination,
                                               options: [NSMigratePersistentStoresAutomaticallyOption: true])
        #expect(try MigrationModels.rows(context, "Note", CustomMigrationTests.noteKeys) == Self.migratedNotes)
        #expect(try MigrationModels.rows(context, "Label", ["name"]) == [["t0-a"], ["t0-b"], ["t1-a"], ["t1-b"]])
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        #expect(destination.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
                .isEmpty)
    }

    /// A mapping that fails on open (a policy class that does not exist)
    /// leaves the store's file as it was and reports a migration error.
    @Test func failedMigrationOnOpenLeavesTheStore() throws {
        let folder = try Self.fixture()
        let xml = folder.appendingPathComponent("NotesToNotes2.xcmappingmodel/xcmapping.xml")
        try String(contentsOf: xml, encoding: .utf8).replacingOccurrences(of: ">TwoLabelsPolicy<", with: ">Nope<")
            .write(to: xml, atomically: true, encoding: .utf8)
        let (source, destination) = try Self.versions(in: folder)
        let url = folder.appendingPathComponent("Notes.sqlite")
        try MigrationModels.writeVersion1(to: url, model: source)
        #expect {
            _ = try MigrationModels.open(url, destination,
                                         options: [NSMigratePersistentStoresAutomaticallyOption: true])
        } throws: { ($0 as NSError).code == NSEntityMigrationPolicyError }
        #expect(try MigrationModels.rows(MigrationModels.open(url, source, options: nil), "Tag", ["name"])
                == [["t0"], ["t1"]])
    }

    /// A file that is not a mapping model, and an archived value expression, are refused.
    @Test func unreadableFilesAreRefused() throws {
        let folder = try Self.fixture()
        let xml = folder.appendingPathComponent("NotesToNotes2.xcmappingmodel/xcmapping.xml")
        let original = try String(contentsOf: xml, encoding: .utf8)
        try original.replacingOccurrences(of: "valueexpressionstring", with: "valueexpressiondata")
            .write(to: xml, atomically: true, encoding: .utf8)
        #expect(NSMappingModel(contentsOf: xml) == nil)
        let file = try XcodeMappingFile(url: xml)
        #expect {
            _ = try XcodeMappingModelReader(file: file, source: nil, destination: nil).mappingModel()
        } throws: { ($0 as NSError).code == NSFileReadCorruptFileError }
        try Data("<plist/>".utf8).write(to: xml)
        #expect { _ = try XcodeMappingFile(url: xml) } throws: { ($0 as NSError).code == NSFileReadCorruptFileError }
    }
}

extension XcodeMappingModelTests {
    /// `ocd migrate` names the mapping model file it found beside the model
    /// and migrates through it (here without the fixture's policy, which
    /// lives in the tests: the Tag mapping then makes one Label per Tag).
    @Test func ocdMigrateUsesTheFile() throws {
        let folder = try Self.fixture()
        let xml = folder.appendingPathComponent("NotesToNotes2.xcmappingmodel/xcmapping.xml")
        try String(contentsOf: xml, encoding: .utf8)
            .replacingOccurrences(of: "<attribute name=\"migrationpolicyclassname\" type=\"string\">TwoLabelsPolicy"
                                  + "</attribute>", with: "")
            .write(to: xml, atomically: true, encoding: .utf8)
        let (source, destination) = try Self.versions(in: folder)
        let url = folder.appendingPathComponent("Notes.sqlite")
        try MigrationModels.writeVersion1(to: url, model: source)
        let model = folder.appendingPathComponent("Notes.xcdatamodeld").path
        let dry = try OCDModelCommandTests.ocd("migrate", url.path, "--model", model, "--dry-run")
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("mapping model file (custom, copied through NSMigrationManager):"))
        #expect(dry.stdout.contains("custom     Tag → Label"))
        let run = try OCDModelCommandTests.ocd("migrate", url.path, "--model", model)
        #expect(run.status == 0, "\(run.stderr)")
        let context = try MigrationModels.open(url, destination, options: nil)
        #expect(try MigrationModels.rows(context, "Label", ["name", "notes"]) == [["t0", "N2,N3,N4,N5"],
                                                                                   ["t1", "N3"]])
    }
}
