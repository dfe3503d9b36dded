import Testing
@testable import OpenCoreDataCore

/// `SQLiteKeyRuns`' invariants over random key sets (runs, gaps, negative
/// keys, the ends of `Int64`): its ranges and scattered keys are together
/// exactly the keys given; each range is a maximal run of at least
/// `minimumRunLength` consecutive keys; no such run is left among the
/// scattered keys; both come out ascending whatever the order given.
@Suite struct SQLiteKeyRunsTests {
    static func check(_ keys: [Int64], sourceLocation: SourceLocation = #_sourceLocation) {
        let runs = SQLiteKeyRuns(keys)
        let given = Set(keys)
        var covered: [Int64] = runs.scattered
        for range in runs.ranges {
            #expect(range.upperBound - range.lowerBound + 1 >= SQLiteKeyRuns.minimumRunLength, "\(range)",
                    sourceLocation: sourceLocation)
            #expect(range.lowerBound == .min || !given.contains(range.lowerBound - 1), "\(range) not maximal",
                    sourceLocation: sourceLocation)
            #expect(range.upperBound == .max || !given.contains(range.upperBound + 1), "\(range) not maximal",
                    sourceLocation: sourceLocation)
            covered += Array(range.lowerBound...range.upperBound)
        }
        #expect(covered.count == keys.count && Set(covered) == given, sourceLocation: sourceLocation)
        #expect(zip(runs.ranges, runs.ranges.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound },
                sourceLocation: sourceLocation)
        #expect(runs.scattered == runs.scattered.sorted(), sourceLocation: sourceLocation)
        for key in runs.scattered where key <= .max - 3 {
            let run = (0..<Int64(SQLiteKeyRuns.minimumRunLength)).allSatisfy { given.contains(key + $0) }
            #expect(!run, "a run from \(key) was left scattered", sourceLocation: sourceLocation)
        }
    }

    @Test func edgeCases() {
        Self.check([])
        Self.check([7])
        Self.check([1, 2, 3])
        Self.check([4, 3, 2, 1])
        Self.check([1, 2, 3, 4, 6, 7, 8, 9, 10, 12])
        Self.check([.max - 3, .max - 2, .max - 1, .max, .min, .min + 1, .min + 2, .min + 3, -1, 0, 1, 2])
        #expect(SQLiteKeyRuns([10, 1, 2, 3, 4, 12, 11, 13]).ranges.map { $0.lowerBound...$0.upperBound }
                == [1...4, 10...13])
        #expect(SQLiteKeyRuns([10, 1, 2, 3, 4, 12, 11, 13]).scattered.isEmpty)
        #expect(SQLiteKeyRuns([5, 1, 2, 3]).scattered == [1, 2, 3, 5])
    }

    /// 2,000 random sets: clusters of consecutive keys of random lengths with random gaps, shuffled.
    @Test func randomKeySetsSplitIntoMaximalRunsAndTheRest() {
        var random = SeededGenerator(seed: 11)
        for _ in 0..<2_000 {
            var keys: [Int64] = []
            var next = Int64.random(in: -1_000...1_000, using: &random)
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                let length = Int64.random(in: 1...9, using: &random)
                keys += Array(next..<next + length)
                next += length + Int64.random(in: 1...3, using: &random)
            }
            keys.shuffle(using: &random)
            Self.check(keys)
        }
    }
}
