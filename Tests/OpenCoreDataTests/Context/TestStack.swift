import Foundation
import Testing
@testable import OpenCoreDataCore
import TestScratch

/// Models of the seed walk-throughs, built in code, and in-memory stacks.
enum TestStack {
    static func attribute(_ name: String, _ type: NSAttributeType, optional: Bool = true,
                          rules: AttributeValidationRules = .init(), transient: Bool = false) -> NSAttributeDescription {
        let attribute = NSAttributeDescription(name: name, type: type, isOptional: optional)
        attribute.validationRules = rules
        attribute.isTransient = transient
        return attribute
    }

    /// Links two relationships as each other's inverse.
    static func pair(_ a: NSRelationshipDescription, _ b: NSRelationshipDescription) {
        a.inverseRelationship = b
        b.inverseRelationship = a
    }

    static func relationship(_ name: String, to destination: NSEntityDescription, toMany: Bool = false,
                             rule: NSDeleteRule = .nullifyDeleteRule, optional: Bool = true, ordered: Bool = false,
                             min: Int = 0, max: Int? = nil) -> NSRelationshipDescription {
        NSRelationshipDescription(name: name, destination: destination, toMany: toMany, deleteRule: rule,
                                  isOptional: optional, isOrdered: ordered, minCount: min, maxCount: max)
    }

    /// Album ⟷ Photo (seed 000/003): Album.photos to-many Cascade, Photo.album to-one Nullify.
    static func albumsModel(photoClass: String? = nil, albumClass: String? = nil) -> NSManagedObjectModel {
        let album = NSEntityDescription(name: "Album", className: albumClass)
        let photo = NSEntityDescription(name: "Photo", className: photoClass)
        let photos = relationship("photos", to: photo, toMany: true, rule: .cascadeDeleteRule)
        let albumOf = relationship("album", to: album)
        pair(photos, albumOf)
        album.properties = [attribute("name", .stringAttributeType), attribute("sheets", .integer32AttributeType), photos]
        photo.properties = [attribute("name", .stringAttributeType), attribute("path", .stringAttributeType),
                            attribute("index", .integer16AttributeType), albumOf]
        let model = NSManagedObjectModel()
        model.entities = [album, photo]
        return model
    }

    /// Item ⟷ Unit (seed 001): Unit.items to-many with `unitRule`, Item.unit to-one Nullify.
    static func shoppingModel(unitRule: NSDeleteRule = .denyDeleteRule) -> NSManagedObjectModel {
        let item = NSEntityDescription(name: "Item")
        let unit = NSEntityDescription(name: "Unit")
        let items = relationship("items", to: item, toMany: true, rule: unitRule)
        let unitOf = relationship("unit", to: unit)
        pair(items, unitOf)
        item.properties = [attribute("name", .stringAttributeType), unitOf]
        unit.properties = [attribute("name", .stringAttributeType), items]
        let model = NSManagedObjectModel()
        model.entities = [item, unit]
        return model
    }

    /// Department ⟷ Employee (seed 000 rule text): Department.employees with `rule`;
    /// Employee.manager ⟷ Employee.reports is reflexive.
    static func companyModel(rule: NSDeleteRule) -> NSManagedObjectModel {
        let department = NSEntityDescription(name: "Department")
        let employee = NSEntityDescription(name: "Employee")
        let employees = relationship("employees", to: employee, toMany: true, rule: rule)
        let departmentOf = relationship("department", to: department)
        pair(employees, departmentOf)
        let manager = relationship("manager", to: employee)
        let reports = relationship("reports", to: employee, toMany: true)
        pair(manager, reports)
        department.properties = [attribute("name", .stringAttributeType), employees]
        employee.properties = [attribute("name", .stringAttributeType), departmentOf, manager, reports]
        let model = NSManagedObjectModel()
        model.entities = [department, employee]
        return model
    }

    /// Quake ⟷ Country (seed 004): many-to-many, both Nullify.
    static func quakesModel() -> NSManagedObjectModel {
        let quake = NSEntityDescription(name: "Quake")
        let country = NSEntityDescription(name: "Country")
        let countries = relationship("countries", to: country, toMany: true)
        let quakes = relationship("quakes", to: quake, toMany: true)
        pair(countries, quakes)
        quake.properties = [attribute("magnitude", .doubleAttributeType), attribute("place", .stringAttributeType), countries]
        country.properties = [attribute("name", .stringAttributeType), quakes]
        let model = NSManagedObjectModel()
        model.entities = [quake, country]
        return model
    }

    /// The store types the context-level tests run against.
    enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case inMemory, sqlite
        var testDescription: String { rawValue }
        var type: NSPersistentStore.StoreType { self == .inMemory ? .inMemory : .sqlite }
    }

    /// A fresh SQLite file URL in a folder of its own in the tests' scratch folder (`ScratchDirectory`).
    static func temporaryStoreURL(_ name: String = "Store.sqlite") -> URL {
        let folder = ScratchDirectory.url("ocd-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent(name)
    }

    /// Points the caches of fetched-results controllers on stores without a file (the user's caches folder
    /// otherwise) into the scratch folder, once, before any stack is made: tests write nothing outside the
    /// repository and the temporary directory.
    private static let cachesInScratchFolder: Void = {
        FetchedResultsCache.userCachesFolder = ScratchDirectory.url("user-caches")
    }()

    /// A coordinator with one store of `kind` and a private-queue context on it.
    static func context(_ model: NSManagedObjectModel, _ kind: StoreKind = .inMemory) throws -> NSManagedObjectContext {
        _ = cachesInScratchFolder
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let url = kind == .inMemory ? URL(fileURLWithPath: "/dev/null") : temporaryStoreURL()
        try coordinator.addPersistentStore(type: kind.type, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// A second context on the same coordinator.
    static func sibling(of context: NSManagedObjectContext) -> NSManagedObjectContext {
        let other = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        other.persistentStoreCoordinator = context.persistentStoreCoordinator
        return other
    }

    /// A context that reads what `context` saved: for a file store, through a
    /// new coordinator that opens the file again (the saved data must survive
    /// reopening); for the in-memory store, a sibling.
    static func reader(of context: NSManagedObjectContext) throws -> NSManagedObjectContext {
        guard let coordinator = context.persistentStoreCoordinator, let store = coordinator.persistentStores.first,
              store.type == NSSQLiteStoreType, let url = store.url else { return sibling(of: context) }
        let reopened = NSPersistentStoreCoordinator(managedObjectModel: coordinator.managedObjectModel)
        try reopened.addPersistentStore(type: .sqlite, at: url)
        let other = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        other.persistentStoreCoordinator = reopened
        return other
    }

    /// A context on a SQLite file holding 3 albums "a0"…"a2" of 10 photos
    /// "pA-P" each (of `photoClass`, registered), saved and reset, so that
    /// nothing of them is loaded.
    static func albumsWithPhotos(photoClass: String? = nil) throws -> NSManagedObjectContext {
        let writer = try context(albumsModel(photoClass: photoClass), .sqlite)
        try writer.performAndWait { () throws in
            for a in 0..<3 {
                let album = insert("Album", into: writer, ["name": "a\(a)"])
                for p in 0..<10 { insert("Photo", into: writer, ["name": "p\(a)-\(p)", "album": album]) }
            }
            try writer.save()
            writer.reset()
        }
        return writer
    }

    /// A context over a store of `kind` holding one saved album "A" with a
    /// photo per name, reset so that nothing is registered.
    static func savedAlbum(photos names: [String], _ kind: StoreKind) throws -> NSManagedObjectContext {
        let context = try context(albumsModel(), kind)
        let album = insert("Album", into: context, ["name": "A"])
        for name in names { insert("Photo", into: context, ["name": name, "album": album]) }
        try context.save()
        context.reset()
        return context
    }

    @discardableResult
    static func insert(_ entity: String, into context: NSManagedObjectContext, _ values: [String: Any] = [:]) -> NSManagedObject {
        let object = NSEntityDescription.insertNewObject(forEntityName: entity, into: context)
        for (key, value) in values { object.setValue(value, forKey: key) }
        return object
    }

    static func set(_ object: NSManagedObject, _ key: String) -> Set<NSManagedObject> {
        Set(((object.value(forKey: key) as? NSSet)?.allObjects ?? (object.value(forKey: key) as? NSOrderedSet)?.array ?? [])
            .map { $0 as! NSManagedObject })
    }

    static func names(_ objects: some Sequence<NSManagedObject>) -> [String] {
        objects.map { $0.value(forKey: "name") as? String ?? "" }.sorted()
    }
}
