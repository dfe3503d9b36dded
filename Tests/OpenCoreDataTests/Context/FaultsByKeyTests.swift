import Foundation
import Testing
@testable import OpenCoreDataCore

/// `FaultsByKey`: the keys a read by key asks for (each once, in the faults'
/// order) and the fault each returned row is for, whether the faults come
/// in ascending key order (found by binary search) or not (a dictionary).
@Suite struct FaultsByKeyTests {
    /// A context on a store, and a fault of each album key from 1 to 40.
    private static func faults() throws -> (NSManagedObjectContext, [Int64: NSManagedObject]) {
        let context = try TestStack.context(TestStack.albumsModel(), .sqlite)
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first)
        let album = try #require(context.persistentStoreCoordinator?.managedObjectModel.entitiesByName["Album"])
        let faults = context.performAndWait {
            Dictionary(uniqueKeysWithValues: (1...40).map { key in
                (Int64(key), context.object(with: store.objectID(for: album, primaryKey: Int64(key))))
            })
        }
        return (context, faults)
    }

    private static func check(_ listed: [Int64], _ faults: [Int64: NSManagedObject]) {
        var found = FaultsByKey(listed.map { faults[$0]! })
        var seen = Set<Int64>()
        #expect(found.keys == listed.filter { seen.insert($0).inserted }, "keys of \(listed)")
        // Asked in ascending order (as rows mostly come), then descending, then each twice in a row.
        let asked = Array(Int64(0)...41)
        for key in asked + asked.reversed() + asked.flatMap({ [$0, $0] }) {
            let expected = listed.contains(key) ? faults[key] : nil
            #expect(found.fault(forKey: key) === expected, "key \(key) of \(listed)")
        }
    }

    @Test func ascendingDescendingRepeatedAndEmptyLists() throws {
        let (context, faults) = try Self.faults()
        context.performAndWait {
            Self.check([], faults)
            Self.check([7], faults)
            Self.check(Array(1...40), faults)
            Self.check([2, 3, 5, 8, 13, 21, 34], faults)
            Self.check(Array((1...40).reversed()), faults)
            Self.check([1, 2, 2, 3], faults)
            Self.check([5, 1, 5, 40, 1], faults)
        }
    }

    @Test func seededRandomLists() throws {
        let (context, faults) = try Self.faults()
        var generator = SeededGenerator(seed: 0xFA17)
        context.performAndWait {
            for _ in 0..<300 {
                let count = Int.random(in: 0...30, using: &generator)
                var listed = (0..<count).map { _ in Int64.random(in: 1...40, using: &generator) }
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: listed = Array(Set(listed)).sorted()  // a key-ordered batch
                case 1: listed.sort()                         // ordered, with repeats
                default: break                                // any order
                }
                Self.check(listed, faults)
            }
        }
    }
}
