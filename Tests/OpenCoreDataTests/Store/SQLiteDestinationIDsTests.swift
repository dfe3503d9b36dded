import Foundation
import Testing
@testable import OpenCoreDataCore

/// `SQLiteDestinationIDs`: one record read makes one ID per destination,
/// whatever the order it meets them in and however its cache evicts them,
/// and each is the store's ID of that record.
@Suite struct SQLiteDestinationIDsTests {
    private static func store() throws -> (SQLiteStore, album: NSEntityDescription, photo: NSEntityDescription) {
        let context = try TestStack.context(TestStack.albumsModel(), .sqlite)
        let coordinator = try #require(context.persistentStoreCoordinator)
        let store = try #require(coordinator.persistentStores.first as? SQLiteStore)
        let entities = coordinator.managedObjectModel.entitiesByName
        return (store, try #require(entities["Album"]), try #require(entities["Photo"]))
    }

    /// Keys 256 apart share an entry of the 256-entry cache: the second
    /// destination evicts the first at once, and both keep their IDs.
    @Test func theFirstEvictionKeepsTheIDsMadeBefore() throws {
        let (store, album, _) = try Self.store()
        let ids = SQLiteDestinationIDs()
        let first = ids.id(of: album, primaryKey: 1, in: store)
        #expect(ids.id(of: album, primaryKey: 1, in: store) === first)
        let second = ids.id(of: album, primaryKey: 257, in: store)
        #expect(second !== first && second == store.objectID(for: album, primaryKey: 257))
        #expect(ids.id(of: album, primaryKey: 1, in: store) === first)
        #expect(ids.id(of: album, primaryKey: 257, in: store) === second)
        let third = ids.id(of: album, primaryKey: 2, in: store)
        #expect(ids.id(of: album, primaryKey: 513, in: store) !== first)
        #expect(ids.id(of: album, primaryKey: 2, in: store) === third)
        #expect(ids.id(of: album, primaryKey: 1, in: store) === first)
    }

    /// 200 consecutive keys (a batch's albums: no eviction), then the first
    /// 50 again of another entity, which names other records and takes
    /// their cache entries: every ID stays the one made first.
    @Test func consecutiveKeysAndTwoEntities() throws {
        let (store, album, photo) = try Self.store()
        let ids = SQLiteDestinationIDs()
        let albums = (1...200).map { ids.id(of: album, primaryKey: Int64($0), in: store) }
        let photos = (1...50).map { ids.id(of: photo, primaryKey: Int64($0), in: store) }
        for (offset, id) in albums.enumerated() {
            #expect(ids.id(of: album, primaryKey: Int64(offset + 1), in: store) === id)
            #expect(id.entity === album && id.primaryKey == Int64(offset + 1))
        }
        for (offset, id) in photos.enumerated() {
            #expect(ids.id(of: photo, primaryKey: Int64(offset + 1), in: store) === id)
            #expect(id != albums[offset] && id == store.objectID(for: photo, primaryKey: Int64(offset + 1)))
        }
    }

    /// A long pseudo-random walk over 700 keys of two entities: every
    /// record asked again gets the ID it got first.
    @Test func aRandomWalkGetsOneIDARecord() throws {
        let (store, album, photo) = try Self.store()
        let ids = SQLiteDestinationIDs()
        var generator = SeededGenerator(seed: 0x5EED)
        var made: [String: NSManagedObjectID] = [:]
        for _ in 0..<5_000 {
            let entity = Bool.random(using: &generator) ? album : photo
            let key = Int64.random(in: 1...700, using: &generator)
            let id = ids.id(of: entity, primaryKey: key, in: store)
            let name = "\(entity.name ?? "")-\(key)"
            if let first = made[name] {
                #expect(id === first, "\(name) got a second ID")
            } else {
                #expect(id == store.objectID(for: entity, primaryKey: key))
                made[name] = id
            }
        }
        #expect(made.count > 256, "the walk met more records than the cache holds")
    }
}
