// The code of the DocC articles (Sources/OpenCoreData/OpenCoreDataCore.docc), run as written
// there, so that an article whose example stops compiling or working fails here first.
import XCTest
import Foundation
import OpenCoreData

final class GettingStartedTests: XCTestCase {
    /// GettingStarted.md: a model built in code, an in-memory SQLite store, insert, save, fetch.
    func testGettingStartedRunsAsWritten() throws {
        let title = NSAttributeDescription(name: "title", type: .stringAttributeType, isOptional: false)
        let album = NSEntityDescription(name: "Album", properties: [title])
        let model = NSManagedObjectModel()
        model.entities = [album]
        let container = NSPersistentContainer(name: "Albums", managedObjectModel: model)
        container.persistentStoreDescriptions = [NSPersistentStoreDescription()]   // /dev/null
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        XCTAssertNil(loadError)
        let context = container.viewContext

        for name in ["Holidays", "Work", "Holi festival"] {
            let object = NSEntityDescription.insertNewObject(forEntityName: "Album", into: context)
            object.setValue(name, forKey: "title")
        }
        try context.save()

        let request = NSFetchRequest<NSManagedObject>(entityName: "Album")
        request.predicate = NSPredicate(format: "title BEGINSWITH %@", "Holi")
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        let albums = try context.fetch(request)
        XCTAssertEqual(albums.compactMap { $0.value(forKey: "title") as? String }, ["Holi festival", "Holidays"])

        // "A failed save throws an NSError in NSCocoaErrorDomain with Core Data's code".
        _ = NSEntityDescription.insertNewObject(forEntityName: "Album", into: context)
        XCTAssertThrowsError(try context.save()) { error in
            let error = error as NSError
            XCTAssertEqual(error.domain, NSCocoaErrorDomain)
            XCTAssertEqual(error.code, NSValidationMissingMandatoryPropertyError)
        }
    }

    /// TheStackAndConcurrency.md: work on a background context through the async `perform`.
    func testBackgroundContextExampleRunsAsWritten() async throws {
        let seen = NSAttributeDescription(name: "seen", type: .booleanAttributeType, isOptional: true)
        let model = NSManagedObjectModel()
        model.entities = [NSEntityDescription(name: "Photo", properties: [seen])]
        let container = NSPersistentContainer(name: "Photos", managedObjectModel: model)
        container.persistentStoreDescriptions = [NSPersistentStoreDescription()]
        container.loadPersistentStores { _, error in XCTAssertNil(error) }
        let setup = container.newBackgroundContext()
        try await setup.perform {
            for _ in 0..<3 { _ = NSEntityDescription.insertNewObject(forEntityName: "Photo", into: setup) }
            try setup.save()
        }

        let background = container.newBackgroundContext()
        try await background.perform {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            for photo in try background.fetch(request) { photo.setValue(true, forKey: "seen") }
            try background.save()
        }

        let check = container.newBackgroundContext()
        let seenCount = try await check.perform {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            request.predicate = NSPredicate(format: "seen == YES")
            return try check.count(for: request)
        }
        XCTAssertEqual(seenCount, 3)
    }
}
