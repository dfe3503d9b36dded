import Foundation
import Testing
@testable import OpenCoreDataCore

/// `ObjectRegistry` against a model of what it must hold: every object the
/// test still references, under its own key, and nothing the test let go
/// (it reads as absent once met, and a sweep removes it), through random
/// registrations, replacements, removals, releases, sweeps and rebuilds.
/// After every step the table's invariants hold: capacity a power of two
/// at least twice the count, one object per key, each object reachable from
/// its home bucket without an empty bucket on the way.
@Suite struct ObjectRegistryTests {
    private struct Setup {
        let store: NSPersistentStore, album: NSEntityDescription, photo: NSEntityDescription

        init() throws {
            let context = try TestStack.context(TestStack.albumsModel(), .sqlite)
            let coordinator = try #require(context.persistentStoreCoordinator)
            store = try #require(coordinator.persistentStores.first)
            album = try #require(coordinator.managedObjectModel.entitiesByName["Album"])
            photo = try #require(coordinator.managedObjectModel.entitiesByName["Photo"])
        }

        /// An object of no context with the permanent ID of `entity` and `pk`.
        func object(_ entity: NSEntityDescription, _ pk: Int64) -> NSManagedObject {
            let object = NSManagedObject(entity: entity, insertInto: nil)
            object.objectID = store.objectID(for: entity, primaryKey: pk)
            return object
        }
    }

    private static func expectValid(_ registry: ObjectRegistry, _ step: Int) {
        let violations = registry.invariantViolations
        #expect(violations.isEmpty, "step \(step): \(violations.prefix(3))")
    }

    /// Keys from 1…`keys` for two entities, plus temporary objects: a small
    /// range packs long runs that wrap around the table's end.
    @Test(arguments: [(keys: 40, seed: 3), (keys: 600, seed: 5), (keys: 20_000, seed: 7)])
    func randomOperationsAgreeWithAModel(keys: Int, seed: UInt64) throws {
        let setup = try Setup()
        var random = SeededGenerator(seed: seed)
        let registry = ObjectRegistry()
        // What the test holds, by key; the registry must hold exactly these.
        var held: [RegistryKey: NSManagedObject] = [:]
        var released: [RegistryKey] = []
        func randomKey() -> RegistryKey {
            if let known = held.keys.randomElement(using: &random), Int.random(in: 0..<3, using: &random) > 0 {
                return known
            }
            let entity = Bool.random(using: &random) ? setup.album : setup.photo
            return RegistryKey(setup.store.objectID(for: entity, primaryKey: Int64.random(in: 1...Int64(keys),
                                                                                           using: &random)))
        }
        for step in 0..<12_000 {
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<30: // register a new object, replacing any other of its key
                let key = randomKey()
                guard case .permanent(let objectKey) = key else { continue }
                let object = setup.object(objectKey.id.entity, objectKey.id.primaryKey!)
                registry[key] = object
                held[key] = object
            case 30..<36: // an inserted object: registered under its temporary number
                let object = NSManagedObject(entity: setup.album, insertInto: nil)
                registry[object.registryKey] = object
                held[object.registryKey] = object
            case 36..<50: // look up: what the test holds, nothing else
                let key = randomKey()
                #expect(registry[key] === held[key], "step \(step)")
            case 50..<62: // let go of an object: it stays in the table, unshared, until met or swept
                guard let key = held.keys.randomElement(using: &random) else { continue }
                held[key] = nil
                released.append(key)
            case 62..<70: // remove
                let key = randomKey()
                let removed = registry.removeValue(forKey: key)
                if let object = held.removeValue(forKey: key) { #expect(removed === object, "step \(step)") }
            case 70..<76: // forget: the entry goes only when it is this object
                guard let (key, object) = held.randomElement(using: &random) else { continue }
                registry.updateValue(forKey: key) { if $0 === object { $0 = nil } }
                held[key] = nil
            case 76..<90: // find or make, as `object(with:)` does
                let key = randomKey()
                guard case .permanent(let objectKey) = key else { continue }
                let (object, made) = registry.updateValue(forKey: key) { entry in
                    if let entry { return (entry, false) }
                    let made = setup.object(objectKey.id.entity, objectKey.id.primaryKey!)
                    entry = made
                    return (made, true)
                }
                #expect(made == (held[key] == nil) && (held[key] ?? object) === object, "step \(step)")
                held[key] = object
            case 90..<93:
                registry.sweep()
                #expect(registry.storageCount == held.count, "step \(step)")
            case 93..<95:
                registry.reserveCapacity(forAdding: Int.random(in: 0...2_000, using: &random))
            case 95..<97: // keep the objects of odd keys and temporary ones
                registry.removeAll { object in
                    if case .permanent(let objectKey) = object.registryKey { return objectKey.id.primaryKey! % 2 == 0 }
                    return false
                }
                held = held.filter { key, _ in
                    if case .permanent(let objectKey) = key { return objectKey.id.primaryKey! % 2 != 0 }
                    return true
                }
            default:
                var shared = 0
                registry.forEachShared { _ in shared += 1 }
                #expect(shared == held.count, "step \(step)")
            }
            if step % 97 == 0 || keys < 100 { Self.expectValid(registry, step) }
        }
        Self.expectValid(registry, -1)
        for key in released where held[key] == nil { #expect(registry[key] == nil) }
        #expect(Set(registry.values.map(ObjectIdentifier.init)) == Set(held.values.map(ObjectIdentifier.init)))
        #expect(registry.storageCount == held.count)
        for (key, object) in held { #expect(registry[key] === object) }
        registry.removeAll()
        #expect(registry.storageCount == 0 && registry[held.keys.first ?? .temporary(0)] == nil)
    }

    /// Unshared objects go before the table grows, so the table stays within
    /// twice the objects still used: growing to `2c` buckets needs more than
    /// `c/2 - 1` shared objects, and a table of `2c` holds at most `c`.
    @Test func unsharedObjectsGoAndTheTableStaysBounded() throws {
        let setup = try Setup()
        let registry = ObjectRegistry()
        var kept: [NSManagedObject] = []
        for pk in 1...50_000 {
            let object = setup.object(setup.photo, Int64(pk))
            registry[RegistryKey(object.objectID)] = object
            if pk % 100 == 0 { kept.append(object) }
            #expect(registry.storageCount <= Swift.max(4, 2 * (kept.count + 1)), "\(pk)")
        }
        registry.sweep()
        #expect(registry.storageCount == kept.count)
        Self.expectValid(registry, 0)
        for object in kept { #expect(registry[RegistryKey(object.objectID)] === object) }
    }

    /// One word a bucket: the object reference alone.
    @Test func aBucketIsOneWord() {
        #expect(MemoryLayout<NSManagedObject?>.stride == MemoryLayout<Int>.stride)
    }
}
