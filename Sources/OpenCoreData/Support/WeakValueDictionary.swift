/// A dictionary whose values are held weakly: an entry reads as absent once
/// nothing else keeps its value alive.
///
/// Invariant: the storage never holds more than `max(minimumSweepCount,
/// 2 × live entries at the last sweep)` entries, because inserting past that
/// bound first drops every dead entry. Sweeping costs one pass over the
/// storage, and happens only after the storage doubled, so insertion stays
/// amortised O(1) and a long walk over short-lived values keeps the storage
/// proportional to the values alive, not to the values ever inserted.
struct WeakValueDictionary<Key: Hashable, Value: AnyObject> {
    private struct Entry {
        weak var value: Value?
    }

    static var minimumSweepCount: Int { 1024 }

    private var storage: [Key: Entry] = [:]
    private var sweepCount = Self.minimumSweepCount

    /// The live value for `key`; assigning nil removes the entry.
    subscript(key: Key) -> Value? {
        get { storage[key]?.value }
        set {
            guard let newValue else {
                storage[key] = nil
                return
            }
            if storage.count >= sweepCount, storage[key] == nil { sweep() }
            storage[key] = Entry(value: newValue)
        }
    }

    /// Every live value, in no particular order; O(entries).
    var values: [Value] { storage.values.compactMap(\.value) }

    /// How many entries the storage holds, dead ones included: an upper bound of the live count.
    var storageCount: Int { storage.count }

    /// Removes the entry of `key` and returns its live value.
    @discardableResult
    mutating func removeValue(forKey key: Key) -> Value? {
        storage.removeValue(forKey: key)?.value
    }

    /// Keeps the live entries `shouldBeRemoved` rejects, in a new table (dead
    /// entries go too): cheaper than removing most entries one by one, since
    /// each removal shifts the entries after it.
    mutating func removeAll(where shouldBeRemoved: (Key, Value) -> Bool) {
        storage = storage.filter { key, entry in entry.value.map { !shouldBeRemoved(key, $0) } ?? false }
        sweepCount = Swift.max(Self.minimumSweepCount, storage.count * 2)
    }

    mutating func reserveCapacity(_ capacity: Int) { storage.reserveCapacity(capacity) }

    mutating func removeAll() {
        storage = [:]
        sweepCount = Self.minimumSweepCount
    }

    /// Removes the dead entries in place: a sweep that finds every value
    /// alive (a large fetch result still in use) copies nothing.
    private mutating func sweep() {
        let dead = storage.compactMap { $0.value.value == nil ? $0.key : nil }
        for key in dead { storage[key] = nil }
        sweepCount = Swift.max(Self.minimumSweepCount, storage.count * 2)
    }
}
