/// How a controller places objects: its sort descriptors, its section key
/// path, and the tie-break by sequence that makes the order total, so that
/// every entry has exactly one position a binary search can find.
struct FetchedResultsOrder {
    let descriptors: [NSSortDescriptor]
    let sectionNameKeyPath: String?
    /// For each descriptor, whether it orders by `compare:` (no comparator
    /// closure, no other selector): then classified keys can be compared
    /// directly (`ComparableValue`).
    private let comparesPlainly: [Bool]

    init(descriptors: [NSSortDescriptor], sectionNameKeyPath: String?) {
        self.descriptors = descriptors
        self.sectionNameKeyPath = sectionNameKeyPath
        comparesPlainly = descriptors.map { $0.comparator == nil && $0.selector?.name == "compare:" }
    }

    /// The sort descriptors' values of `object`; one key-path read each.
    func keys(of object: NSManagedObject) -> [Any?] {
        descriptors.map { $0.value(of: object) }
    }

    /// The name of the section `object` belongs to. A nil value names the
    /// section "" (as Core Data's `name`, a non-optional string, shows it),
    /// which it shares with empty strings.
    func sectionName(of object: NSManagedObject) -> String {
        guard let sectionNameKeyPath else { return "" }
        guard let value = try? KeyPathValue.value(of: object, keyPath: sectionNameKeyPath) else { return "" }
        if let string = Values.string(value) { return string }
        return String(describing: value)
    }

    /// How `a` and `b` are ordered; never `.orderedSame` for two entries.
    func compare(_ a: FetchedResultsEntry, _ b: FetchedResultsEntry) -> ComparisonResult {
        for (index, descriptor) in descriptors.enumerated() {
            // The values themselves are read only when the classified keys don't decide: copying an `Any?`
            // out of its array costs as much as the comparison.
            let result: ComparisonResult
            if comparesPlainly[index],
               let ascending = ComparableValue.sortOrder(a.sortKeys[index], b.sortKeys[index]) {
                result = descriptor.ascending ? ascending : ascending.reversed
            } else {
                result = descriptor.compareValues(a.keys[index], b.keys[index])
            }
            if result != .orderedSame { return result }
        }
        if a.sequence == b.sequence { return .orderedSame }
        return a.sequence < b.sequence ? .orderedAscending : .orderedDescending
    }

    func precedes(_ a: FetchedResultsEntry, _ b: FetchedResultsEntry) -> Bool {
        compare(a, b) == .orderedAscending
    }

    /// The index in the sorted `entries` where `entry` is or would go.
    /// Costs log n comparisons.
    func insertionIndex(of entry: FetchedResultsEntry, in entries: [FetchedResultsEntry]) -> Int {
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if precedes(entries[middle], entry) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Whether the sort keys `keys` place an object where `entry`'s place it.
    func sameKeys(_ keys: [Any?], as entry: FetchedResultsEntry) -> Bool {
        descriptors.indices.allSatisfy { index in
            if comparesPlainly[index], let order = ComparableValue.sortOrder(
                ComparableValue(keys[index]), entry.sortKeys[index]) {
                return order == .orderedSame
            }
            return descriptors[index].compareValues(keys[index], entry.keys[index]) == .orderedSame
        }
    }
}
