import Testing
@testable import OpenCoreDataCore

/// The model API behaves as Apple's headers describe it (NSManagedObjectModel.h,
/// NSEntityDescription.h, NSPropertyDescription.h, NSAttributeDescription.h,
/// NSRelationshipDescription.h; shared/reference §1).
@Suite struct ModelAPITests {
    @Test func rawValuesAreApples() {
        #expect(NSAttributeType.allCases.map(\.rawValue) == [0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200, 1800, 2000, 2100])
        #expect(NSDeleteRule.allCases.map(\.rawValue) == [0, 1, 2, 3])
        #expect(NSFetchIndexElementType.rTree.rawValue == 1)
        #expect(NSValidationMultipleErrorsError == 1560 && NSPersistentStoreIncompatibleVersionHashError == 134100)
    }

    @Test func attributeValueClassNamesFollowTheType() {
        let expected: [NSAttributeType: String?] = [
            .integer16AttributeType: "NSNumber", .booleanAttributeType: "NSNumber", .decimalAttributeType: "NSDecimalNumber",
            .stringAttributeType: "NSString", .dateAttributeType: "NSDate", .binaryDataAttributeType: "NSData",
            .UUIDAttributeType: "NSUUID", .URIAttributeType: "NSURL", .transformableAttributeType: nil,
        ]
        for (type, name) in expected {
            #expect(NSAttributeDescription(name: "a", type: type).attributeValueClassName == name)
        }
        let transformable = NSAttributeDescription(name: "tags", type: .transformableAttributeType)
        transformable.attributeValueClassName = "NSArray"
        #expect(transformable.attributeValueClassName == "NSArray")
    }

    @Test func newDescriptionsHaveCoreDatasDefaults() {
        let attribute = NSAttributeDescription()
        #expect(attribute.isOptional && !attribute.isTransient && attribute.attributeType == .undefinedAttributeType)
        let relationship = NSRelationshipDescription()
        #expect(relationship.maxCount == 1 && !relationship.isToMany && relationship.deleteRule == .nullifyDeleteRule)
        #expect(NSEntityDescription().managedObjectClassName == "NSManagedObject")
        #expect(NSFetchedPropertyDescription().isReadOnly && !attribute.isReadOnly)
    }

    @Test func subentitiesInheritProperties() throws {
        let model = SeedModels.company()
        let employee = try #require(model.entitiesByName["Employee"])
        let manager = NSEntityDescription(name: "Manager", properties: [NSAttributeDescription(name: "level", type: .integer16AttributeType)])
        employee.subentities = [manager]
        model.entities += [manager]
        #expect(manager.superentity === employee)
        #expect(employee.subentitiesByName["Manager"] === manager)
        #expect(manager.properties.map(\.name) == employee.properties.map(\.name) + ["level"])
        #expect(manager.propertiesByName["name"] === employee.propertiesByName["name"])
        #expect(manager.propertiesByName["name"]?.entity === employee)
        #expect(manager.relationshipsByName["manager"] != nil && manager.attributesByName["level"] != nil)
        #expect(manager.isKindOf(entity: employee) && !employee.isKindOf(entity: manager))
        #expect(manager.relationships(forDestination: employee).count == 2)
        // Setting `properties` with the inherited ones included keeps them inherited.
        manager.properties = manager.properties + [NSAttributeDescription(name: "budget", type: .doubleAttributeType)]
        #expect(manager.ownProperties.map(\.name) == ["level", "budget"])
        try model.validate()
    }

    @Test func configurations() throws {
        let model = SeedModels.company()
        let employee = try #require(model.entitiesByName["Employee"])
        #expect(model.configurations.isEmpty)
        #expect(model.entities(forConfigurationName: nil)?.count == 2)
        #expect(model.entities(forConfigurationName: "Default")?.count == 2)
        #expect(model.entities(forConfigurationName: "Cloud") == nil)
        model.setEntities([employee], forConfigurationName: "Cloud")
        #expect(model.configurations == ["Cloud"])
        #expect(model.entities(forConfigurationName: "Cloud") == [employee])
        let reread = try ModelXMLReader.read(data: Data(model.modelFileXML.utf8))
        #expect(reread.entities(forConfigurationName: "Cloud")?.map(\.name) == ["Employee"])
    }

    @Test func mergingModels() throws {
        let merged = try #require(NSManagedObjectModel(byMerging: [SeedModels.company(), SeedModels.earthquakes()]))
        #expect(Set(merged.entitiesByName.keys) == ["Department", "Employee", "Country", "Quake"])
        let countries = merged.entitiesByName["Quake"]?.relationshipsByName["countries"]
        #expect(countries?.destinationEntity === merged.entitiesByName["Country"])
        #expect(merged.entitiesByName["Quake"]?.managedObjectModel === merged)
        try merged.validate()
        #expect(NSManagedObjectModel(byMerging: [SeedModels.company(), SeedModels.company()]) == nil)
        let fromFiles = try NSManagedObjectModel.mergedModel(contentsOf: [
            SeedModels.examples.appendingPathComponent("FrozenTime.xcdatamodeld"),
            SeedModels.examples.appendingPathComponent("Earthquakes.xcdatamodel"),
        ])
        #expect(fromFiles.entities.count == 4)
        #expect(fromFiles.fetchRequestDescriptionsByName["PhotosNamed"] != nil)
    }

    @Test func copyIsDeepAndRelinked() throws {
        let original = SeedModels.frozenTime()
        let copy = try #require(original.copy() as? NSManagedObjectModel)
        #expect(copy.isEqual(original))
        let photos = try #require(copy.entitiesByName["Album"]?.relationshipsByName["photos"])
        #expect(photos.destinationEntity === copy.entitiesByName["Photo"])
        #expect(photos.inverseRelationship === copy.entitiesByName["Photo"]?.relationshipsByName["album"])
        #expect(photos !== original.entitiesByName["Album"]?.relationshipsByName["photos"])
        photos.deleteRule = .denyDeleteRule
        #expect(original.entitiesByName["Album"]?.relationshipsByName["photos"]?.deleteRule == .cascadeDeleteRule)
    }

    /// Equality sees every setting a model file carries.
    @Test(arguments: ["class", "abstract", "codegen", "userInfo", "optional", "default", "rules", "transformer",
                      "external", "scalar", "rule", "ordered", "min", "index", "constraint", "renaming", "template"])
    func equalityNoticesEachSetting(_ change: String) throws {
        let model = SeedModels.frozenTime()
        let album = try #require(model.entitiesByName["Album"]), photo = try #require(model.entitiesByName["Photo"])
        let rating = try #require(photo.attributesByName["rating"]), photos = try #require(album.relationshipsByName["photos"])
        switch change {
        case "class": album.managedObjectClassName = "PhotoAlbum"
        case "abstract": album.isAbstract = true
        case "codegen": album.codeGenerationType = nil
        case "userInfo": rating.userInfo = ["unit": "stars"]
        case "optional": rating.isOptional = false
        case "default": rating.defaultValue = Int16(3)
        case "rules": rating.validationRules.maxValueString = "10"
        case "transformer": rating.valueTransformerName = "X"
        case "external": rating.allowsExternalBinaryDataStorage = true
        case "scalar": rating.usesScalarValueType = false
        case "rule": photos.deleteRule = .denyDeleteRule
        case "ordered": photos.isOrdered = true
        case "min": photos.minCount = 1
        case "index": photo.indexes = [NSFetchIndexDescription(name: "byName", elements: [NSFetchIndexElementDescription(propertyName: "name")])]
        case "constraint": photo.uniquenessConstraints = [["name"]]
        case "renaming": photo.renamingIdentifier = "Picture"
        case "template": model.setFetchRequestDescription(nil, forName: "PhotosNamed")
        default: Issue.record("unknown change")
        }
        #expect(!model.isEqual(SeedModels.frozenTime()))
        // …and the model file carries it: write, read, still equal to the edited model.
        #expect(try ModelXMLReader.read(data: Data(model.modelFileXML.utf8)).isEqual(model))
    }

    @Test func everyAttributeTypeAndDefaultRoundTrips() throws {
        let values: [(NSAttributeType, Any?)] = [
            (.integer16AttributeType, Int16(-7)), (.integer32AttributeType, Int32(70_000)), (.integer64AttributeType, Int64(1) << 40),
            (.decimalAttributeType, Decimal(string: "12.345")), (.doubleAttributeType, 2.5), (.floatAttributeType, Float(0.1)),
            (.stringAttributeType, "a \"quoted\" <value> & more\nline"), (.booleanAttributeType, false),
            (.dateAttributeType, Date(timeIntervalSinceReferenceDate: -978_285_600)), (.binaryDataAttributeType, nil),
            (.UUIDAttributeType, UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")), (.URIAttributeType, URL(string: "https://example.com/a?b=c")),
            (.transformableAttributeType, nil), (.objectIDAttributeType, nil),
        ]
        let entity = NSEntityDescription(name: "Everything", properties: values.enumerated().map { index, pair in
            NSAttributeDescription(name: "a\(index)", type: pair.0, isOptional: true, defaultValue: pair.1)
        })
        let derived = NSDerivedAttributeDescription()
        derived.name = "count"; derived.attributeType = .integer64AttributeType; derived.derivationExpressionFormat = "items.@count"
        let transient = NSAttributeDescription(name: "scratch", type: .undefinedAttributeType)
        transient.isTransient = true
        entity.properties += [derived, transient]
        let model = NSManagedObjectModel()
        model.entities = [entity]
        let reread = try ModelXMLReader.read(data: Data(model.modelFileXML.utf8))
        #expect(reread.isEqual(model))
        let attributes = try #require(reread.entitiesByName["Everything"]?.attributesByName)
        #expect(attributes["a6"]?.defaultValue as? String == "a \"quoted\" <value> & more\nline")
        #expect(attributes["a8"]?.defaultValue as? Date == Date(timeIntervalSinceReferenceDate: -978_285_600))
        #expect((attributes["count"] as? NSDerivedAttributeDescription)?.derivationExpressionFormat == "items.@count")
        #expect(attributes["count"]?.isDerived == true)
    }

    @Test func compositeAttributesLoadWithElements() throws {
        let model = try ModelXMLReader.read(data: Data("""
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Trip"><attribute name="start" optional="YES" attributeType="Composite" composite="FlowPoint"/></entity>
            <composite name="FlowPoint">
                <attribute name="y" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
                <attribute name="x" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
                <attribute name="label" optional="YES" attributeType="Composite" composite="Label"/>
            </composite>
            <composite name="Label"><attribute name="text" attributeType="String"/></composite>
        </model>
        """.utf8))
        let start = try #require(model.entitiesByName["Trip"]?.attributesByName["start"] as? NSCompositeAttributeDescription)
        #expect(start.attributeType == .compositeAttributeType && start.attributeValueClassName == "NSDictionary")
        #expect(start.elements.map(\.name) == ["y", "x", "label"])
        #expect((start.elements[2] as? NSCompositeAttributeDescription)?.elements.map(\.name) == ["text"])
        #expect(try ModelXMLReader.read(data: Data(model.modelFileXML.utf8)).isEqual(model))
    }

    @Test func validationCatchesWhatFilesCantExpress() {
        let a = NSEntityDescription(name: "A"), b = NSEntityDescription(name: "B")
        a.subentities = [b]
        b.subentities = [a]
        let cyclic = NSManagedObjectModel()
        cyclic.entities = [a, b]
        #expect(throws: ModelFileError.self) { try cyclic.validate() }

        let lonely = NSEntityDescription(name: "Lonely", properties: [NSRelationshipDescription(name: "friend", destination: NSEntityDescription(name: "Elsewhere"))])
        let outside = NSManagedObjectModel()
        outside.entities = [lonely]
        #expect(throws: ModelFileError.self) { try outside.validate() }

        let c = NSEntityDescription(), d = NSEntityDescription()
        c.name = "C"; d.name = "D"
        let toD = NSRelationshipDescription(name: "d", destination: d), toC = NSRelationshipDescription(name: "c", destination: c)
        let elsewhere = NSRelationshipDescription(name: "other", destination: c)
        c.properties = [toD]; d.properties = [toC, elsewhere]
        toD.inverseRelationship = toC
        toC.inverseRelationship = elsewhere
        let mismatched = NSManagedObjectModel()
        mismatched.entities = [c, d]
        do {
            try mismatched.validate()
            Issue.record("accepted an inverse that does not point back")
        } catch let error as ModelFileError {
            #expect(error.entityName == "C" && error.propertyName == "d")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    /// "Models are editable only until a coordinator uses them" (NSManagedObjectModel.h).
    @Test func frozenModelRejectsEdits() async {
        let model = SeedModels.company()
        model.freeze()
        #expect(!model.isEditable)
        #expect(model.entitiesByName["Employee"]?.propertiesByName["name"] != nil)
        await #expect(processExitsWith: .failure) {
            let model = SeedModels.company()
            model.freeze()
            model.entitiesByName["Employee"]!.attributesByName["name"]!.isOptional = true
        }
        await #expect(processExitsWith: .failure) {
            let model = SeedModels.company()
            model.freeze()
            model.entities = []
        }
    }
}
