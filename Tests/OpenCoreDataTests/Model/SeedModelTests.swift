import Testing
@testable import OpenCoreDataCore

/// The seeds' models, built in code and read from the Xcode model files in
/// Examples/Models, describe the same thing.
@Suite struct SeedModelTests {
    static func load(_ path: String) throws -> NSManagedObjectModel {
        try NSManagedObjectModel.load(contentsOf: SeedModels.examples.appendingPathComponent(path))
    }

    @Test func albumAndPhotoCascade() throws {
        let file = try Self.load("FrozenTime.xcdatamodeld")
        #expect(file.isEqual(SeedModels.frozenTime()))
        let photos = try #require(file.entitiesByName["Album"]?.relationshipsByName["photos"])
        #expect(photos.isToMany && !photos.isOrdered && photos.deleteRule == .cascadeDeleteRule)
        #expect(photos.destinationEntity === file.entitiesByName["Photo"])
        #expect(photos.inverseRelationship === file.entitiesByName["Photo"]?.relationshipsByName["album"])
        #expect(photos.inverseRelationship?.deleteRule == .nullifyDeleteRule)
        #expect(photos.inverseRelationship?.isToMany == false)
        let rating = try #require(file.entitiesByName["Photo"]?.attributesByName["rating"])
        #expect(rating.attributeType == .integer16AttributeType)
        #expect(rating.defaultValue as? Int16 == 0)
        #expect(rating.validationRules == AttributeValidationRules(minValueString: "0", maxValueString: "5"))
        #expect(rating.attributeValueClassName == "NSNumber")
        #expect(file.fetchRequestDescriptionsByName["PhotosNamed"]?.predicateFormat == "name BEGINSWITH $PREFIX")
    }

    @Test func itemAndUnitDeny() throws {
        let file = try Self.load("GroceryDude.xcdatamodeld")
        #expect(file.isEqual(SeedModels.groceryDude()))
        #expect(file.entitiesByName["Unit"]?.relationshipsByName["items"]?.deleteRule == .denyDeleteRule)
        #expect(file.entitiesByName["Item"]?.attributesByName["listed"]?.defaultValue as? Bool == true)
        #expect(file.versionIdentifiers == ["5"])
    }

    @Test func versionedBundleKeepsEveryVersion() throws {
        let bundle = try ModelVersionBundle(url: SeedModels.examples.appendingPathComponent("GroceryDude.xcdatamodeld"))
        #expect(bundle.versionNames == ["Model 4", "Model 5"])
        #expect(bundle.currentVersionName == "Model 5")
        let old = try bundle.model(named: "Model 4")
        #expect(old.entities.map(\.name) == ["Item"])
        #expect(try bundle.currentModel().entities.count == 2)
        #expect(throws: ModelFileError.self) { try bundle.model(named: "Model 9") }
    }

    @Test func departmentAndEmployeeWithReflexiveManager() throws {
        let file = try Self.load("Company.xcdatamodel")
        #expect(file.isEqual(SeedModels.company()))
        let employee = try #require(file.entitiesByName["Employee"])
        let manager = try #require(employee.relationshipsByName["manager"])
        #expect(manager.destinationEntity === employee)
        #expect(manager.inverseRelationship === employee.relationshipsByName["directReports"])
        #expect(employee.relationships(forDestination: employee).map(\.name).sorted() == ["directReports", "manager"])
        #expect(employee.attributesByName["salary"]?.defaultValue as? Decimal == 0)
    }

    @Test func quakeAndCountryManyToMany() throws {
        let file = try Self.load("Earthquakes.xcdatamodel")
        #expect(file.isEqual(SeedModels.earthquakes()))
        let countries = try #require(file.entitiesByName["Quake"]?.relationshipsByName["countries"])
        #expect(countries.isToMany && countries.inverseRelationship?.isToMany == true)
        #expect(countries.deleteRule == .nullifyDeleteRule && countries.inverseRelationship?.deleteRule == .nullifyDeleteRule)
        #expect(file.entitiesByName["Country"]?.uniquenessConstraints as? [[String]] == [["name"]])
        #expect(file.entitiesByName["Quake"]?.indexes.first?.elements.first?.isAscending == false)
        #expect(file.entitiesByName["Quake"]?.indexes.first?.elements.first?.property?.name == "time")
    }

    @Test(arguments: ["FrozenTime.xcdatamodeld", "GroceryDude.xcdatamodeld", "Company.xcdatamodel", "Earthquakes.xcdatamodel"])
    func seedModelsValidateAndRoundTrip(_ path: String) throws {
        let model = try Self.load(path)
        try model.validate()
        #expect(model.validationWarnings.isEmpty)
        let again = try ModelXMLReader.read(data: Data(model.modelFileXML.utf8))
        #expect(again.isEqual(model))
    }

    @Test func differentModelsAreNotEqual() {
        #expect(!SeedModels.company().isEqual(SeedModels.earthquakes()))
        let changed = SeedModels.company()
        changed.entitiesByName["Employee"]?.relationshipsByName["manager"]?.deleteRule = .cascadeDeleteRule
        #expect(!changed.isEqual(SeedModels.company()))
    }
}
