import Testing
@testable import OpenCoreDataCore

/// `forEachUnretained(_:)`: every element in order, alive for the call
/// even when the array it was copied from lets go of it meanwhile (as a
/// save's pass over a context's list, where `willSave()` may change it).
@Suite struct UnretainedIterationTests {
    final class Box {
        let id: Int
        init(_ id: Int) { self.id = id }
    }

    @Test func visitsEveryElementInOrderWhileTheSourceChanges() {
        var source = (0..<100).map(Box.init)
        weak let last = source.last
        var visited: [Int] = []
        source.forEachUnretained { box in
            // The source lets go of everything: the walk's array is a copy, which keeps each element.
            source.removeAll()
            visited.append(box.id)
        }
        #expect(visited == Array(0..<100))
        #expect(source.isEmpty && last == nil, "nothing outlives the walk")
    }

    @Test func aThrowingBodyStopsTheWalk() {
        struct Stop: Error {}
        var visited = 0
        #expect(throws: Stop.self) {
            try (0..<10).map(Box.init).forEachUnretained { box in
                visited += 1
                if box.id == 3 { throw Stop() }
            }
        }
        #expect(visited == 4)
    }
}
