import Testing
@testable import OpenCoreDataCore

/// `SlotSet` against `Set<Int>` as the model: random sets over slots on both
/// sides of the inline word's boundary (64) and of the first overflow word's.
@Suite struct SlotSetTests {
    private static func randomSlots(_ generator: inout SeededGenerator, bound: Int) -> Set<Int> {
        Set((0..<Int.random(in: 0...12, using: &generator)).map { _ in Int.random(in: 0..<bound, using: &generator) })
    }

    @Test(arguments: [40, 64, 65, 130, 300])
    func behavesAsASetOfInts(bound: Int) {
        var generator = SeededGenerator(seed: UInt64(bound))
        for _ in 0..<300 {
            let a = Self.randomSlots(&generator, bound: bound), b = Self.randomSlots(&generator, bound: bound)
            let slotsA = SlotSet(a), slotsB = SlotSet(b)
            #expect(slotsA.slots == a.sorted())
            #expect(slotsA.isEmpty == a.isEmpty)
            for slot in 0..<(bound + 70) { #expect(slotsA.contains(slot) == a.contains(slot)) }
            let both = slotsA.intersection(slotsB)
            #expect(both.slots == a.intersection(b).sorted())
            // Equal sets are equal and hash alike however they were built.
            #expect(both == SlotSet(a.intersection(b)))
            #expect(both.hashValue == SlotSet(a.intersection(b)).hashValue)
            #expect((slotsA == slotsB) == (a == b))
            var union = slotsA
            union.formUnion(slotsB)
            #expect(union.slots == a.union(b).sorted())
            #expect(union == SlotSet(a.union(b)) && union.hashValue == SlotSet(a.union(b)).hashValue)
        }
    }

    @Test func negativeAndEmptyCases() {
        let empty = SlotSet()
        #expect(empty.isEmpty && empty.slots.isEmpty && !empty.contains(-1) && !empty.contains(0))
        var high = SlotSet()
        high.insert(200)
        #expect(!high.isEmpty && high.contains(200) && !high.contains(136))
        // Intersecting away the only high slot leaves a set equal to the empty one.
        #expect(high.intersection(SlotSet([1, 2])) == empty)
    }
}
