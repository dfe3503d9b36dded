import Foundation
import Testing
@testable import OpenCoreDataCore

/// `SharedValueDictionary`: entries read as absent once nothing else holds
/// their value, and the storage stays within twice the live entries (or the
/// minimum) however many values pass through it.
@Suite struct SharedValueDictionaryTests {
    final class Box {
        let id: Int
        init(_ id: Int) { self.id = id }
    }

    @Test func releasedValuesReadAsAbsent() {
        var dictionary = SharedValueDictionary<Int, Box>()
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

    /// `forEachShared` (a context going away) visits exactly the values something else holds,
    /// a value held only by another entry's value included, and drops nothing.
    @Test func forEachSharedVisitsHeldValuesWithoutDropping() {
        final class Node {
            let id: Int
            var next: Node?
            init(_ id: Int) { self.id = id }
        }
        var dictionary = SharedValueDictionary<Int, Node>()
        let held = Node(1)
        dictionary[1] = held
        do {
            let owner = Node(2), ownedOnly = Node(3)
            owner.next = ownedOnly
            dictionary[2] = owner
            dictionary[3] = ownedOnly
            dictionary[4] = Node(4)
        }
        var visited: [Int] = []
        dictionary.forEachShared { visited.append($0.id) }
        // 2 and 4 are only in the dictionary; 3 is held by 2.
        #expect(visited.sorted() == [1, 3])
        #expect(dictionary.storageCount == 4)
        withExtendedLifetime(held) {}
    }

    /// Random inserts, releases and removals against a model that keeps the
    /// live values strongly; after every step the dictionary agrees with the
    /// model and the storage is within its bound.
    @Test(arguments: [1, 2, 3])
    func agreesWithAModelAndStaysBounded(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var dictionary = SharedValueDictionary<Int, Box>()
        var live: [Int: Box] = [:]
        var largestLiveAtSweep = 0
        for step in 0..<50_000 {
            let key = Int.random(in: 0..<20_000, using: &random)
            switch Int.random(in: 0..<12, using: &random) {
            case 0..<5:
                let box = Box(step)
                // Through the subscript or `updateValue`, which must agree.
                if Bool.random(using: &random) { dictionary[key] = box } else {
                    dictionary.updateValue(forKey: key) { $0 = box }
                }
                if Bool.random(using: &random) { live[key] = box } else { live[key] = nil }
            case 5..<8:
                live[key] = nil // released by its owner; the entry becomes unshared
            case 8..<10:
                dictionary[key] = nil
                live[key] = nil
            default:
                // `updateValue` sees the shared value or nil, and leaving it there keeps it.
                let seen = dictionary.updateValue(forKey: key) { entry in entry.map(ObjectIdentifier.init) }
                #expect(seen == live[key].map(ObjectIdentifier.init))
            }
            largestLiveAtSweep = max(largestLiveAtSweep, live.count)
            #expect(dictionary.storageCount <= max(SharedValueDictionary<Int, Box>.minimumSweepCount, 2 * largestLiveAtSweep) + 1)
            if step % 5_000 == 0 {
                #expect(Set(dictionary.values.map(ObjectIdentifier.init)) == Set(live.values.map(ObjectIdentifier.init)))
            }
        }
        for (key, box) in live { #expect(dictionary[key] === box) }
    }

    /// A walk over a million short-lived values keeps the storage at the minimum.
    @Test func shortLivedValuesDoNotAccumulate() {
        var dictionary = SharedValueDictionary<Int, Box>()
        for key in 0..<200_000 { dictionary[key] = Box(key) }
        #expect(dictionary.storageCount <= SharedValueDictionary<Int, Box>.minimumSweepCount)
    }

    /// Values that only an unshared value kept alive go in the same sweep:
    /// an owner dropped first leaves its destinations unshared.
    @Test func aSweepDropsWhatOnlyDroppedValuesHeld() {
        final class Owner {
            let parts: [Box]
            init(_ parts: [Box]) { self.parts = parts }
        }
        var owners = SharedValueDictionary<Int, Owner>()
        var parts = SharedValueDictionary<Int, Box>()
        weak var part: Box?
        do {
            let made = (0..<3).map(Box.init)
            part = made[0]
            owners[0] = Owner(made)
            for box in made { parts[box.id] = box }
        }
        #expect(parts[0] != nil) // still held by the owner
        owners.sweep()
        parts.sweep()
        #expect(part == nil)
        #expect(parts.storageCount == 0)
    }

    /// A value released while the dictionary holds it lives on until it is
    /// read or swept: the memory of a released value is reclaimed at the
    /// next sweep, not at once.
    @Test func anUnsharedValueIsFreedByASweep() {
        var dictionary = SharedValueDictionary<Int, Box>()
        weak var released: Box?
        do {
            let box = Box(7)
            released = box
            dictionary[7] = box
        }
        #expect(released != nil)
        dictionary.sweep()
        #expect(released == nil)
        #expect(dictionary[7] == nil)
    }
}
