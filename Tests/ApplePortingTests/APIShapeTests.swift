// Core Data code in Apple's style that must compile and work with only `import CoreData` changed
// (issue 18, "API shape"). Each test names the Apple declaration it relies on.
import XCTest
import Foundation
import OpenCoreData
import TestScratch

// MARK: Hand-written classes, never registered by hand

// PortingModel.xcdatamodeld (a resource of this target) names these as Xcode writes a class of the
// "Current Product Module": `PortingPhoto`, `.PortingAlbum` and `ApplePortingTests.PortingTag`.
public class PortingPhoto: NSManagedObject {}

extension PortingPhoto {
    // Xcode's generated line, unchanged.
    @nonobjc public class func fetchRequest() -> NSFetchRequest<PortingPhoto> {
        return NSFetchRequest<PortingPhoto>(entityName: "PortingPhoto")
    }

    var name: String? {
        get { value(forKey: "name") as? String }
        set { setValue(newValue, forKey: "name") }
    }
}

public class PortingAlbum: NSManagedObject {}
public class PortingTag: NSManagedObject {}

// Used only by testClassesNamedInTheModelAreFoundByAFetch, so that nothing registers them first.
final class LookupBare: NSManagedObject {}
final class LookupDotted: NSManagedObject {}
final class LookupQualified: NSManagedObject {}

// Used only by testInitWithoutArgumentsMakesAnObjectOfTheClasssEntity.
final class InitOnlyItem: NSManagedObject {}

/// A container whose stores go to a folder of its own: Apple's `open class func defaultDirectoryURL() -> URL`.
final class TemporaryFolderContainer: NSPersistentContainer, @unchecked Sendable {
    static let folder = ScratchDirectory.url("ocd-api-shape-\(ProcessInfo.processInfo.processIdentifier)")

    override class func defaultDirectoryURL() -> URL { folder }
}

/// A subclass overriding the designated initializer, as apps do to set up descriptions.
final class InMemoryContainer: NSPersistentContainer, @unchecked Sendable {
    // Apple: `public init(name: String, managedObjectModel model: NSManagedObjectModel)`.
    override init(name: String, managedObjectModel model: NSManagedObjectModel) {
        super.init(name: name, managedObjectModel: model)
        let description = NSPersistentStoreDescription()
        description.type = NSInMemoryStoreType
        persistentStoreDescriptions = [description]
    }
}

final class APIShapeTests: XCTestCase {
    private func model(classNames: [String: String]) -> NSManagedObjectModel {
        let model = NSManagedObjectModel()
        model.entities = classNames.sorted { $0.key < $1.key }.map { entityName, className in
            let entity = NSEntityDescription()
            entity.name = entityName
            entity.managedObjectClassName = className
            let label = NSAttributeDescription()
            label.name = "label"
            label.attributeType = .stringAttributeType
            label.isOptional = true
            entity.properties = [label]
            return entity
        }
        return model
    }

    private func loadedContainer(_ name: String = "PortingModel") throws -> NSPersistentContainer {
        let container = NSPersistentContainer(name: name)
        let description = NSPersistentStoreDescription()  // /dev/null: SQLite in memory
        container.persistentStoreDescriptions = [description]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }

    // Model files name classes by `representedClassName`; Core Data finds them through the
    // Objective-C runtime. The first use here is a fetch, with no `init(context:)` or `register`.
    func testClassesNamedInTheModelAreFoundByAFetch() throws {
        let model = model(classNames: ["Bare": "LookupBare", "Dotted": ".LookupDotted",
                                       "Qualified": "ApplePortingTests.LookupQualified"])
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        let writer = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        writer.persistentStoreCoordinator = coordinator
        for entity in model.entities {
            // The designated initializer of the base class: no class lookup involved.
            _ = NSManagedObject(entity: entity, insertInto: writer)
        }
        try writer.save()

        let reader = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        reader.persistentStoreCoordinator = coordinator
        let bare = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Bare"))
        let dotted = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Dotted"))
        let qualified = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Qualified"))
        XCTAssertTrue(bare.first is LookupBare, "\(bare)")
        XCTAssertTrue(dotted.first is LookupDotted, "\(dotted)")
        XCTAssertTrue(qualified.first is LookupQualified, "\(qualified)")
    }

    // Apple: `public convenience init(name: String)` finds `<name>.momd` in the app's bundle; a
    // SwiftPM resource bundle (here the test target's) holds the `.xcdatamodeld`.
    func testContainerFindsTheModelInTheTargetsResourceBundle() throws {
        let container = try loadedContainer()
        XCTAssertEqual(Set(container.managedObjectModel.entitiesByName.keys),
                       ["PortingAlbum", "PortingPhoto", "PortingTag"])
        let context = container.viewContext
        let photo = PortingPhoto(context: context)
        photo.name = "Lake"
        XCTAssertTrue(NSEntityDescription.insertNewObject(forEntityName: "PortingAlbum", into: context) is PortingAlbum)
        XCTAssertTrue(NSEntityDescription.insertNewObject(forEntityName: "PortingTag", into: context) is PortingTag)
        try context.save()
        XCTAssertEqual(try context.fetch(PortingPhoto.fetchRequest()).map(\.name), ["Lake"])
    }

    func testContainerErrorSaysWhereItLooked() {
        let container = NSPersistentContainer(name: "NoSuchModel")
        var loadError: NSError?
        container.loadPersistentStores { _, error in loadError = error as NSError? }
        let message = loadError?.localizedDescription ?? ""
        XCTAssertTrue(message.contains("NoSuchModel.xcdatamodeld"), message)
        XCTAssertTrue(message.contains("OpenCoreData_ApplePortingTests.resources"), message)
    }

    func testContainerSubclassesOverrideTheDirectoryAndTheDesignatedInitializer() throws {
        let byName = TemporaryFolderContainer(name: "PortingModel")
        XCTAssertEqual(byName.persistentStoreDescriptions.first?.url,
                       TemporaryFolderContainer.folder.appendingPathComponent("PortingModel.sqlite"))
        let model = model(classNames: ["Thing": "NSManagedObject"])
        let withModel = TemporaryFolderContainer(name: "Things", managedObjectModel: model)
        XCTAssertEqual(withModel.persistentStoreDescriptions.first?.url?.lastPathComponent, "Things.sqlite")

        let inMemory = InMemoryContainer(name: "Things", managedObjectModel: model)
        var loadError: Error?
        inMemory.loadPersistentStores { _, error in loadError = error }
        XCTAssertNil(loadError)
        XCTAssertEqual(inMemory.persistentStoreCoordinator.persistentStores.first?.type, NSInMemoryStoreType)
    }

    // Apple: `public convenience init(context moc: NSManagedObjectContext)` and
    // `public init(managedObjectModel model: NSManagedObjectModel)`, Objective-C initializers that
    // Swift lets generic code call through a metatype.
    func testInitializersCanBeCalledThroughMetatypes() throws {
        func make<T: NSManagedObject>(_ type: T.Type, in context: NSManagedObjectContext) -> T {
            T(context: context)
        }
        let container = try loadedContainer()
        let photo = make(PortingPhoto.self, in: container.viewContext)
        XCTAssertEqual(photo.entity.name, "PortingPhoto")
        let objectType: NSManagedObject.Type = PortingAlbum.self
        XCTAssertTrue(objectType.init(context: container.viewContext) is PortingAlbum)

        let coordinatorType: NSPersistentStoreCoordinator.Type = NSPersistentStoreCoordinator.self
        let coordinator = coordinatorType.init(managedObjectModel: container.managedObjectModel)
        XCTAssertTrue(coordinator.managedObjectModel === container.managedObjectModel)
    }

    // Apple: `NSManagedObject.init()` (NSObject's) and `class func entity() -> NSEntityDescription`.
    func testInitWithoutArgumentsMakesAnObjectOfTheClasssEntity() throws {
        let model = model(classNames: ["Item": "InitOnlyItem"])
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        XCTAssertTrue(InitOnlyItem.entity() === model.entitiesByName["Item"])
        let item = InitOnlyItem()
        XCTAssertNil(item.managedObjectContext)
        context.insert(item)
        item.setValue("first", forKey: "label")
        try context.save()
        XCTAssertEqual(try context.count(for: NSFetchRequest<InitOnlyItem>(entityName: "Item")), 1)
    }

    // Apple: `func assign(_ object: Any, to store: NSPersistentStore)`.
    func testAssignChoosesTheStoreANewObjectIsSavedTo() throws {
        let model = model(classNames: ["Note": "NSManagedObject"])
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let first = try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil,
                                                       at: nil, options: nil)
        let second = try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil,
                                                        at: nil, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let assigned = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
        let unassigned = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
        context.assign(assigned, to: second)
        try context.save()
        XCTAssertTrue(assigned.objectID.persistentStore === second)
        XCTAssertTrue(unassigned.objectID.persistentStore === first)
        let inSecond = NSFetchRequest<NSManagedObject>(entityName: "Note")
        inSecond.affectedStores = [second]
        XCTAssertEqual(try context.fetch(inSecond), [assigned])
    }

    // Xcode generates `@nonobjc public class func fetchRequest() -> NSFetchRequest<Photo>` next to
    // NSManagedObject's `class func fetchRequest() -> NSFetchRequest<NSFetchRequestResult>`.
    func testSubclassFetchRequestIsChosenWithoutATypeAnnotation() throws {
        let container = try loadedContainer()
        PortingPhoto(context: container.viewContext).name = "Dune"
        let request = PortingPhoto.fetchRequest()
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let photos = try container.viewContext.fetch(request)
        XCTAssertEqual(photos.map(\.name), ["Dune"])
        let typed: NSFetchRequest<PortingPhoto> = PortingPhoto.fetchRequest()
        let untyped: NSFetchRequest<NSFetchRequestResult> = PortingPhoto.fetchRequest()
        XCTAssertEqual(typed.entityName, "PortingPhoto")
        XCTAssertEqual(untyped.entityName, "PortingPhoto")
        XCTAssertEqual(PortingAlbum.fetchRequest().entityName, "PortingAlbum")
    }

    // Apple (iOS 15): `var type: NSAttributeDescription.AttributeType` beside `attributeType`, and
    // NSExpressionDescription's `var resultType: NSAttributeDescription.AttributeType`.
    func testAttributeTypeStructMatchesAttributeType() {
        let attribute = NSAttributeDescription()
        attribute.type = .string
        XCTAssertEqual(attribute.attributeType, .stringAttributeType)
        attribute.attributeType = .integer64AttributeType
        XCTAssertEqual(attribute.type, .integer64)
        let pairs: [(NSAttributeDescription.AttributeType, NSAttributeType)] = [
            (.undefined, .undefinedAttributeType), (.integer16, .integer16AttributeType),
            (.integer32, .integer32AttributeType), (.integer64, .integer64AttributeType),
            (.decimal, .decimalAttributeType), (.double, .doubleAttributeType), (.float, .floatAttributeType),
            (.string, .stringAttributeType), (.boolean, .booleanAttributeType), (.date, .dateAttributeType),
            (.binaryData, .binaryDataAttributeType), (.uuid, .UUIDAttributeType), (.uri, .URIAttributeType),
            (.transformable, .transformableAttributeType), (.objectID, .objectIDAttributeType),
            (.composite, .compositeAttributeType),
        ]
        XCTAssertEqual(Set(pairs.map(\.1)), Set(NSAttributeType.allCases))
        for (type, attributeType) in pairs {
            attribute.type = type
            XCTAssertEqual(attribute.attributeType, attributeType)
            attribute.attributeType = attributeType
            XCTAssertEqual(attribute.type, type)
            XCTAssertEqual(NSAttributeDescription.AttributeType(rawValue: attributeType), type)
        }
        let unsupported: Set<NSAttributeDescription.AttributeType> = [.undefined, .objectID]
        XCTAssertTrue(unsupported.contains(.objectID))
        let newest = NSExpressionDescription()
        newest.resultType = .date
        XCTAssertEqual(newest.expressionResultType, .dateAttributeType)
    }

    // A CloudKit stack as Apple's templates write it.
    func testCloudKitStackCompilesAndStoresLocally() throws {
        let container = NSPersistentCloudKitContainer(name: "PortingModel")
        guard let description = container.persistentStoreDescriptions.first else { return XCTFail("no description") }
        description.url = URL(fileURLWithPath: "/dev/null")
        description.cloudKitContainerOptions = NSPersistentCloudKitContainerOptions(
            containerIdentifier: "iCloud.org.example.Porting")
        description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
        description.setOption(true as NSNumber, forKey: NSPersistentStoreRemoteChangeNotificationPostOptionKey)
        container.loadPersistentStores { _, error in XCTAssertNil(error) }
        try container.initializeCloudKitSchema(options: [.dryRun])
        try container.initializeCloudKitSchema()
        XCTAssertEqual(description.cloudKitContainerOptions?.containerIdentifier, "iCloud.org.example.Porting")
        PortingPhoto(context: container.viewContext).name = "Synced nowhere"
        try container.viewContext.save()
        XCTAssertEqual(try container.viewContext.count(for: PortingPhoto.fetchRequest()), 1)
    }

    // Apple's methods take `NSFetchRequest<NSFetchRequestResult>`; Objective-C-era code casts
    // typed requests to it, which Swift on Linux can't do: the generic forms take them as they are.
    func testFetchRequestsOfAnyResultTypeGoWhereApplesTakeNSFetchRequestResult() throws {
        let model = model(classNames: ["Note": "NSManagedObject"])
        let recent = NSFetchRequest<NSManagedObject>(entityName: "Note")
        recent.predicate = NSPredicate(format: "label BEGINSWITH $PREFIX")
        model.setFetchRequestTemplate(recent, forName: "byPrefix")
        let template: NSFetchRequest<NSManagedObject>? = model.fetchRequestTemplate(forName: "byPrefix")
        XCTAssertEqual(template?.entityName, "Note")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        for label in ["apple", "avocado", "banana"] {
            NSEntityDescription.insertNewObject(forEntityName: "Note", into: context).setValue(label, forKey: "label")
        }
        try context.save()
        let filled: NSFetchRequest<NSManagedObject>? = model.fetchRequestFromTemplate(
            withName: "byPrefix", substitutionVariables: ["PREFIX": "a"])
        let request = try XCTUnwrap(filled)
        XCTAssertEqual(try context.count(for: request), 2)
        request.sortDescriptors = [NSSortDescriptor(key: "label", ascending: true)]
        let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                    sectionNameKeyPath: nil, cacheName: nil)
        try controller.performFetch()
        XCTAssertEqual(controller.fetchedObjects?.compactMap { $0.value(forKey: "label") as? String },
                       ["apple", "avocado"])
    }
}
