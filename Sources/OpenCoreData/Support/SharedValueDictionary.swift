/// A dictionary that keeps a value only while the value is shared: an entry
/// reads as absent once nothing besides the dictionary references its value
/// (what a dictionary of weak references does, without weak references).
///
/// Why not `weak`: a weakly referenced object gets a side table, and every
/// later retain and release of it takes the runtime's slow path; for managed
/// objects and cached rows that was a large share of every fetch. Here the
/// dictionary holds its values strongly and tells a value nobody else uses
/// by `isKnownUniquelyReferenced`, which is safe from any thread's releases:
/// a value only the dictionary references can't gain a reference except
/// through the dictionary.
///
/// Invariant: the storage never holds more than `max(minimumSweepCount,
/// 2 × shared entries at the last sweep)` entries, because inserting past
/// that bound first drops every unshared entry. A sweep costs one pass over
/// the storage per level of values that only other dropped values held, and
/// happens only after the storage doubled, so insertion stays amortised
/// O(1). Values dropped by a sweep are released on the sweeping thread.
/// Every read is `mutating`: reading an unshared entry drops it.
struct SharedValueDictionary<Key: Hashable, Value: AnyObject> {
    static var minimumSweepCount: Int { 1024 }

    private var storage: [Key: Value] = [:]
    private var sweepCount = Self.minimumSweepCount

    /// The value for `key` if something besides the dictionary uses it;
    /// assigning nil removes the entry.
    subscript(key: Key) -> Value? {
        mutating get {
            guard let index = storage.index(forKey: key) else { return nil }
            guard !isKnownUniquelyReferenced(&storage.values[index]) else {
                storage.remove(at: index)
                return nil
            }
            return storage.values[index]
        }
        set {
            guard let newValue else {
                storage[key] = nil
                return
            }
            if storage.count >= sweepCount, storage[key] == nil { sweep() }
            storage[key] = newValue
        }
    }

    /// Runs `body` on the entry of `key` (nil when absent or unshared) and
    /// keeps what it leaves there: a read and a write with one hash lookup,
    /// where the subscript's get and set cost two or three.
    mutating func updateValue<Result>(forKey key: Key, _ body: (inout Value?) -> Result) -> Result {
        if storage.count >= sweepCount, storage[key] == nil { sweep() }
        return Self.shared(&storage[key], body)
    }

    private static func shared<Result>(_ entry: inout Value?, _ body: (inout Value?) -> Result) -> Result {
        if entry != nil, isKnownUniquelyReferenced(&entry!) { entry = nil }
        return body(&entry)
    }

    /// Every shared value, in no particular order; sweeps first, O(entries).
    var values: [Value] {
        mutating get {
            sweep()
            return Array(storage.values)
        }
    }

    /// Calls `body` with every value something besides the dictionary references, in one pass
    /// and without dropping the others: for an owner about to let go of the whole dictionary,
    /// where a sweep would first gather and remove every unshared entry. A value referenced only
    /// by other values of the dictionary counts as shared here. O(entries).
    mutating func forEachShared(_ body: (Value) -> Void) {
        var index = storage.startIndex
        while index != storage.endIndex {
            if !isKnownUniquelyReferenced(&storage.values[index]) { body(storage.values[index]) }
            storage.formIndex(after: &index)
        }
    }

    /// How many entries the storage holds, unshared ones included: an upper bound of the shared count.
    var storageCount: Int { storage.count }

    /// Removes the entry of `key` and returns its value.
    @discardableResult
    mutating func removeValue(forKey key: Key) -> Value? {
        storage.removeValue(forKey: key)
    }

    /// Keeps the shared entries `shouldBeRemoved` rejects.
    mutating func removeAll(where shouldBeRemoved: (Key, Value) -> Bool) {
        sweep()
        storage = storage.filter { key, value in !shouldBeRemoved(key, value) }
        sweepCount = Swift.max(Self.minimumSweepCount, storage.count * 2)
    }

    mutating func reserveCapacity(_ capacity: Int) { storage.reserveCapacity(capacity) }

    mutating func removeAll() {
        storage = [:]
        sweepCount = Self.minimumSweepCount
    }

    /// Drops every unshared entry, in place. Dropping a value can leave
    /// values that only it referenced unshared (an owner and its
    /// destinations), so passes repeat until one drops nothing.
    mutating func sweep() {
        while true {
            var unshared: [Dictionary<Key, Value>.Index] = []
            var index = storage.startIndex
            while index != storage.endIndex {
                if isKnownUniquelyReferenced(&storage.values[index]) { unshared.append(index) }
                storage.formIndex(after: &index)
            }
            if unshared.isEmpty { break }
            if unshared.count * 4 < storage.count {
                let keys = unshared.map { storage.keys[$0] }
                for key in keys { storage.removeValue(forKey: key) }
            } else {
                // Most entries go: a new table of the rest costs less than removing them one by one.
                var kept: [Key: Value] = [:]
                kept.reserveCapacity(storage.count - unshared.count)
                var next = unshared.makeIterator(), skip = next.next()
                for index in storage.indices {
                    if index == skip { skip = next.next(); continue }
                    kept[storage.keys[index]] = storage.values[index]
                }
                storage = kept
            }
        }
        sweepCount = Swift.max(Self.minimumSweepCount, storage.count * 2)
    }
}
