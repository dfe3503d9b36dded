import Foundation
import Testing
@testable import OpenCoreDataCore

/// `NSMappingModel.inferredMappingModel(forSourceModel:destinationModel:)`
/// (https://developer.apple.com/documentation/coredata/nsmappingmodel, page
/// inferredmappingmodel(forsourcemodel:destinationmodel:)): the changes Apple's
/// "Lightweight Migration" guide lists are inferred (https://developer.apple.com/library/archive/documentation/
/// Cocoa/Conceptual/CoreDataVersioning/Articles/vmLightweightMigration.html),
/// anything else throws NSInferredMappingModelError (134190) naming the entity and property.
@Suite struct InferredMappingModelTests {
    static func infer(_ source: NSManagedObjectModel, _ destination: NSManagedObjectModel) throws -> NSMappingModel {
        try NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: destination)
    }

    static func refusal(_ source: NSManagedObjectModel, _ destination: NSManagedObjectModel) -> NSError? {
        do { _ = try infer(source, destination) } catch { return error as NSError }
        return nil
    }

    @Test func identicalModelsCopyEveryEntity() throws {
        let source = MigrationModels().model()
        let mapping = try Self.infer(source, MigrationModels().model())
        #expect(mapping.entityMappings.map(\.mappingType) == [.copyEntityMappingType, .copyEntityMappingType,
                                                              .copyEntityMappingType])
        #expect(mapping.entityMappings.map(\.name) == ["IEM_Copy_Folder", "IEM_Copy_Note", "IEM_Copy_Tag"])
        let note = try #require(mapping.entityMappingsByName["IEM_Copy_Note"])
        #expect(note.sourceEntityName == "Note" && note.destinationEntityName == "Note")
        #expect(note.sourceEntityVersionHash == source.entitiesByName["Note"]?.versionHash)
        #expect(note.attributeMappings?.map { $0.name ?? "" } == ["title", "body", "count"])
        #expect(note.attributeMappings?.first?.valueExpression?.description == "$source.title")
        #expect(note.relationshipMappings?.map { $0.name ?? "" } == ["folder", "tags"])
        #expect(note.relationshipMappings?.first?.valueExpression?.description
                    == #"FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "#
                    + #""folder", $source.folder)"#)
    }

    @Test func addedRemovedAndRenamedEntities() throws {
        let changed = MigrationModels()
        changed.folder.name = "Box"
        changed.folder.renamingIdentifier = "Folder"
        let album = NSEntityDescription(name: "Album")
        album.properties = [NSAttributeDescription(name: "name", type: .stringAttributeType)]
        changed.note.properties = changed.note.ownProperties.filter { $0.name != "tags" }
        let model = NSManagedObjectModel()
        model.entities = [changed.folder, changed.note, album]
        let mapping = try Self.infer(MigrationModels().model(), model)
        let summary = mapping.entityMappings.map { "\($0.mappingType.rawValue) \($0.sourceEntityName ?? "-") "
                                                   + "\($0.destinationEntityName ?? "-")" }
        #expect(summary == ["5 Folder Box", "5 Note Note", "2 - Album", "3 Tag -"])
        #expect(mapping.entityMappings[2].attributeMappings?.first?.valueExpression == nil)
    }

    /// "The renaming identifier creates a canonical name": a property renamed
    /// in v2 and again in v3 keeps it, and v1 → v3 pairs it too.
    @Test func renamingIdentifierIsCanonicalAcrossVersions() throws {
        func version(_ name: String?) -> NSManagedObjectModel {
            let models = MigrationModels()
            if let name {
                let title = models.property(models.note, "title")
                let renamed = NSAttributeDescription(name: name, type: .stringAttributeType)
                renamed.renamingIdentifier = "title"
                models.note.properties = models.note.ownProperties.map { $0 === title ? renamed : $0 }
            }
            return models.model()
        }
        let (v1, v2, v3) = (version(nil), version("heading"), version("caption"))
        for (source, destination) in [(v1, v2), (v2, v3), (v1, v3)] {
            let mappings = try Self.infer(source, destination).entityMappings ?? []
            let note = try #require(mappings.first { $0.destinationEntityName == "Note" })
            let renamed = note.attributeMappings?.first {
                $0.sourcePropertyName != nil && $0.name != $0.sourcePropertyName
            }
            #expect(renamed != nil)
        }
    }

    @Test func optionalityAndOrderChangesAreInferred() throws {
        let changed = MigrationModels(notesOrdered: true)
        (changed.property(changed.note, "title") as! NSAttributeDescription).isOptional = false
        #expect(throws: Never.self) { try Self.infer(MigrationModels().model(), changed.model()) }
    }

    /// "Changing an attribute type" is not in the guide's list; apps ship
    /// numeric changes as lightweight migrations (WooCommerce's Storage
    /// model 3: Int16 → Int64, model 46: Int64 → Decimal, no mapping model;
    /// https://github.com/woocommerce/woocommerce-ios, Storage/Storage/Model/MIGRATIONS.md).
    @Test func onlyNumericTypeChangesAreInferred() throws {
        let numeric = MigrationModels()
        (numeric.property(numeric.note, "count") as! NSAttributeDescription).attributeType = .decimalAttributeType
        #expect(throws: Never.self) { try Self.infer(MigrationModels().model(), numeric.model()) }
        let changed = MigrationModels()
        (changed.property(changed.note, "count") as! NSAttributeDescription).attributeType = .stringAttributeType
        let error = Self.refusal(MigrationModels().model(), changed.model())
        #expect(error?.code == NSInferredMappingModelError)
        #expect(error?.domain == NSCocoaErrorDomain)
        #expect(error?.userInfo["entity"] as? String == "Note")
        #expect(error?.userInfo["property"] as? String == "count")
    }

    /// Only "a to-one to a to-many" is listed; the reverse would drop destinations.
    @Test func toManyToToOneIsRefused() {
        let changed = MigrationModels()
        let one = TestStack.relationship("tags", to: changed.tag)
        TestStack.pair(one, changed.tagNotes)
        changed.note.properties = changed.note.ownProperties.map { $0.name == "tags" ? one : $0 }
        let error = Self.refusal(MigrationModels().model(), changed.model())
        #expect(error?.code == NSInferredMappingModelError)
        #expect(error?.userInfo["property"] as? String == "tags")
        #expect(error?.localizedDescription.contains("to-many to to-one") == true)
    }

    @Test func relationshipToAnotherEntityIsRefused() {
        let changed = MigrationModels()
        let folder = TestStack.relationship("folder", to: changed.tag)
        changed.note.properties = changed.note.ownProperties.map { $0.name == "folder" ? folder : $0 }
        changed.folder.properties = changed.folder.ownProperties.filter { $0.name != "notes" }
        let error = Self.refusal(MigrationModels().model(), changed.model())
        #expect(error?.userInfo["entity"] as? String == "Note")
        #expect(error?.userInfo["property"] as? String == "folder")
    }

    @Test func attributeBecomingRelationshipIsRefused() {
        let changed = MigrationModels()
        let body = TestStack.relationship("body", to: changed.tag)
        changed.note.properties = changed.note.ownProperties.map { $0.name == "body" ? body : $0 }
        let error = Self.refusal(MigrationModels().model(), changed.model())
        #expect(error?.userInfo["property"] as? String == "body")
        #expect(error?.localizedDescription.contains("from an attribute to a relationship") == true)
    }

    /// "You cannot merge entity hierarchies": Folder and Tag, two roots,
    /// cannot become sub-entities of one new parent.
    @Test func mergingHierarchiesIsRefused() {
        let changed = MigrationModels()
        let parent = NSEntityDescription(name: "Thing")
        parent.subentities = [changed.folder, changed.tag]
        let error = Self.refusal(MigrationModels().model(), changed.model([parent]))
        #expect(error?.code == NSInferredMappingModelError)
        #expect(error?.localizedDescription.contains("merging entity hierarchies") == true)
    }
}
