import Testing
@testable import OpenCoreDataCore

/// Fetch request templates stored in a model (NSManagedObjectModel.h;
/// Predicate Programming Guide, "Creating Predicates": every variable must be
/// given, NSNull matches nil).
@Suite struct FetchRequestTemplateTests {
    static let frozenTime = SeedModels.examples.appendingPathComponent("FrozenTime.xcdatamodeld")

    @Test func templateFromTheModelFile() throws {
        let model = try NSManagedObjectModel.load(contentsOf: Self.frozenTime)
        let template = try #require(model.fetchRequestTemplate(forName: "PhotosNamed"))
        #expect(template.entityName == "Photo" && template.entity === model.entitiesByName["Photo"])
        #expect(template.predicate == NSPredicate(format: "name BEGINSWITH $PREFIX"))
        #expect(model.fetchRequestTemplatesByName.keys.sorted() == ["PhotosNamed"])
        #expect(model.fetchRequestTemplate(forName: "Nope") == nil)
        let request = try #require(model.fetchRequestFromTemplate(withName: "PhotosNamed", substitutionVariables: ["PREFIX": "beach"]))
        #expect(request.predicate == NSPredicate(format: "name BEGINSWITH %@", "beach"))
        #expect(template.predicate == NSPredicate(format: "name BEGINSWITH $PREFIX"), "the template itself is unchanged")
    }

    @Test func everyVariableMustBeGiven() async throws {
        let model = try NSManagedObjectModel.load(contentsOf: Self.frozenTime)
        do {
            _ = try model.fetchRequest(fromTemplateNamed: "PhotosNamed", substitutionVariables: [:])
            Issue.record("a missing variable was accepted")
        } catch let error as NSError {
            #expect(error.code == NSCoreDataError && error.localizedDescription.contains("$PREFIX"))
        }
        let nullRequest = try model.fetchRequest(fromTemplateNamed: "PhotosNamed", substitutionVariables: ["PREFIX": NSNull()])
        #expect(nullRequest.predicate?.predicateFormat == "name BEGINSWITH nil")
        #expect(throws: NSError.self) { try model.fetchRequest(fromTemplateNamed: "Missing", substitutionVariables: [:]) }
        await #expect(processExitsWith: .failure) {
            let model = try! NSManagedObjectModel.load(contentsOf: FetchRequestTemplateTests.frozenTime)
            _ = model.fetchRequestFromTemplate(withName: "PhotosNamed", substitutionVariables: [:])
        }
    }

    @Test func templateFetchesFromAStore() throws {
        let model = try NSManagedObjectModel.load(contentsOf: Self.frozenTime)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .inMemory, at: URL(fileURLWithPath: "/dev/null"))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait { () throws in
            for name in ["beach.jpg", "beach2.jpg", "city.jpg"] {
                TestStack.insert("Photo", into: context, ["name": name]).setValue(Int16(1), forKey: "rating")
            }
            try context.save()
            let request = model.fetchRequestFromTemplate(withName: "PhotosNamed", substitutionVariables: ["PREFIX": "beach"])!
            #expect(try context.count(for: request) == 2)
        }
    }

    @Test func setTemplateRoundTripsThroughTheModelFile() throws {
        let model = SeedModels.company()
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Employee")
        request.predicate = NSPredicate(format: "department.name == $DEPT AND salary > 1000")
        request.fetchLimit = 5
        model.setFetchRequestTemplate(request, forName: "WellPaid")
        let reread = try ModelXMLReader.read(data: Data(model.modelFileXML.utf8))
        let template = try #require(reread.fetchRequestTemplate(forName: "WellPaid"))
        #expect(template.predicate == request.predicate && template.fetchLimit == 5)
        model.setFetchRequestTemplate(nil, forName: "WellPaid")
        #expect(model.fetchRequestTemplatesByName.isEmpty)
    }

    /// The templates and fetched properties of the corpus models: their
    /// predicates parse, and derived attributes' expressions parse.
    @Test(.enabled(if: Corpus.models != nil)) func corpusTemplatesAndDerivationsParse() throws {
        var templates = 0, fetched = 0, derived = 0
        for file in Corpus.files(in: Corpus.models, suffix: ".xml") {
            let model = try NSManagedObjectModel.load(contentsOf: file)
            #expect(model.fetchRequestTemplatesByName.count == model.fetchRequestDescriptionsByName.count, "\(file.lastPathComponent)")
            templates += model.fetchRequestDescriptionsByName.count
            for entity in model.entities {
                for case let property as NSFetchedPropertyDescription in entity.ownProperties {
                    if property.fetchRequestDescription?.predicateFormat != nil {
                        #expect(property.fetchRequest?.predicate != nil, "\(file.lastPathComponent) \(property.name)")
                        fetched += 1
                    }
                }
                for case let attribute as NSDerivedAttributeDescription in entity.ownProperties {
                    #expect(attribute.derivationExpression != nil, "\(file.lastPathComponent) \(attribute.name): \(attribute.derivationExpressionFormat ?? "")")
                    derived += 1
                }
            }
        }
        print("corpus: \(templates) fetch request templates, \(fetched) fetched-property predicates, \(derived) derivation expressions parsed")
        #expect(templates > 5 && fetched > 5 && derived > 5)
    }
}
