/// The to-one destinations' IDs one record read made, by destination entity
/// and key: the records it reads share one ID per destination (a fetch's
/// photos, one per album) instead of holding one each.
///
/// The one ID made until a second destination comes, then a direct-mapped
/// cache by key, and behind it, from the cache's first eviction on, a
/// dictionary of every ID made. Each waits for its need: a fault fired
/// alone reads one record with at most one destination per to-one, and a
/// dictionary made and filled for it cost ~1,000 instructions; a batch of
/// 100 photos read for a batched walk names 100 albums of consecutive keys,
/// which the cache holds without a collision, and filling a dictionary with
/// them cost ~400 instructions a photo. A hit in the cache costs ~30
/// instructions, a lookup in the dictionary ~170.
///
/// Asked for each to-one of each record read, by one reader on one thread.
final class SQLiteDestinationIDs {
    private struct Key: Hashable {
        let entity: ObjectIdentifier
        let primaryKey: Int64

        /// As `ObjectKey`'s: the fields mixed with the table's seed instead of SipHash
        /// (the entity by its address: `ObjectIdentifier.hashValue` runs SipHash).
        func _rawHashValue(seed: Int) -> Int {
            let address = Int(bitPattern: UInt(bitPattern: entity))
            return KeyHashMixing.mix(Int(truncatingIfNeeded: primaryKey) &* 31 ^ address, seed: seed)
        }

        /// The key's entry in a cache of `mask + 1` entries: keys are mostly
        /// consecutive, so their low bits spread them.
        func cacheIndex(mask: Int) -> Int { Int(truncatingIfNeeded: primaryKey) & mask }
    }

    private struct Entry {
        let key: Key
        let id: NSManagedObjectID
    }

    private static let cacheMask = 255

    // Release builds skip the exclusivity checks of these (~76 instructions each access).
    #if DEBUG
    private var last: Entry?
    private var cache: [Entry?] = []
    /// Empty until the cache first evicts an entry; from then on every ID made.
    private var evicted: [Key: NSManagedObjectID] = [:]
    /// The family of the entity asked for last: the store's lookup takes a lock (~380 instructions).
    private var lastFamily: ObjectIDFamily?
    #else
    @exclusivity(unchecked) private var last: Entry?
    @exclusivity(unchecked) private var cache: [Entry?] = []
    @exclusivity(unchecked) private var evicted: [Key: NSManagedObjectID] = [:]
    @exclusivity(unchecked) private var lastFamily: ObjectIDFamily?
    #endif

    /// The ID of the record of `primaryKey` in `entity` of `store`: the one
    /// this reader made for it, or a new one. (The store is passed, not kept:
    /// a reader per fault fired retained and released it, ~40 instructions.)
    func id(of entity: NSEntityDescription, primaryKey: Int64, in store: SQLiteStore) -> NSManagedObjectID {
        let key = Key(entity: ObjectIdentifier(entity), primaryKey: primaryKey)
        let index = key.cacheIndex(mask: Self.cacheMask)
        if cache.isEmpty {
            if let last, last.key == key { return last.id }
        } else if let cached = cache[index], cached.key == key {
            return cached.id
        }
        // Not in the cache: made before only if the cache evicted it, and then in the dictionary, which holds
        // the entry it replaces too.
        if !evicted.isEmpty, let known = evicted[key] {
            cache[index] = Entry(key: key, id: known)
            return known
        }
        let id = madeID(of: entity, primaryKey: primaryKey, in: store)
        let entry = Entry(key: key, id: id)
        guard !cache.isEmpty || last != nil else {
            last = entry
            return id
        }
        if cache.isEmpty, let last {
            cache = Array(repeating: nil, count: Self.cacheMask + 1)
            cache[last.key.cacheIndex(mask: Self.cacheMask)] = last
        }
        if !evicted.isEmpty {
            evicted[key] = id
        } else if cache[index] != nil {
            // The first eviction: the dictionary takes every ID made so far, so that none is made twice.
            evicted.reserveCapacity(2 * (Self.cacheMask + 1))
            for case let entry? in cache { evicted[entry.key] = entry.id }
            evicted[key] = id
        }
        cache[index] = entry
        return id
    }

    private func madeID(of entity: NSEntityDescription, primaryKey: Int64, in store: SQLiteStore) -> NSManagedObjectID {
        if let lastFamily, lastFamily.entity === entity {
            return NSManagedObjectID(family: lastFamily, key: .permanent(primaryKey))
        }
        let family = store.idFamily(for: entity)
        // Kept from the second destination on: a reader of one record (a fault fired alone) met one.
        if last != nil { lastFamily = family }
        return NSManagedObjectID(family: family, key: .permanent(primaryKey))
    }
}
