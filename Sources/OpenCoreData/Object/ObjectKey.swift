/// An object ID as a key of the library's own dictionaries: hashing uses the
/// hash the ID computed once, and equality compares the fields directly.
///
/// `NSManagedObjectID` is an `NSObject`, so as a dictionary key it compares
/// through `isEqual(_:)`, which must cast its `Any?` argument first; that
/// cast dominated registry and row-cache lookups. Two keys are equal exactly
/// when their IDs are (`isEqual(_:)`): same record key, entity name and store.
struct ObjectKey: Hashable {
    let id: NSManagedObjectID

    init(_ id: NSManagedObjectID) { self.id = id }

    static func == (lhs: ObjectKey, rhs: ObjectKey) -> Bool {
        lhs.id.namesSameRecord(as: rhs.id)
    }

    func hash(into hasher: inout Hasher) { hasher.combine(id.recordHash) }

    /// What `Dictionary` and `Set` hash the key with: the ID's record hash mixed with the table's
    /// seed (`KeyHashMixing.mix`) instead of Swift's SipHash over it, ~150 instructions a lookup.
    /// Not the grouped hash the registry and row cache place IDs by (`tableHash(seed:)`): Swift's
    /// tables probe linearly, and runs of consecutive keys placed side by side merge into long
    /// clusters there (a 10k-photo cascade's maps probed ~240 instructions a lookup).
    func _rawHashValue(seed: Int) -> Int { KeyHashMixing.mix(id.recordHash, seed: seed) }
}

/// An object as a dictionary key, hashed by mixing its address
/// (`KeyHashMixing`) rather than through SipHash as `ObjectIdentifier` is:
/// ~150 instructions less a lookup, for maps keyed by object on hot paths
/// (a save looks up each inserted object's permanent ID several times).
struct ObjectAddress: Hashable {
    let identifier: ObjectIdentifier

    init(_ object: AnyObject) { identifier = ObjectIdentifier(object) }

    func _rawHashValue(seed: Int) -> Int {
        KeyHashMixing.mix(Int(bitPattern: UInt(bitPattern: identifier)), seed: seed)
    }
}

/// A record's primary key as a dictionary key, hashed by mixing (`KeyHashMixing`) rather
/// than through `Int64`'s SipHash: ~100 instructions less a lookup, for the maps a record
/// read looks up each row it reads in.
struct PrimaryKey: Hashable {
    let value: Int64

    init(_ value: Int64) { self.value = value }

    func _rawHashValue(seed: Int) -> Int { KeyHashMixing.mix(Int(truncatingIfNeeded: value), seed: seed) }
}

/// A 64-bit finalizer (MurmurHash3's `fmix64`) for keys that carry a hash of their own.
///
/// Every input bit reaches every output bit, so consecutive primary keys fill a power-of-two
/// table evenly, and the table's seed, mixed in first, gives each table its own order as
/// Swift's hashing does. Not a defence against chosen collisions, which keys read from a
/// store the application opened don't call for.
enum KeyHashMixing {
    @inline(__always)
    static func mix(_ hash: Int, seed: Int) -> Int {
        var x = UInt64(bitPattern: Int64(hash ^ seed))
        x ^= x >> 33
        x &*= 0xFF51_AFD7_ED55_8CCD
        x ^= x >> 33
        x &*= 0xC4CE_B9FE_1A85_EC53
        x ^= x >> 33
        return Int(Int64(bitPattern: x))
    }

    /// The hash of a key whose `serial` (a primary key, a temporary number)
    /// is mostly one of a run of consecutive ones, `salt` the rest of the
    /// key's hash: eight consecutive serials land in eight consecutive
    /// buckets (one cache line of a table of object references), at an
    /// offset within them that depends on the group, and the groups spread
    /// as `mix` spreads keys. A fetch's or an insert's keys come in runs,
    /// so its table lookups share lines instead of each missing the cache
    /// at 100k objects; keys a stride apart (every 100th) still spread over
    /// all eight offsets.
    @inline(__always)
    static func grouped(_ serial: Int, salt: Int, seed: Int) -> Int {
        let group = mix((serial >> 3) ^ salt, seed: seed)
        let offset = (serial &+ Int(truncatingIfNeeded: UInt(bitPattern: group) >> 61)) & 7
        return group &<< 3 | offset
    }
}

extension Dictionary where Key == ObjectKey {
    /// The value for the ID `id`.
    subscript(_ id: NSManagedObjectID) -> Value? {
        get { self[ObjectKey(id)] }
        set { self[ObjectKey(id)] = newValue }
    }
}


/// A key of a context's registry: an object's ID as an `ObjectKey`, or, for
/// an inserted object whose temporary ID was not asked for yet, the number
/// that ID will have (`NSManagedObject.registryKey`). Inserting an object
/// thus registers it without making its `NSManagedObjectID` (an allocation,
/// its fields' hashes and a later release, ~750 instructions), which a save
/// of new objects would only replace by a permanent ID. A fault a fetch made
/// without its ID is found by its record instead
/// (`NSManagedObjectContext.object(_:primaryKey:)`), hashed as its ID would be.
///
/// Two keys are equal exactly when the IDs they stand for are: a temporary
/// ID's number is unique in the process.
enum RegistryKey: Hashable {
    case temporary(Int)
    case permanent(ObjectKey)

    init(_ id: NSManagedObjectID) {
        if case .temporary(let number) = id.key { self = .temporary(number) } else { self = .permanent(ObjectKey(id)) }
    }

    /// Where the registry places the object: the number or the ID grouped with the table's seed
    /// (`KeyHashMixing.grouped`, as `NSManagedObjectID.tableHash(seed:)`).
    func _rawHashValue(seed: Int) -> Int {
        switch self {
        case .temporary(let number): KeyHashMixing.grouped(number, salt: 0, seed: seed)
        case .permanent(let key): key.id.tableHash(seed: seed)
        }
    }
}
