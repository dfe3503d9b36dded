import Foundation
@testable import OpenCoreDataCore

/// A custom migration of MigrationModels' version 1 (Folder, Note, Tag) to
/// a version 2 no inference can reach, built in code as Apple's "Core Data
/// Model Versioning and Data Migration Programming Guide" describes mapping
/// models: Note.title split into `letter` and `number`, `heading` the title
/// uppercased through FUNCTION, `score` computed; each Tag becomes two
/// Labels (a custom policy); relationships re-linked through
/// `destinationInstancesForEntityMappingNamed:sourceInstances:`.
/// https://developer.apple.com/documentation/coredata/nsentitymigrationpolicy
struct CustomMigrationFixture {
    let source: NSManagedObjectModel
    let destination: NSManagedObjectModel
    let url: URL

    init() throws {
        url = TestStack.temporaryStoreURL()
        source = MigrationModels().model()
        try MigrationModels.writeVersion1(to: url, model: source)
        destination = Self.version2()
    }

    /// Folder(name, notes), Note(heading, letter, number, score, folder, labels), Label(name, notes).
    static func version2(headingRequired: Bool = false) -> NSManagedObjectModel {
        let folder = NSEntityDescription(name: "Folder"), note = NSEntityDescription(name: "Note")
        let label = NSEntityDescription(name: "Label")
        let notes = TestStack.relationship("notes", to: note, toMany: true)
        let noteFolder = TestStack.relationship("folder", to: folder)
        let labels = TestStack.relationship("labels", to: label, toMany: true)
        let labelNotes = TestStack.relationship("notes", to: note, toMany: true)
        TestStack.pair(notes, noteFolder)
        TestStack.pair(labels, labelNotes)
        folder.properties = [NSAttributeDescription(name: "name", type: .stringAttributeType), notes]
        note.properties = [NSAttributeDescription(name: "heading", type: .stringAttributeType,
                                                  isOptional: !headingRequired),
                           NSAttributeDescription(name: "letter", type: .stringAttributeType),
                           NSAttributeDescription(name: "number", type: .stringAttributeType),
                           NSAttributeDescription(name: "score", type: .integer64AttributeType), noteFolder, labels]
        label.properties = [NSAttributeDescription(name: "name", type: .stringAttributeType), labelNotes]
        let model = NSManagedObjectModel()
        model.entities = [folder, note, label]
        return model
    }

    /// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", mapping, $source.key)`.
    static func relink(_ key: String, through mapping: String) -> NSPropertyMapping {
        property(key, "FUNCTION($manager, 'destinationInstancesForEntityMappingNamed:sourceInstances:', "
                 + "'\(mapping)', $source.\(key == "labels" ? "tags" : key))")
    }

    static func property(_ name: String, _ format: String?) -> NSPropertyMapping {
        let mapping = NSPropertyMapping()
        mapping.name = name
        mapping.valueExpression = format.map { NSExpression(format: $0) }
        return mapping
    }

    static func entityMapping(_ name: String, _ type: NSEntityMappingType, _ source: String, _ destination: String,
                              attributes: [NSPropertyMapping], relationships: [NSPropertyMapping],
                              policy: String? = nil) -> NSEntityMapping {
        let mapping = NSEntityMapping()
        mapping.name = name
        mapping.mappingType = type
        mapping.sourceEntityName = source
        mapping.destinationEntityName = destination
        mapping.attributeMappings = attributes
        mapping.relationshipMappings = relationships
        mapping.entityMigrationPolicyClassName = policy
        return mapping
    }

    /// The mapping model, the Tag mapping run by `tagPolicy`.
    static func mapping(tagPolicy: String = "TwoLabelsPolicy", notePolicy: String? = nil) -> NSMappingModel {
        let model = NSMappingModel()
        model.entityMappings = [
            entityMapping("FolderToFolder", .copyEntityMappingType, "Folder", "Folder",
                          attributes: [property("name", "$source.name")],
                          relationships: [relink("notes", through: "NoteToNote")]),
            entityMapping("NoteToNote", .transformEntityMappingType, "Note", "Note",
                          attributes: [property("heading", "FUNCTION($source.title, 'uppercaseString')"),
                                       property("letter", "FUNCTION($source.title, 'substringToIndex:', 1)"),
                                       property("number", "FUNCTION($source.title, 'substringFromIndex:', 1)"),
                                       property("score", "$source.count * 2 + 1")],
                          relationships: [relink("folder", through: "FolderToFolder"),
                                          relink("labels", through: "TagToLabel")],
                          policy: notePolicy),
            entityMapping("TagToLabel", .customEntityMappingType, "Tag", "Label",
                          attributes: [property("name", "$source.name")],
                          relationships: [relink("notes", through: "NoteToNote")], policy: tagPolicy),
        ]
        return model
    }

    /// Every note of the migrated store: heading, letter, number, score, folder, labels.
    static let migratedNotes: [[String]] = (0..<6).map { i in
        let labels = i == 0 || i == 3 ? "t0-a,t0-b,t1-a,t1-b" : "t0-a,t0-b"
        return ["N\(i)", "n", "\(i)", "\(i * 20 + 1)", "f\(i % 2)", labels]
    }

    /// Migrates with `manager` into a new file beside the source; its URL.
    func migrate(_ manager: NSMigrationManager, mapping: NSMappingModel = mapping()) throws -> URL {
        let destinationURL = url.deletingLastPathComponent().appendingPathComponent("Migrated.sqlite")
        try manager.migrateStore(from: url, type: .sqlite, mapping: mapping, to: destinationURL, type: .sqlite)
        return destinationURL
    }

    /// The files in the store's folder, by name.
    var folderContents: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)) ?? []).sorted()
    }
}

/// Makes two Labels of each Tag ("t0-a", "t0-b"), both associated with it,
/// so that relationships reach both: "createDestinationInstances(forSource:in:manager:)
/// … associate the source and destination instances" (Apple's documentation).
final class TwoLabelsPolicy: NSEntityMigrationPolicy, @unchecked Sendable {
    override func createDestinationInstances(forSource sInstance: NSManagedObject, in mapping: NSEntityMapping,
                                             manager: NSMigrationManager) throws {
        for suffix in ["a", "b"] {
            let label = NSEntityDescription.insertNewObject(forEntityName: "Label", into: manager.destinationContext)
            label.setValue("\(sInstance.value(forKey: "name") as! String)-\(suffix)", forKey: "name")
            manager.associate(sourceInstance: sInstance, withDestinationInstance: label, for: mapping)
        }
    }
}

/// A policy that fails on the third note it sees.
final class FailingNotePolicy: NSEntityMigrationPolicy, @unchecked Sendable {
    nonisolated(unsafe) static var seen = 0
    override func createDestinationInstances(forSource sInstance: NSManagedObject, in mapping: NSEntityMapping,
                                             manager: NSMigrationManager) throws {
        try super.createDestinationInstances(forSource: sInstance, in: mapping, manager: manager)
        if manager.sourceInstances(forEntityMappingName: "NoteToNote", destinationInstances: nil).count == 3 {
            throw NSError(domain: "PolicyTest", code: 7, userInfo: [NSLocalizedDescriptionKey: "third note refused"])
        }
    }
}

/// A policy that cancels the migration on the fourth note it sees.
final class CancellingNotePolicy: NSEntityMigrationPolicy, @unchecked Sendable {
    override func createDestinationInstances(forSource sInstance: NSManagedObject, in mapping: NSEntityMapping,
                                             manager: NSMigrationManager) throws {
        try super.createDestinationInstances(forSource: sInstance, in: mapping, manager: manager)
        if manager.destinationInstances(forEntityMappingName: "NoteToNote", sourceInstances: nil).count == 4 {
            manager.cancelMigrationWithError(NSError(domain: NSCocoaErrorDomain, code: NSMigrationCancelledError))
        }
    }
}

/// Records `migrationProgress` (and ``observed``'s fraction) at every instance and relationship it handles, and
/// each phase's calls.
final class ProgressRecordingPolicy: NSEntityMigrationPolicy, @unchecked Sendable {
    nonisolated(unsafe) static var readings: [Float] = []
    nonisolated(unsafe) static var calls: [String] = []
    /// A `Progress` whose `fractionCompleted` is read with each reading (MigrationProgressTests).
    nonisolated(unsafe) static var observed: Progress?
    nonisolated(unsafe) static var observedReadings: [Double] = []

    private static func read(_ manager: NSMigrationManager) {
        readings.append(manager.migrationProgress)
        if let observed { observedReadings.append(observed.fractionCompleted) }
    }

    override func begin(_ mapping: NSEntityMapping, with manager: NSMigrationManager) throws {
        Self.calls.append("begin")
    }
    override func createDestinationInstances(forSource sInstance: NSManagedObject, in mapping: NSEntityMapping,
                                             manager: NSMigrationManager) throws {
        Self.read(manager)
        try super.createDestinationInstances(forSource: sInstance, in: mapping, manager: manager)
    }
    override func endInstanceCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        Self.calls.append("endInstanceCreation")
    }
    override func createRelationships(forDestination dInstance: NSManagedObject, in mapping: NSEntityMapping,
                                      manager: NSMigrationManager) throws {
        Self.read(manager)
        try super.createRelationships(forDestination: dInstance, in: mapping, manager: manager)
    }
    override func endRelationshipCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        Self.calls.append("endRelationshipCreation")
    }
    override func performCustomValidation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        Self.calls.append("performCustomValidation")
    }
    override func end(_ mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        Self.calls.append("end")
    }
}
