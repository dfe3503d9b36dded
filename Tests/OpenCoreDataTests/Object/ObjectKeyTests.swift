import Foundation
import Testing
@testable import OpenCoreDataCore

/// The keys of the registry, the row cache and the store maps hash with
/// `KeyHashMixing` instead of Swift's SipHash: the registry and the row cache
/// place IDs by their grouped table hash (`tableHash(seed:)`), dictionaries
/// and sets of `ObjectKey` by `_rawHashValue(seed:)`. What that must keep:
/// equal keys hash alike under every seed, both hashes spread the keys
/// stores hand out (consecutive ones, or with a stride) over a power-of-two
/// table as a random function would (the table hash in groups of eight
/// buckets, the dictionary hash key by key), and dictionaries keyed by them
/// still find every key.
@Suite struct ObjectKeyTests {
    private static func store() throws -> (NSPersistentStore, NSEntityDescription, NSEntityDescription) {
        let context = try TestStack.context(TestStack.albumsModel(), .sqlite)
        let coordinator = try #require(context.persistentStoreCoordinator)
        let store = try #require(coordinator.persistentStores.first)
        let model = coordinator.managedObjectModel
        return (store, try #require(model.entitiesByName["Album"]), try #require(model.entitiesByName["Photo"]))
    }

    @Test func equalIDsHashAlikeUnderEverySeed() throws {
        let (store, album, photo) = try Self.store()
        var random = SeededGenerator(seed: 7)
        for _ in 0..<1_000 {
            let pk = Int64.random(in: 1...Int64.max, using: &random)
            let seed = Int.random(in: .min ... .max, using: &random)
            let a = ObjectKey(store.objectID(for: album, primaryKey: pk))
            let b = ObjectKey(store.objectID(for: album, primaryKey: pk))
            #expect(a == b && a._rawHashValue(seed: seed) == b._rawHashValue(seed: seed))
            #expect(a.id.tableHash(seed: seed) == b.id.tableHash(seed: seed))
            let (registryA, registryB) = (RegistryKey.permanent(a), RegistryKey.permanent(b))
            #expect(registryA._rawHashValue(seed: seed) == registryB._rawHashValue(seed: seed))
            // Same key of another entity: a different record, and (almost always) another hash.
            let other = ObjectKey(store.objectID(for: photo, primaryKey: pk))
            #expect(a != other)
        }
        let temporary = NSManagedObjectID.temporary(for: album, number: 42)
        #expect(RegistryKey(temporary) == .temporary(42))
        #expect(RegistryKey(temporary)._rawHashValue(seed: 3) == RegistryKey.temporary(42)._rawHashValue(seed: 3))
    }

    /// 2^16 keys into 2^16 buckets by the low bits, as `Dictionary` places them: a random
    /// function leaves e^-1 ≈ 36.8% of the buckets empty and no bucket with more than a handful.
    /// The entity name's hash is seeded per process, so each run draws other hashes: the bound
    /// on the fullest bucket is 14, which a random function passes in 12 tables with probability
    /// 1 - 12 · 2^16 · e^-1 / 15! ≈ 1 - 2·10^-7 (10 failed about once in 150 runs); clustered
    /// hashing fills buckets with hundreds.
    @Test(arguments: [1, 1_024, 65_537], [false, true])
    func keysSpreadOverAPowerOfTwoTable(stride: Int64, grouped: Bool) throws {
        let (store, album, _) = try Self.store()
        let buckets = 1 << 16
        for seed in [0, 1, -7, 0x5DEE_CE66] {
            var counts = [Int](repeating: 0, count: buckets)
            for i in 0..<Int64(buckets) {
                let key = ObjectKey(store.objectID(for: album, primaryKey: 1 + i * stride))
                counts[(grouped ? key.id.tableHash(seed: seed) : key._rawHashValue(seed: seed)) & (buckets - 1)] += 1
            }
            let empty = Double(counts.filter { $0 == 0 }.count) / Double(buckets)
            // The table hash places consecutive keys as groups of eight (`consecutiveKeysShareAGroupOfBuckets`):
            // 8,192 groups spread at random, not 65,536 keys, so the empty share varies √8 times more (σ ≈ 0.005).
            let tolerance = grouped && stride == 1 ? 0.025 : 0.01
            let what = "stride \(stride), \(grouped ? "table" : "dictionary") hash, seed \(seed)"
            #expect(abs(empty - exp(-1)) < tolerance, "\(what): \(empty) empty")
            #expect(counts.max()! <= 14, "\(what): a bucket holds \(counts.max()!)")
        }
    }

    /// Dictionaries of `ObjectKey` do not group consecutive keys: Swift's
    /// tables probe linearly, and runs placed side by side merge into
    /// clusters that every later lookup walks. Eight random hashes share a
    /// group of eight buckets of a 2^16-bucket table with probability 2^-91.
    @Test func dictionaryHashesPlaceConsecutiveKeysApart() throws {
        let (store, album, _) = try Self.store()
        for seed in [0, 1, -7, 0x5DEE_CE66] {
            var sharedGroups = 0
            for group in Int64(0)..<500 {
                let hashes = (0..<Int64(8)).map {
                    ObjectKey(store.objectID(for: album, primaryKey: group * 8 + $0))._rawHashValue(seed: seed)
                }
                if Set(hashes.map { ($0 & 0xFFFF) >> 3 }).count == 1 { sharedGroups += 1 }
            }
            #expect(sharedGroups == 0, "seed \(seed)")
        }
    }

    /// Eight consecutive primary keys of an entity (or temporary numbers) share
    /// one group of eight buckets, one cache line of a table of references,
    /// each at an offset of its own: a fetch's or an insert's run of keys is
    /// looked up a line at a time instead of a cache miss a key. The groups
    /// still spread (`keysSpreadOverAPowerOfTwoTable`).
    @Test func consecutiveKeysShareAGroupOfBuckets() throws {
        let (store, album, photo) = try Self.store()
        for seed in [0, 1, -7, 0x5DEE_CE66] {
            var groups = Set<Int>()
            for group in Int64(0)..<500 {
                for entity in [album, photo] {
                    let hashes = (0..<Int64(8)).map {
                        store.objectID(for: entity, primaryKey: group * 8 + $0).tableHash(seed: seed)
                    }
                    #expect(Set(hashes.map { $0 >> 3 }).count == 1, "group \(group), seed \(seed)")
                    #expect(Set(hashes.map { $0 & 7 }) == Set(0..<8), "group \(group), seed \(seed)")
                    groups.insert(hashes[0] >> 3)
                }
                let temporary = (0..<8).map { RegistryKey.temporary(Int(group) * 8 + $0)._rawHashValue(seed: seed) }
                #expect(Set(temporary.map { $0 >> 3 }).count == 1 && Set(temporary.map { $0 & 7 }) == Set(0..<8))
            }
            #expect(groups.count == 1_000, "seed \(seed): groups of two entities or two runs met")
        }
    }

    /// Another seed gives another order: a table copied into a smaller one does not
    /// meet its keys in the clustered order Swift's per-table seeds exist to avoid.
    @Test func seedsChangeTheHash() {
        var differing = 0
        for hash in 0..<1_000 where KeyHashMixing.mix(hash, seed: 1) != KeyHashMixing.mix(hash, seed: 2) {
            differing += 1
        }
        #expect(differing == 1_000)
    }

    /// 50,000 random inserts and removals over two entities' keys agree with a model of them.
    @Test func dictionariesFindEveryKey() throws {
        let (store, album, photo) = try Self.store()
        var random = SeededGenerator(seed: 11)
        var table: [ObjectKey: Int] = [:], model: [String: Int] = [:]
        for i in 0..<50_000 {
            let pk = Int64.random(in: 1...20_000, using: &random)
            let entity = Bool.random(using: &random) ? album : photo
            let key = ObjectKey(store.objectID(for: entity, primaryKey: pk)), name = "\(entity.name!)\(pk)"
            if Int.random(in: 0..<3, using: &random) == 0 {
                table[key] = nil
                model[name] = nil
            } else {
                table[key] = i
                model[name] = i
            }
        }
        #expect(table.count == model.count)
        for (key, value) in table { #expect(model["\(key.id.entity.name!)\(key.id.primaryKey!)"] == value) }
    }

    /// Objects as keys by address: random inserts and removals among 2,000
    /// objects agree with a dictionary keyed by `ObjectIdentifier`.
    @Test func objectAddressesFindEveryObject() {
        final class Thing {}
        let things = (0..<2_000).map { _ in Thing() }
        var random = SeededGenerator(seed: 5)
        var table: [ObjectAddress: Int] = [:], model: [ObjectIdentifier: Int] = [:]
        for i in 0..<20_000 {
            let thing = things.randomElement(using: &random)!
            let value: Int? = Int.random(in: 0..<3, using: &random) == 0 ? nil : i
            table[ObjectAddress(thing)] = value
            model[ObjectIdentifier(thing)] = value
        }
        #expect(table.count == model.count)
        for thing in things { #expect(table[ObjectAddress(thing)] == model[ObjectIdentifier(thing)]) }
        #expect(ObjectAddress(things[0]) == ObjectAddress(things[0]))
        #expect(ObjectAddress(things[0]) != ObjectAddress(things[1]))
    }
}
