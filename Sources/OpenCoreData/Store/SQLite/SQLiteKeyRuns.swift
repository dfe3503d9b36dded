/// Primary keys split into runs of consecutive keys, each deleted with one
/// `Z_PK BETWEEN ? AND ?`, and the keys outside such runs, which go in
/// `IN (…)` lists (``SQLiteKeyList``).
///
/// Records made together have consecutive keys (Core Data hands them out in
/// order), and a cascade deletes such records together: an album's photos.
/// SQLite deletes the rows of an `IN` list through a temporary index of its
/// values, then finds each row by key; a range it walks in the table's own
/// order. In the benchmark's 10,000-photo cascade, SQLite spent ~6,800
/// instructions a row deleting by 512-key lists; in the `sqlite3` shell over
/// a file like it, ~4,600 by ranges and ~4,200 by album (raw SQLite's way).
struct SQLiteKeyRuns {
    /// The shortest run worth a statement of its own: shorter ones cost
    /// more as statements (a step, a reset, three bindings) than as list entries.
    static let minimumRunLength = 4

    /// Keys `lowerBound` through `upperBound`, both included.
    ///
    /// Not a `ClosedRange<Int64>`: an array of those is a generic type whose
    /// declaration requires `Comparable`, and a process's first such array
    /// looks the conformance up, scanning every conformance record loaded
    /// (~300,000 instructions).
    struct KeyRange {
        let lowerBound: Int64
        let upperBound: Int64
    }

    /// The runs of at least ``minimumRunLength`` consecutive keys, ascending.
    private(set) var ranges: [KeyRange] = []
    /// The other keys, ascending.
    private(set) var scattered: [Int64] = []

    /// The runs and the rest of `keys` (distinct keys, in any order).
    init(_ keys: [Int64]) {
        var sorted = keys
        if !sorted.isSorted() { sorted.sort() }
        var start = 0
        while start < sorted.count {
            var end = start
            while end + 1 < sorted.count, sorted[end] != .max, sorted[end + 1] == sorted[end] + 1 { end += 1 }
            if end - start + 1 >= Self.minimumRunLength {
                ranges.append(KeyRange(lowerBound: sorted[start], upperBound: sorted[end]))
            } else {
                scattered.append(contentsOf: sorted[start...end])
            }
            start = end + 1
        }
    }
}

extension Array where Element: Comparable {
    /// Whether the elements are in ascending order (equal neighbours allowed). O(n).
    fileprivate func isSorted() -> Bool {
        zip(self, dropFirst()).allSatisfy { $0 <= $1 }
    }
}
