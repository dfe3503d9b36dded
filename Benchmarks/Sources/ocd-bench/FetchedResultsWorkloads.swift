import Foundation
import OpenCoreData

/// The fetched-results workload: the time of one change event seen by a
/// tracking NSFetchedResultsController over N objects in 26 sections.
///
/// OpenCoreData only: raw SQLite and GRDB have no live, sectioned result
/// with change reports (GRDB's ValueObservation refetches the whole request
/// on each change, which is not the same job).
enum FetchedResultsWorkloads {
    /// Counts callbacks, as a table view would apply them.
    final class Counter: NSObject, NSFetchedResultsControllerDelegate {
        var changes = 0
        func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
                        at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
            changes += 1
        }
    }

    static let events = 200

    /// Fills an in-memory store with `objects` items (untimed), fetches them
    /// into a controller with a delegate (untimed), then times `events`
    /// events that each change one object's sort key (in `ocdBenchTimedRegion`)
    /// and returns the mean seconds per event.
    static func changeEvent(_ objects: Int, _ url: URL) throws -> Double {
        let item = NSEntityDescription()
        item.name = "Item"
        item.properties = [NSAttributeDescription(name: "group", type: .stringAttributeType, isOptional: true),
                           NSAttributeDescription(name: "rank", type: .integer64AttributeType, isOptional: true)]
        let model = NSManagedObjectModel()
        model.entities = [item]
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .inMemory, at: URL(fileURLWithPath: "/dev/null"))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let letters = (UInt8(ascii: "a")...UInt8(ascii: "z")).map { String(UnicodeScalar($0)) }
        for i in 0..<objects {
            let object = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
            object.setValue(letters[i % 26], forKey: "group")
            object.setValue((i * 7919) % objects, forKey: "rank")
        }
        try context.save()
        context.reset()

        let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
        request.sortDescriptors = [NSSortDescriptor(key: "group", ascending: true), NSSortDescriptor(key: "rank", ascending: true)]
        let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                    sectionNameKeyPath: "group", cacheName: nil)
        let counter = Counter()
        controller.delegate = counter
        try controller.performFetch()
        let fetched = controller.fetchedObjects!
        // The first event learns which optional callbacks the delegate has (untimed).
        fetched[0].setValue(-1, forKey: "rank")
        context.processPendingChanges()

        var random = SystemRandomNumberGenerator()
        let start = DispatchTime.now().uptimeNanoseconds
        ocdBenchTimedRegion {
            for _ in 0..<events {
                fetched.randomElement(using: &random)!.setValue(Int.random(in: 0..<objects, using: &random),
                                                                forKey: "rank")
                context.processPendingChanges()
            }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard counter.changes == events + 1 else { throw BenchmarkError("expected one callback per event, got \(counter.changes)") }
        return seconds / Double(events)
    }
}
