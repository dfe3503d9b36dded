import Foundation
import Testing
@testable import OpenCoreDataCore

/// A controller compares classified sort keys (`ComparableValue`)
/// where its descriptor orders by `compare:`; every answer must be the one
/// `NSSortDescriptor` gives for the values themselves.
@Suite struct ComparableValueTests {
    /// Values of every kind a sort key can hold, in the types a key path
    /// read gives them (attribute values, Foundation objects, nil and NSNull).
    static var values: [Any?] { [
        nil, NSNull(),
        0, 1, -3, Int.max, Int64(7), Int32(-2), Int16(5), UInt8(200), true, false,
        0.5, -0.0, 2.0, Double.infinity, Float(1.5), Decimal(string: "2.25")!,
        NSNumber(value: 3), NSNumber(value: 2.75), NSNumber(value: true),
        "", "a", "B", "abc", "é", "Ä", "zebra", "Zürich", NSString(string: "abc"), Substring("ab"),
        Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSinceReferenceDate: -1e6),
        NSDate(timeIntervalSinceReferenceDate: 0),
        UUID(), Data([1, 2]),
    ] }

    @Test func classifiedKeysOrderAsTheDescriptorOrdersTheirValues() {
        let descriptor = NSSortDescriptor(key: "key", ascending: true)
        var compared = 0
        let values = Self.values
        for a in values {
            for b in values {
                guard let order = ComparableValue.sortOrder(.init(a), .init(b)) else { continue }
                #expect(order == descriptor.compareValues(a, b), "\(String(describing: a)) vs \(String(describing: b))")
                compared += 1
            }
        }
        // Numbers with numbers, strings with strings, dates with dates and nil with everything.
        #expect(compared > 500, "\(compared) pairs compared directly")
    }

    @Test func kindsCompareDirectlyOnlyWithTheirOwn() {
        #expect(ComparableValue.sortOrder(.init(1), .init("1")) == nil)
        #expect(ComparableValue.sortOrder(.init(UUID()), .init(UUID())) == nil)
        #expect(ComparableValue.sortOrder(.init(NSNull()), .init(UUID())) == .orderedAscending)
        #expect(ComparableValue.sortOrder(.init(Int16(2)), .init(2.5)) == .orderedAscending)
        #expect(ComparableValue.sortOrder(.init(NSString(string: "b")), .init("a")) == .orderedDescending)
    }

    /// A controller over descending and ascending keys of several kinds keeps
    /// the order a fresh fetch gives through random changes (names are
    /// unique, so that no tie leaves the order to the store).
    @Test func aControllerKeepsTheFetchOrderThroughChanges() throws {
        let context = try TestStack.context(FetchedResultsModels.items())
        var random = SeededGenerator(seed: 13)
        for i in 0..<300 {
            _ = TestStack.insert("Item", into: context, ["name": "n\(Int.random(in: 0..<1000, using: &random))-\(i)",
                                                         "rank": Int.random(in: -5..<5, using: &random),
                                                         "group": String(UnicodeScalar(UInt8(97 + i % 5)))])
        }
        try context.save()
        let sort = [NSSortDescriptor(key: "group", ascending: false), NSSortDescriptor(key: "rank", ascending: true),
                    NSSortDescriptor(key: "name", ascending: false)]
        let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
        request.sortDescriptors = sort
        let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                    sectionNameKeyPath: "group", cacheName: nil)
        let recorder = FetchedResultsRecorder()
        controller.delegate = recorder
        try controller.performFetch()
        for step in 0..<200 {
            let objects = controller.fetchedObjects ?? []
            let object = objects[Int.random(in: 0..<objects.count, using: &random)]
            if step % 2 == 0 {
                object.setValue(Int.random(in: -5..<5, using: &random), forKey: "rank")
            } else {
                object.setValue("n\(Int.random(in: 0..<1000, using: &random))-s\(step)", forKey: "name")
            }
            context.processPendingChanges()
            let fresh = try context.fetch(request).map(\.objectID)
            let kept = (controller.fetchedObjects ?? []).map(\.objectID)
            let firstDifference = kept.indices.first { $0 >= fresh.count || kept[$0] != fresh[$0] }
                ?? (kept.count == fresh.count ? nil : kept.count)
            #expect(firstDifference == nil, "step \(step): the orders part at \(firstDifference ?? -1)")
        }
    }
}
