/// The faults of one read by key, found again by the keys of the rows the
/// store returns. A batch of a fetch in key order (a batched walk, faults
/// fired in table order) lists its faults by ascending key, and the store
/// mostly returns the rows in that order: each is found where the last one
/// was found, or else by binary search, where a dictionary filled for them
/// cost ~180 instructions a fault; other lists go through a dictionary.
struct FaultsByKey {
    /// Each key once, in the faults' order: what the read asks for.
    let keys: [Int64]
    /// The fault of each key, by position in `keys`, when they ascend.
    private let ordered: [NSManagedObject]
    /// The fault of each key, when they do not ascend.
    private let byKey: [PrimaryKey: NSManagedObject]
    /// Where the next row's key is looked for first: after the last one found.
    private var next = 0

    /// `faults`, each a record of one family (`storedRecord` is set); a fault
    /// listed twice is one.
    init(_ faults: [NSManagedObject]) {
        var keys: [Int64] = []
        keys.reserveCapacity(faults.count)
        for fault in faults {
            let key = fault.storedRecord.unsafelyUnwrapped.primaryKey
            guard keys.last.map({ $0 < key }) ?? true else {
                (self.keys, ordered, byKey) = Self.unordered(faults)
                return
            }
            keys.append(key)
        }
        (self.keys, ordered, byKey) = (keys, faults, [:])
    }

    private static func unordered(_ faults: [NSManagedObject])
        -> ([Int64], [NSManagedObject], [PrimaryKey: NSManagedObject]) {
        var byKey = [PrimaryKey: NSManagedObject](minimumCapacity: faults.count)
        var keys: [Int64] = []
        keys.reserveCapacity(faults.count)
        for fault in faults {
            let key = fault.storedRecord.unsafelyUnwrapped.primaryKey
            if byKey.updateValue(fault, forKey: PrimaryKey(key)) == nil { keys.append(key) }
        }
        return (keys, [], byKey)
    }

    /// The fault of `key`; nil for a key not asked for.
    mutating func fault(forKey key: Int64) -> NSManagedObject? {
        guard !ordered.isEmpty else { return byKey[PrimaryKey(key)] }
        var found = next
        if found >= keys.count || keys[found] != key {
            var low = 0, high = keys.count
            while low < high {
                let middle = (low + high) / 2
                if keys[middle] < key { low = middle + 1 } else { high = middle }
            }
            guard low < keys.count && keys[low] == key else { return nil }
            found = low
        }
        next = found + 1
        return ordered[found]
    }
}
