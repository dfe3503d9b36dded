import Foundation
import Testing
@testable import OpenCoreData

/// `WeakValueDictionary`: entries read as absent once their value is
/// released, and the storage stays within twice the live entries (or the
/// minimum) however many values pass through it.
@Suite struct WeakValueDictionaryTests {
    final class Box {
        let id: Int
        init(_ id: Int) { self.id = id }
    }

    @Test func releasedValuesReadAsAbsent() {
        var dictionary = WeakValueDictionary<Int, Box>()
        let kept = Box(1)
        dictionary[1] = kept
        dictionary[2] = Box(2)
        #expect(dictionary[1] === kept)
        #expect(dictionary[2] == nil)
        #expect(dictionary.values.map(\.id) == [1])
        dictionary[1] = nil
        #expect(dictionary[1] == nil)
        withExtendedLifetime(kept) {}
    }

    /// Random inserts, releases and removals against a model that keeps the
    /// live values strongly; after every step the dictionary agrees with the
    /// model and the storage is within its bound.
    @Test(arguments: [1, 2, 3])
    func agreesWithAModelAndStaysBounded(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var dictionary = WeakValueDictionary<Int, Box>()
        var live: [Int: Box] = [:]
        var largestLiveAtSweep = 0
        for step in 0..<50_000 {
            let key = Int.random(in: 0..<20_000, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                let box = Box(step)
                dictionary[key] = box
                if Bool.random(using: &random) { live[key] = box } else { live[key] = nil }
            case 5..<8:
                live[key] = nil // released by its owner; the entry goes dead
            default:
                dictionary[key] = nil
                live[key] = nil
            }
            largestLiveAtSweep = max(largestLiveAtSweep, live.count)
            #expect(dictionary.storageCount <= max(WeakValueDictionary<Int, Box>.minimumSweepCount, 2 * largestLiveAtSweep) + 1)
            if step % 5_000 == 0 {
                #expect(Set(dictionary.values.map(ObjectIdentifier.init)) == Set(live.values.map(ObjectIdentifier.init)))
            }
        }
        for (key, box) in live { #expect(dictionary[key] === box) }
    }

    /// A walk over a million short-lived values keeps the storage at the minimum.
    @Test func shortLivedValuesDoNotAccumulate() {
        var dictionary = WeakValueDictionary<Int, Box>()
        for key in 0..<200_000 { dictionary[key] = Box(key) }
        #expect(dictionary.storageCount <= WeakValueDictionary<Int, Box>.minimumSweepCount)
    }
}
