/// How a controller places objects: its sort descriptors, its section key
/// path, and the tie-break by sequence that makes the order total, so that
/// every entry has exactly one position a binary search can find.
struct FetchedResultsOrder {
    let descriptors: [NSSortDescriptor]
    let sectionNameKeyPath: String?

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
            let result = descriptor.compareValues(a.keys[index], b.keys[index])
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
}

extension FetchedResultsOrder {
    /// Whether two sets of sort keys place an object the same way.
    func sameKeys(_ a: [Any?], _ b: [Any?]) -> Bool {
        descriptors.indices.allSatisfy { descriptors[$0].compareValues(a[$0], b[$0]) == .orderedSame }
    }
}
