// Core Data's concurrency API as Apple declares it (issue 14): code written against Apple's
// signatures compiles unchanged and behaves the same.
import XCTest
import Foundation
import OpenCoreData

/// Not Sendable, as most results of a background task are not.
final class ImportSummary {
    var names: [String] = []
}

final class ConcurrencyAPITests: XCTestCase {
    private func container() throws -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "PortingModel")
        container.persistentStoreDescriptions = [NSPersistentStoreDescription()]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }

    // Apple: `func performBackgroundTask<T>(_ block: @escaping (NSManagedObjectContext) throws -> T)
    // async rethrows -> T` (iOS 15): no `try` for a block that throws nothing, any result type.
    func testPerformBackgroundTaskReturnsAnyResultAndRethrows() async throws {
        let container = try container()
        let count = await container.performBackgroundTask { context in
            context.registeredObjects.count + 1
        }
        XCTAssertEqual(count, 1)
        let summary = try await container.performBackgroundTask { context in
            let photo = NSEntityDescription.insertNewObject(forEntityName: "PortingPhoto", into: context)
            photo.setValue("Lake", forKey: "name")
            try context.save()
            let summary = ImportSummary()
            summary.names = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "PortingPhoto"))
                .compactMap { $0.value(forKey: "name") as? String }
            return summary
        }
        XCTAssertEqual(summary.names, ["Lake"])
        do {
            _ = try await container.performBackgroundTask { context -> Int in
                throw NSError(domain: "test", code: 7)
            }
            XCTFail("the block's error must reach the caller")
        } catch {
            XCTAssertEqual((error as NSError).code, 7)
        }
    }

    // Apple imports Objective-C methods with their results discardable: code that ignores them
    // compiles there without a warning, and here too (this target treats warnings as errors).
    func testResultsOfObjectiveCMethodsMayBeIgnored() throws {
        let context = try container().newBackgroundContext()
        try context.performAndWait {
            let tag = NSEntityDescription.insertNewObject(forEntityName: "PortingTag", into: context)
            NSEntityDescription.insertNewObject(forEntityName: "PortingTag", into: context)
            try context.save()
            context.object(with: tag.objectID)
            try context.existingObject(with: tag.objectID)
            try context.execute(NSBatchDeleteRequest(fetchRequest: NSFetchRequest(entityName: "PortingTag")))
            XCTAssertEqual(try context.count(for: NSFetchRequest<NSFetchRequestResult>(entityName: "PortingTag")), 0)
        }
    }

    // Apple: `func performAndWait(_ block: () -> Void)` beside the generic iOS 15 overload.
    func testNonGenericPerformAndWait() throws {
        let context = try container().newBackgroundContext()
        var inserted = 0
        context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "PortingTag", into: context)
            inserted = context.insertedObjects.count
        }
        XCTAssertEqual(inserted, 1)
    }

    // A main-queue context processes pending changes at the end of the main run loop's turn, so
    // observers hear of changes made outside `perform` (Apple's documentation of
    // `processPendingChanges()`: "invoked automatically at least once during the event loop (at the
    // end of the loop)").
    func testMainQueueContextPostsChangesAtTheEndOfTheRunLoopTurn() throws {
        let viewContext = try container().viewContext
        let posted = expectation(forNotification: .NSManagedObjectContextObjectsDidChange, object: viewContext)
        let tag = NSEntityDescription.insertNewObject(forEntityName: "PortingTag", into: viewContext)
        wait(for: [posted], timeout: 5)
        XCTAssertTrue(viewContext.insertedObjects.contains(tag))
    }
}
