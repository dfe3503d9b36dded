import Foundation
import Testing
@testable import OpenCoreDataCore

/// `SharedObjectTable`: objects found by their own keys read as absent once
/// nothing else holds them, a sweep drops them (and what only they held),
/// the table stays within twice the objects still used, and after every
/// change its invariants hold (power-of-two capacity at least twice the
/// count, one object a key, each object reachable from its home bucket).
/// The keys here hash badly on purpose (`Box.collisions`): long runs that
/// wrap around the table's end are where removals go wrong.
@Suite struct SharedObjectTableTests {
    final class Box: SharedTableElement {
        /// Keys a table of this many buckets or more sees in runs of this length.
        static let collisions = 4
        let id: Int
        var next: Box?
        init(_ id: Int) { self.id = id }

        var tableKey: Int { id }
        func hasTableKey(_ key: Int) -> Bool { id == key }
        func tableKeyHash(seed: Int) -> Int { Self.tableHash(of: id, seed: seed) }
        static func tableHash(of key: Int, seed: Int) -> Int { KeyHashMixing.mix(key / collisions, seed: seed) }
    }

    private static func expectValid(_ table: SharedObjectTable<Box>, _ step: Int) {
        let violations = table.invariantViolations
        #expect(violations.isEmpty, "step \(step): \(violations.prefix(3))")
    }

    @Test func releasedObjectsReadAsAbsent() {
        let table = SharedObjectTable<Box>()
        let kept = Box(1)
        table[1] = kept
        table[2] = Box(2)
        #expect(table[1] === kept)
        #expect(table[2] == nil)
        #expect(table.values.map(\.id) == [1])
        table[1] = nil
        #expect(table[1] == nil && table.storageCount == 0)
        withExtendedLifetime(kept) {}
    }

    /// `forEachShared` (a context going away) visits exactly the objects something else holds,
    /// one held only by another stored object included, and drops nothing.
    @Test func forEachSharedVisitsHeldObjectsWithoutDropping() {
        let table = SharedObjectTable<Box>()
        let held = Box(1)
        table[1] = held
        do {
            let owner = Box(2), ownedOnly = Box(3)
            owner.next = ownedOnly
            table[2] = owner
            table[3] = ownedOnly
            table[4] = Box(4)
        }
        var visited: [Int] = []
        table.forEachShared { visited.append($0.id) }
        // 2 and 4 are only in the table; 3 is held by 2.
        #expect(visited.sorted() == [1, 3])
        #expect(table.storageCount == 4)
        withExtendedLifetime(held) {}
    }

    /// Random stores, releases, removals, sweeps and rebuilds against a model
    /// that holds the live objects strongly.
    @Test(arguments: [(keys: 48, seed: UInt64(1)), (keys: 1_000, seed: 2), (keys: 20_000, seed: 3)])
    func agreesWithAModelAndStaysBounded(keys: Int, seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let table = SharedObjectTable<Box>()
        var live: [Int: Box] = [:]
        var largestLive = 0
        for step in 0..<30_000 {
            let key = Int.random(in: 0..<keys, using: &random)
            switch Int.random(in: 0..<20, using: &random) {
            case 0..<8:
                let box = Box(key)
                // Through the subscript or `updateValue`, which must agree.
                if Bool.random(using: &random) { table[key] = box } else { table.updateValue(forKey: key) { $0 = box } }
                if Bool.random(using: &random) { live[key] = box } else { live[key] = nil }
            case 8..<12:
                live[key] = nil // released by its owner; the entry becomes unshared
            case 12..<15:
                if Bool.random(using: &random) { table[key] = nil } else { table.removeValue(forKey: key) }
                live[key] = nil
            case 15:
                table.sweep()
                #expect(table.storageCount == live.count, "step \(step)")
            case 16:
                table.reserveCapacity(forAdding: Int.random(in: 0...500, using: &random))
            case 17:
                let parity = Int.random(in: 0...1, using: &random)
                table.removeAll { $0.id % 2 == parity }
                live = live.filter { $0.key % 2 != parity }
            default:
                // `updateValue` sees the shared object or nil, and leaving it there keeps it.
                let seen = table.updateValue(forKey: key) { entry in entry.map(ObjectIdentifier.init) }
                #expect(seen == live[key].map(ObjectIdentifier.init), "step \(step)")
            }
            largestLive = max(largestLive, live.count)
            #expect(table.storageCount <= max(4, 2 * (largestLive + 1)) + 500, "step \(step)")
            if step % 101 == 0 || keys < 100 { Self.expectValid(table, step) }
        }
        Self.expectValid(table, -1)
        #expect(Set(table.values.map(ObjectIdentifier.init)) == Set(live.values.map(ObjectIdentifier.init)))
        for (key, box) in live { #expect(table[key] === box) }
    }

    /// A tag is never 0 (an empty bucket's), and the eight keys of a group
    /// (`KeyHashMixing.grouped`), which share a probe run, get eight tags: a
    /// lookup loads no other object of its group.
    @Test func tagsAreNeverEmptyAndTellAGroupsKeysApart() {
        var random = SeededGenerator(seed: 7)
        for _ in 0..<2_000 {
            let seed = Int.random(in: .min ... .max, using: &random)
            let salt = Int.random(in: .min ... .max, using: &random)
            let first = Int.random(in: 0..<1 << 40, using: &random) & ~7
            let tags = (first..<first + 8).map {
                SharedObjectTable<Box>.tag(of: KeyHashMixing.grouped($0, salt: salt, seed: seed))
            }
            #expect(!tags.contains(0))
            #expect(Set(tags).count == 8, "seed \(seed), salt \(salt), keys from \(first)")
            #expect(SharedObjectTable<Box>.tag(of: seed) != 0)
        }
    }

    /// A walk over many short-lived objects keeps the table small.
    @Test func shortLivedObjectsDoNotAccumulate() {
        let table = SharedObjectTable<Box>()
        for key in 0..<200_000 { table[key] = Box(key) }
        #expect(table.storageCount <= 4)
    }

    /// Reserving room for each batch of objects the caller lets go (a batched
    /// walk) keeps the table within a batch or two: unshared objects go
    /// before the table grows for the next batch.
    @Test func reservingForEachBatchDropsTheBatchesLetGo() {
        let table = SharedObjectTable<Box>()
        for batch in 0..<2_000 {
            table.reserveCapacity(forAdding: 100)
            for index in 0..<100 { table[batch * 100 + index] = Box(batch * 100 + index) }
            #expect(table.storageCount <= 200, "batch \(batch): \(table.storageCount)")
        }
        Self.expectValid(table, 0)
    }

    /// Objects that only an unshared object kept alive go in the same sweep:
    /// an owner dropped first leaves what it held unshared.
    @Test func aSweepDropsWhatOnlyDroppedObjectsHeld() {
        let table = SharedObjectTable<Box>()
        weak var part: Box?
        do {
            let owner = Box(100), made = Box(0)
            owner.next = made
            part = made
            table[100] = owner
            table[0] = made
        }
        #expect(part != nil) // held by the owner, which only the table holds
        table.sweep()
        #expect(part == nil && table.storageCount == 0)
    }

    /// An object released while the table holds it lives on until it is
    /// met or swept: its memory is reclaimed then, not at once.
    @Test func anUnsharedObjectIsFreedByASweep() {
        let table = SharedObjectTable<Box>()
        weak var released: Box?
        do {
            let box = Box(7)
            released = box
            table[7] = box
        }
        #expect(released != nil)
        table.sweep()
        #expect(released == nil && table[7] == nil)
        // A sweep that dropped everything leaves a valid empty table (rebuilt without a pass over its buckets).
        Self.expectValid(table, 0)
        let again = Box(7)
        table[7] = again
        #expect(table[7] === again)
        Self.expectValid(table, 1)
    }

    /// A table going away, or emptied, releases each object it holds once:
    /// the shared ones live on with their other owners, the rest are freed.
    /// (It releases them by address, not by bucket; every count of objects
    /// around the point where it starts arranging them is tried.)
    @Test func aTableGoingAwayReleasesEachObjectOnce() {
        for count in [0, 1, 8, 9, 10, 100, 1_000] {
            for emptied in [false, true] {
                var kept: [Box] = []
                var watched: [WeakBox] = []
                var table: SharedObjectTable<Box>? = SharedObjectTable<Box>()
                for id in 0..<count {
                    let box = Box(id)
                    table![id] = box
                    watched.append(WeakBox(box))
                    if id % 3 == 0 { kept.append(box) }
                }
                if emptied { table!.removeAll() } else { table = nil }
                #expect(watched.filter { $0.box != nil }.count == kept.count, "\(count) objects, emptied: \(emptied)")
                for index in kept.indices { #expect(isKnownUniquelyReferenced(&kept[index]), "\(count): \(index)") }
                withExtendedLifetime(table) {}
            }
        }
    }

    final class WeakBox {
        weak var box: Box?
        init(_ box: Box) { self.box = box }
    }

    /// Storing an object under a key that is not its own stops the program.
    @Test func anObjectStoredUnderAnotherKeyStops() async {
        await #expect(processExitsWith: .failure) {
            let table = SharedObjectTable<Box>()
            let box = Box(1)
            table[2] = box
        }
    }
}
