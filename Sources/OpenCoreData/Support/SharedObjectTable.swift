/// An object that carries the key a `SharedObjectTable` finds it by.
protocol SharedTableElement: AnyObject {
    associatedtype TableKey
    /// The object's key. It must not change while the object is in a table.
    var tableKey: TableKey { get }
    /// Whether `key` is the object's key; asked of every object a lookup probes.
    func hasTableKey(_ key: TableKey) -> Bool
    /// `tableHash(of: tableKey, seed:)`, which a resize asks of every object.
    func tableKeyHash(seed: Int) -> Int
    /// The hash of `key` in a table whose seed is `seed`.
    static func tableHash(of key: TableKey, seed: Int) -> Int
}

/// Objects found by the key each carries: an open-addressing hash table of
/// the objects themselves, one word a bucket. A context's registry
/// (`ObjectRegistry`) and the coordinator's row cache (`StoreRowCache`).
///
/// A dictionary from key to object spent 16 to 24 bytes a bucket (a key
/// holds an object ID, the registry's a tag too, then the object): 63 bytes
/// a registered object at 100k in the registry. Here a bucket is the object
/// reference alone, and storing retains only the object. Lookups compare the
/// probed objects' keys through them, which `Dictionary` did through the
/// keys' IDs as well.
///
/// Objects are kept only while shared, as a dictionary of weak references
/// would keep them but without weak references (which give an object a side
/// table and slow every later retain and release of it): the table holds its
/// objects strongly and drops an object nothing else references
/// (`isKnownUniquelyReferenced`, safe from any thread's releases: an object
/// only the table references can't gain a reference except through it) when
/// a lookup meets it, when the table would grow (a sweep first, which may
/// make growing unneeded) and when `sweep()` is called. The capacity thus
/// stays below four times the shared objects at the last growth (or what
/// `reserveCapacity` asked for), and a fetch that reserved room for its
/// objects sweeps nothing. Dropped objects are released on the dropping thread.
///
/// Each bucket has a tag byte, in an array after the buckets: 0 when the
/// bucket is empty, else seven bits of its object's key's hash with the high
/// bit set (`tag(of:)`). A probe reads the tag and loads the object only when
/// the tags agree. Keys hashed in groups (`KeyHashMixing.grouped`) make long
/// probe runs (a registration walked ~6 buckets, a lookup ~3), and loading
/// each probed object and its ID to compare keys missed the cache at 100k
/// objects: a quarter of a 100k fetch-graph's first-level cache misses.
///
/// A class over raw storage rather than a struct over an array: resizing
/// moves the objects, and the old storage is freed without visiting its
/// empty buckets (an array's deinit destroys every element through the
/// runtime, ~40 instructions a bucket). Its owners hold it in a `let`.
///
/// Invariants: the capacity is 0 or a power of two at least 8 and at least
/// twice the count (linear probing at load ≤ 1/2: about 1.5 probes to find an
/// object, 2.5 to miss, for keys spread one by one); each object sits in its
/// key's probe run, with no empty bucket between its home bucket and it
/// (removals shift later objects back rather than leaving tombstones); no two
/// objects have equal keys; a bucket's tag is 0 exactly when the bucket is
/// empty, and otherwise its object's key's tag. An object's key must not
/// change while it is in the table: callers remove it first.
///
/// The class asks only that its elements be objects; what finds them by key
/// is in an extension for `SharedTableElement`s. Instantiating a generic
/// type whose declaration requires a protocol looks the conformance up, and
/// the first lookup of a type in a process scans every conformance record
/// loaded (~300,000 instructions for each kind of element).
final class SharedObjectTable<Element: AnyObject> {
    /// `capacity` buckets, each nil or an object the table holds a reference to.
    private var buckets: UnsafeMutablePointer<Element?>?
    /// `capacity` tags, one a bucket, in the buckets' allocation (after them).
    private var tags: UnsafeMutablePointer<UInt8>?
    private var capacity = 0
    private var seed = 0
    /// How many buckets hold an object, unshared ones included: an upper bound of the shared count.
    private(set) var storageCount = 0

    private var mask: Int { capacity - 1 }

    init() {}

    deinit { Self.free(buckets, capacity: capacity, count: storageCount) }

    /// The tag of a key whose hash is `hash`: never 0. Its low three bits are
    /// the hash's (which tell apart the eight keys of a group: see
    /// `KeyHashMixing.grouped`), the next four the hash's top four (which
    /// a bucket index would use only in a table of 2^60 buckets).
    @inline(__always)
    static func tag(of hash: Int) -> UInt8 {
        let bits = UInt(bitPattern: hash)
        return 0x80 | UInt8(truncatingIfNeeded: (bits >> 57) & 0x78 | bits & 7)
    }

    /// Releases the objects of `buckets` and frees them; empty buckets cost a load each.
    ///
    /// The objects go in (nearly) the order of their addresses, not of their
    /// buckets: objects made one after another (a fetch's) lie one after
    /// another, and so do the buffers and IDs they release in turn, so
    /// freeing walks their memory forward instead of missing the cache at
    /// each object (a 100k fetch's teardown: ~9% of its time).
    private static func free(_ buckets: UnsafeMutablePointer<Element?>?, capacity: Int, count: Int) {
        guard let buckets else { return }
        // A bucket is one word: 0, or the address of an object with the table's reference to it, which moves here.
        var addresses = buckets.withMemoryRebound(to: UInt.self, capacity: capacity) { words in
            var addresses: [UInt] = []
            addresses.reserveCapacity(count)
            for bucket in 0..<capacity where words[bucket] != 0 { addresses.append(words[bucket]) }
            return addresses
        }
        UnsafeMutableRawPointer(buckets).deallocate()
        arrangeByAddress(&addresses)
        for address in addresses { Unmanaged<Element>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).release() }
    }

    /// Puts `addresses` in ascending order of their high bits: one counting
    /// pass into about a quarter as many ranges as addresses (a comparison
    /// sort cost ~260 instructions an object, this ~40); within a range, a
    /// few neighbouring objects keep their order.
    private static func arrangeByAddress(_ addresses: inout [UInt]) {
        guard addresses.count > 8, let low = addresses.min(), let high = addresses.max(), high > low else { return }
        let rangeBits = Int.bitWidth - (addresses.count - 1).leadingZeroBitCount - 2
        let shift = max(0, Int.bitWidth - (high - low).leadingZeroBitCount - rangeBits)
        var starts = [Int](repeating: 0, count: (1 << rangeBits) + 1)
        let arranged = [UInt](unsafeUninitializedCapacity: addresses.count) { arranged, initialized in
            starts.withUnsafeMutableBufferPointer { starts in
                addresses.withUnsafeBufferPointer { addresses in
                    for address in addresses { starts[Int((address - low) >> shift) + 1] += 1 }
                    for range in 1..<starts.count { starts[range] += starts[range - 1] }
                    for address in addresses {
                        let range = Int((address - low) >> shift)
                        arranged.initializeElement(at: starts[range], to: address)
                        starts[range] += 1
                    }
                }
            }
            initialized = addresses.count
        }
        addresses = arranged
    }

}

extension SharedObjectTable where Element: SharedTableElement {
    // MARK: Lookup

    /// The bucket of the object with key `key`, or of the empty bucket where
    /// it would go; nil when the table has no buckets.
    @inline(__always)
    private func find(_ key: Element.TableKey) -> (bucket: Int, found: Bool)? {
        find(hash: Element.tableHash(of: key, seed: seed), matching: { $0.hasTableKey(key) })
    }

    /// `find` for the key whose hash under the table's seed is `hash` and whose object is the one `matches`.
    @inline(__always)
    private func find(hash: Int, matching matches: (Element) -> Bool) -> (bucket: Int, found: Bool)? {
        guard let buckets, let tags else { return nil }
        let tag = Self.tag(of: hash)
        var bucket = hash & mask
        while true {
            let probed = tags[bucket]
            if probed == 0 { return (bucket, false) }
            if probed == tag, matches(buckets[bucket].unsafelyUnwrapped) { return (bucket, true) }
            bucket = (bucket + 1) & mask
        }
    }

    private func home(of object: Element) -> Int {
        object.tableKeyHash(seed: seed) & mask
    }

    /// The object stored under `key` if something besides the table uses it;
    /// assigning an object (whose key must be `key`) stores it in place of
    /// any other, assigning nil removes the entry.
    subscript(key: Element.TableKey) -> Element? {
        get { value(hash: { Element.tableHash(of: key, seed: $0) }, matching: { $0.hasTableKey(key) }) }
        set {
            if let newValue { updateValue(forKey: key) { $0 = newValue } } else { removeValue(forKey: key) }
        }
    }

    /// The subscript's read for a key that `TableKey` does not spell (see
    /// `updateValue(hash:matching:_:)`): the object `matches` accepts among
    /// those whose keys hash to `hash(seed)`, if something besides the table uses it.
    @inline(__always)
    func value(hash: (Int) -> Int, matching matches: (Element) -> Bool) -> Element? {
        guard let (bucket, found) = find(hash: hash(seed), matching: matches), found, let buckets else { return nil }
        guard !isKnownUniquelyReferenced(&buckets[bucket]!) else {
            remove(at: bucket)
            return nil
        }
        return buckets[bucket]
    }

    /// Runs `body` on the entry of `key` (nil when absent or unshared) and
    /// keeps what it leaves there, with one probe: a read and a write where
    /// the subscript's get and set cost two. `body` must not use the table.
    @inline(__always)
    func updateValue<Result>(forKey key: Element.TableKey, _ body: (inout Element?) -> Result) -> Result {
        updateValue(hash: { Element.tableHash(of: key, seed: $0) }, matching: { $0.hasTableKey(key) }, body)
    }

    /// `updateValue(forKey:_:)` for a key that `TableKey` does not spell (a
    /// registry's record key before its ID is made): `hash(seed)` must be
    /// what `tableHash(of:seed:)` gives that key, and `matches` must answer
    /// as `hasTableKey` would.
    @inline(__always)
    func updateValue<Result>(hash: (Int) -> Int, matching matches: (Element) -> Bool,
                             _ body: (inout Element?) -> Result) -> Result {
        var hashed = hash(seed)
        var probe = find(hash: hashed, matching: matches)
        if probe?.found != true, (storageCount + 1) * 2 > capacity {
            makeRoomForOneMore()
            hashed = hash(seed)
            probe = find(hash: hashed, matching: matches)
        }
        guard let (bucket, found) = probe, let buckets, let tags else {
            preconditionFailure("A table with room has buckets")
        }
        // Moved out of its bucket, not copied: no retain and release around `body`, and no release of
        // the nil the bucket would hold meanwhile (it stays uninitialized until `body` returns, which
        // must not use the table). An unshared object is dropped.
        var entry = (buckets + bucket).move()
        if entry != nil, isKnownUniquelyReferenced(&entry!) { entry = nil }
        let result = body(&entry)
        let storing = entry != nil
        // An internal invariant (callers store an object under the key it carries), checked in debug
        // builds, which the tests run: in release it asked the object for its key again at every store.
        assert(!storing || matches(entry!), "An object can only be stored under its own key")
        (buckets + bucket).initialize(to: consume entry)
        if storing, !found {
            tags[bucket] = Self.tag(of: hashed)
            storageCount += 1
        } else if !storing, found {
            storageCount -= 1
            tags[bucket] = 0
            closeGap(at: bucket)
        }
        return result
    }

    /// Removes the entry of `key` and returns its object.
    @discardableResult
    func removeValue(forKey key: Element.TableKey) -> Element? {
        guard let (bucket, found) = find(key), found, let buckets else { return nil }
        let object = buckets[bucket]
        remove(at: bucket)
        return object
    }

    // MARK: All objects

    /// Every shared object, in no particular order; sweeps first, O(capacity).
    var values: [Element] {
        sweep()
        guard let buckets else { return [] }
        return UnsafeBufferPointer(start: buckets, count: capacity).compactMap { $0 }
    }

    /// Calls `body` with every object something besides the table
    /// references, in one pass and without dropping the others: for an owner
    /// about to let go of the whole table. An object referenced only by
    /// other stored objects counts as shared here. O(capacity).
    func forEachShared(_ body: (Element) -> Void) {
        guard let buckets else { return }
        for bucket in 0..<capacity where buckets[bucket] != nil {
            if !isKnownUniquelyReferenced(&buckets[bucket]!) { body(buckets[bucket]!) }
        }
    }

    /// Keeps the shared objects `shouldBeRemoved` rejects.
    func removeAll(where shouldBeRemoved: (Element) -> Bool) {
        sweep()
        guard let buckets else { return }
        for bucket in 0..<capacity {
            guard let object = buckets[bucket], shouldBeRemoved(object) else { continue }
            buckets[bucket] = nil
            tags.unsafelyUnwrapped[bucket] = 0
            storageCount -= 1
        }
        // The capacity stays: the registry stores the removed objects again at once, under new IDs.
        rebuild(minimumCapacity: capacity / 2)
    }

    /// Makes room for `count` more objects without growing: drops the
    /// unshared objects first, as growing one at a time would (a batched walk
    /// reserves for each batch, and a table that only grew would keep every
    /// batch's objects).
    func reserveCapacity(forAdding count: Int) {
        guard (storageCount + count) * 2 > capacity else { return }
        let dropped = dropEveryUnshared()
        let growing = (storageCount + count) * 2 > capacity
        if dropped || growing { rebuild(minimumCapacity: growing ? storageCount + count : capacity / 2) }
    }

    func removeAll() {
        Self.free(buckets, capacity: capacity, count: storageCount)
        buckets = nil
        tags = nil
        capacity = 0
        storageCount = 0
    }

    /// Drops every unshared object. Dropping one can leave objects that only
    /// it referenced unshared (an owner and its destinations), so passes
    /// repeat until one drops nothing. O(capacity) a pass.
    func sweep() {
        if dropEveryUnshared() { rebuild(minimumCapacity: 0) }
    }

    /// Empties the buckets of unshared objects, pass after pass until one
    /// drops nothing, leaving gaps in the runs; true when it emptied any.
    private func dropEveryUnshared() -> Bool {
        var dropped = false
        // An emptied table needs no pass to find that nothing more drops.
        while storageCount > 0, dropUnshared() { dropped = true }
        return dropped
    }

    /// One pass of `dropEveryUnshared()`.
    private func dropUnshared() -> Bool {
        guard let buckets else { return false }
        var dropped = false
        for bucket in 0..<capacity where buckets[bucket] != nil {
            if isKnownUniquelyReferenced(&buckets[bucket]!) {
                buckets[bucket] = nil
                tags.unsafelyUnwrapped[bucket] = 0
                storageCount -= 1
                dropped = true
            }
        }
        return dropped
    }

    /// What breaks the invariants above; empty when they hold. O(capacity), for tests.
    var invariantViolations: [String] {
        guard let buckets, let tags else { return storageCount == 0 ? [] : ["no buckets, count \(storageCount)"] }
        var violations: [String] = []
        for bucket in 0..<capacity {
            let expected = buckets[bucket].map { Self.tag(of: $0.tableKeyHash(seed: seed)) } ?? 0
            if tags[bucket] != expected {
                violations.append("bucket \(bucket) tagged \(tags[bucket]), not \(expected)")
            }
        }
        let objects = UnsafeBufferPointer(start: buckets, count: capacity).compactMap { $0 }
        if objects.count != storageCount { violations.append("count \(storageCount), \(objects.count) objects") }
        if capacity < 8 || capacity.nonzeroBitCount != 1 || capacity < 2 * storageCount {
            violations.append("capacity \(capacity) for \(storageCount) objects")
        }
        for (index, object) in objects.enumerated()
        where objects[..<index].contains(where: { $0.hasTableKey(object.tableKey) }) {
            violations.append("two objects with one key")
        }
        for bucket in 0..<capacity {
            guard let object = buckets[bucket] else { continue }
            var probe = home(of: object)
            while probe != bucket, buckets[probe] != nil { probe = (probe + 1) & mask }
            if probe != bucket { violations.append("bucket \(bucket) is cut off from its home \(home(of: object))") }
        }
        return violations
    }

    // MARK: Storage

    /// Before a new entry that would pass a load of 1/2.
    private func makeRoomForOneMore() { reserveCapacity(forAdding: 1) }

    /// Moves the objects (gaps allowed) to new storage of at least twice
    /// `max(minimumCapacity, storageCount)` buckets, and at least 8: no retain
    /// or release an object.
    private func rebuild(minimumCapacity: Int) {
        let needed = Swift.max(minimumCapacity, storageCount) * 2
        let newCapacity = needed <= 8 ? 8 : 1 << (Int.bitWidth - (needed - 1).leadingZeroBitCount)
        let bucketBytes = newCapacity * MemoryLayout<Element?>.stride
        let storage = UnsafeMutableRawPointer.allocate(byteCount: bucketBytes + newCapacity,
                                                       alignment: MemoryLayout<Element?>.alignment)
        let new = storage.bindMemory(to: Element?.self, capacity: newCapacity)
        new.initialize(repeating: nil, count: newCapacity)
        let newTags = (storage + bucketBytes).bindMemory(to: UInt8.self, capacity: newCapacity)
        newTags.initialize(repeating: 0, count: newCapacity)
        // Another seed for each capacity: moving a table's objects in its order into a smaller one
        // with the same seed would pile them into long runs.
        let newSeed = Int(bitPattern: UInt(truncatingIfNeeded: newCapacity) &* 0x9E37_79B9_7F4A_7C15)
        if let old = buckets, let oldTags = tags {
            // No pass over the buckets of an empty table (a sweep that dropped everything).
            for index in 0..<(storageCount > 0 ? capacity : 0) where oldTags[index] != 0 {
                let object = (old + index).move()
                let hash = object.unsafelyUnwrapped.tableKeyHash(seed: newSeed)
                var bucket = hash & (newCapacity - 1)
                while newTags[bucket] != 0 { bucket = (bucket + 1) & (newCapacity - 1) }
                // Over the nil put there above: nothing to release (an assignment would call to release it).
                (new + bucket).initialize(to: consume object)
                newTags[bucket] = Self.tag(of: hash)
            }
            UnsafeMutableRawPointer(old).deallocate() // the objects moved out; the rest is nil
        }
        buckets = new
        tags = newTags
        capacity = newCapacity
        seed = newSeed
    }

    private func remove(at bucket: Int) {
        buckets![bucket] = nil
        tags![bucket] = 0
        storageCount -= 1
        closeGap(at: bucket)
    }

    /// After `gap` was emptied: moves back each later object of the run whose
    /// home is not between the gap and it (cyclically), so that every object
    /// stays reachable from its home without empty buckets on the way.
    private func closeGap(at gap: Int) {
        guard let buckets, let tags else { return }
        var gap = gap, bucket = (gap + 1) & mask
        while tags[bucket] != 0 {
            let home = home(of: buckets[bucket]!)
            // The object may move to the gap when its home is not in (gap, bucket].
            if (bucket - home) & mask >= (bucket - gap) & mask {
                // The gap holds nil: moved over without a release, and the bucket left holds nil in turn.
                (buckets + gap).initialize(to: (buckets + bucket).move())
                (buckets + bucket).initialize(to: nil)
                tags[gap] = tags[bucket]
                tags[bucket] = 0
                gap = bucket
            }
            bucket = (bucket + 1) & mask
        }
    }
}
