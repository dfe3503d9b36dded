import Testing
@testable import OpenCoreDataCore

/// One changed object costs work proportional to the change, not to the
/// number of results: counted as sort comparisons, which a re-sort would
/// need by the thousand.
@Suite struct FetchedResultsCostTests {
    final class Counter: @unchecked Sendable {
        var comparisons = 0
    }

    @Test func oneChangeCostsLogarithmicallyManyComparisons() throws {
        let context = try TestStack.context(FetchedResultsModels.items())
        let objects = 5_000
        for i in 0..<objects {
            _ = TestStack.insert("Item", into: context, ["name": "n\(i)", "rank": (i * 7919) % objects, "visible": true,
                                                         "group": String(UnicodeScalar(UInt8(97 + i % 26)))])
        }
        try context.save()
        let counter = Counter()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
        request.sortDescriptors = [NSSortDescriptor(key: "group", ascending: true),
                                   NSSortDescriptor(key: "rank", ascending: true) { a, b in
                                       counter.comparisons += 1
                                       let x = a as! Int32, y = b as! Int32
                                       return x < y ? .orderedAscending : (x > y ? .orderedDescending : .orderedSame)
                                   }]
        let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "group", cacheName: nil)
        let recorder = FetchedResultsRecorder()
        controller.delegate = recorder
        try controller.performFetch()
        let object = controller.object(at: IndexPath(row: 10, section: 3))
        object.setValue(-1, forKey: "rank") // learn the delegate's optional methods first
        context.processPendingChanges()
        _ = recorder.take()

        var worst = 0
        for step in 0..<50 {
            counter.comparisons = 0
            let object = controller.object(at: IndexPath(row: (step * 37) % 150, section: step % 26))
            object.setValue((step * 104_729) % objects, forKey: "rank")
            context.processPendingChanges()
            worst = max(worst, counter.comparisons)
        }
        // A binary search among ~190 objects of a section takes 8 comparisons;
        // an event does a handful of them. Re-sorting would take tens of thousands.
        #expect(worst < 100, "\(worst) comparisons")
        #expect(worst > 0)
    }
}
