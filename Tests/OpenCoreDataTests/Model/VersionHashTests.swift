import Testing
@testable import OpenCoreDataCore

/// Version hashes: stable across runs and processes, equal for equal models,
/// changed by exactly the inputs Core Data hashes. Sources: NSEntityDescription.h
/// and NSPropertyDescription.h `versionHash` (shared/reference §8.2), and a
/// public black-box XCTest suite run against Apple's Core Data ("Test our
/// assumptions about various CoreData behaviors", David Spooner), which shows
/// that allowsExternalBinaryDataStorage, preservesValueInHistoryOnDeletion and
/// isOrdered change the hash while deleteRule, fetched properties, class
/// names, default values and transformer names do not.
@Suite struct VersionHashTests {
    static func hex(_ data: Data?) -> String { (data ?? Data()).map { String(format: "%02x", $0) }.joined() }

    /// Golden values: computed once and written here, so a change of the
    /// encoding (which would make every existing store incompatible) fails.
    @Test func hashesAreStableAcrossProcesses() {
        let hashes = SeedModels.frozenTime().entityVersionHashesByName
        #expect(Self.hex(hashes["Album"]) == Self.goldenAlbum)
        #expect(Self.hex(hashes["Photo"]) == Self.goldenPhoto)
        #expect(hashes["Album"]?.count == 32)
    }

    static let goldenAlbum = "4610b5db57082ae2b2b3bffc8e72fa5cd9bc0a91205b5d0993011df942c065d4"
    static let goldenPhoto = "3b26074b8074188f6e526b0754fcc7b43146fa224c9eb653126b5536da0c5823"

    @Test func equalModelsHaveEqualHashes() throws {
        let file = try NSManagedObjectModel.load(contentsOf: SeedModels.examples.appendingPathComponent("Earthquakes.xcdatamodel"))
        #expect(file.entityVersionHashesByName == SeedModels.earthquakes().entityVersionHashesByName)
        let copy = SeedModels.company().copy() as! NSManagedObjectModel
        #expect(copy.entityVersionHashesByName == SeedModels.company().entityVersionHashesByName)
    }

    /// Each edit must change the hash of the entity it touches.
    @Test(arguments: [
        "entity name", "property name", "attribute type", "optionality", "transience", "destination",
        "cardinality", "orderedness", "minCount", "inverse name", "entity modifier", "property modifier",
        "abstract", "superentity", "uniqueness constraint", "new attribute", "external storage", "history",
    ])
    func hashChangesWith(_ change: String) throws {
        let before = Self.hashes(of: SeedModels.company())
        let model = SeedModels.company()
        let employee = try #require(model.entitiesByName["Employee"])
        let department = try #require(model.entitiesByName["Department"])
        var touched = "Employee"
        switch change {
        case "entity name": employee.name = "Worker"
        case "property name": employee.attributesByName["name"]!.name = "fullName"
        case "attribute type": employee.attributesByName["salary"]!.attributeType = .doubleAttributeType
        case "optionality": employee.attributesByName["name"]!.isOptional = true
        case "transience": employee.attributesByName["salary"]!.isTransient = true
        case "destination": employee.relationshipsByName["department"]!.destinationEntity = employee
        case "cardinality": employee.relationshipsByName["manager"]!.maxCount = 0
        case "orderedness": employee.relationshipsByName["directReports"]!.isOrdered = true
        case "minCount": employee.relationshipsByName["directReports"]!.minCount = 1
        case "inverse name": department.relationshipsByName["employees"]!.name = "staff"
        case "entity modifier": employee.versionHashModifier = "2"
        case "property modifier": employee.attributesByName["name"]!.versionHashModifier = "2"
        case "abstract": department.isAbstract = true; touched = "Department"
        case "superentity": department.subentities = [employee]
        case "uniqueness constraint": employee.uniquenessConstraints = [["name"]]
        case "new attribute": employee.properties += [NSAttributeDescription(name: "age", type: .integer16AttributeType)]
        case "external storage": employee.attributesByName["name"]!.allowsExternalBinaryDataStorage = true
        case "history": employee.attributesByName["name"]!.preservesValueInHistoryOnDeletion = true
        default: Issue.record("unknown change \(change)")
        }
        let after = Self.hashes(of: model)
        let key = touched == "Employee" && change == "entity name" ? "Worker" : touched
        #expect(after[key] != nil && after[key] != before[touched], "\(change) did not change \(touched)'s hash")
    }

    /// What Core Data leaves out of the hash does not change it.
    @Test(arguments: ["class name", "userInfo", "index", "default value", "validation rule", "delete rule", "renaming identifier",
                      "transformer", "fetched property", "spotlight", "cloud encryption"])
    func hashIgnores(_ change: String) throws {
        let before = Self.hashes(of: SeedModels.company())
        let model = SeedModels.company()
        let employee = try #require(model.entitiesByName["Employee"])
        switch change {
        case "class name": employee.managedObjectClassName = "Staff"
        case "userInfo": employee.userInfo = ["key": "value"]
        case "index": employee.indexes = [NSFetchIndexDescription(name: "byName", elements: [NSFetchIndexElementDescription(propertyName: "name")])]
        case "default value": employee.attributesByName["salary"]!.defaultValue = Decimal(10)
        case "validation rule": employee.attributesByName["name"]!.validationRules.maxValueString = "10"
        case "delete rule": employee.relationshipsByName["manager"]!.deleteRule = .cascadeDeleteRule
        case "renaming identifier": employee.attributesByName["name"]!.renamingIdentifier = "title"
        case "transformer": employee.attributesByName["name"]!.valueTransformerName = "Custom"
        case "fetched property":
            let fetched = NSFetchedPropertyDescription()
            fetched.name = "colleagues"
            fetched.fetchRequestDescription = FetchRequestDescription(entityName: "Employee", predicateFormat: "department == $FETCH_SOURCE.department")
            employee.properties += [fetched]
        case "spotlight": employee.attributesByName["name"]!.isIndexedBySpotlight = true
        case "cloud encryption": employee.attributesByName["name"]!.allowsCloudEncryption = true
        default: Issue.record("unknown change \(change)")
        }
        #expect(Self.hashes(of: model) == before)
    }

    @Test func subentityHashFollowsSuperentity() {
        let model = SeedModels.company()
        let department = model.entitiesByName["Department"]!, employee = model.entitiesByName["Employee"]!
        let manager = NSEntityDescription(name: "Manager", properties: [NSAttributeDescription(name: "level", type: .integer16AttributeType)])
        employee.subentities = [manager]
        model.entities = [department, employee, manager]
        let before = manager.versionHash
        employee.attributesByName["name"]!.isOptional = true
        #expect(manager.versionHash != before)
    }

    static func hashes(of model: NSManagedObjectModel) -> [String: Data] { model.entityVersionHashesByName }
}
