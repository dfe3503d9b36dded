import Foundation
import Testing
@testable import OpenCoreDataCore

/// `relationshipKeyPathsForPrefetching` (NSFetchRequest.h): the destinations
/// of each key path are loaded with the fetch, in one batch per step.
@Suite struct PrefetchingTests {
    /// Albums with photos saved by one context; a fresh context on the same
    /// coordinator, with nothing registered, to fetch from.
    static func freshContext(_ kind: TestStack.StoreKind, albums: Int = 3, photosPerAlbum: Int = 2) throws -> NSManagedObjectContext {
        let context = try TestStack.context(TestStack.albumsModel(), kind)
        try context.performAndWait { () throws in
            for a in 0..<albums {
                let album = TestStack.insert("Album", into: context, ["name": "album\(a)"])
                for p in 0..<photosPerAlbum {
                    TestStack.insert("Photo", into: context, ["name": "photo\(a)-\(p)", "index": p]).setValue(album, forKey: "album")
                }
            }
            try context.save()
            // Albums and photos hold each other; reset breaks the cycles, so
            // that no saved object keeps its record in the row cache.
            context.reset()
        }
        return TestStack.sibling(of: context)
    }

    static func store(of context: NSManagedObjectContext) -> SQLiteStore? {
        context.persistentStoreCoordinator?.persistentStores.first as? SQLiteStore
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func toOneDestinationsAreLoaded(kind: TestStack.StoreKind) throws {
        let context = try Self.freshContext(kind)
        try context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            #expect(try context.fetch(request).allSatisfy { ($0.primitiveValue(forKey: "album") as? NSManagedObject)?.isFault ?? true })
            context.reset()
            request.relationshipKeyPathsForPrefetching = ["album"]
            let photos = try context.fetch(request)
            #expect(photos.count == 6)
            let albums = photos.compactMap { $0.primitiveValue(forKey: "album") as? NSManagedObject }
            #expect(albums.count == 6)
            #expect(albums.allSatisfy { !$0.isFault })
        }
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func toManyDestinationsAreLoaded(kind: TestStack.StoreKind) throws {
        let context = try Self.freshContext(kind)
        try context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Album")
            request.relationshipKeyPathsForPrefetching = ["photos"]
            let albums = try context.fetch(request)
            #expect(albums.count == 3)
            let photos = context.registeredObjects.filter { $0.entity.name == "Photo" }
            #expect(photos.count == 6)
            #expect(photos.allSatisfy { !$0.isFault })
            #expect(albums.allSatisfy { ($0.value(forKey: "photos") as? NSSet)?.count == 2 })
        }
    }

    /// Photo → album → photos: the photos of each fetched photo's album are
    /// loaded, also those the fetch did not select.
    @Test(arguments: TestStack.StoreKind.allCases)
    func twoStepKeyPath(kind: TestStack.StoreKind) throws {
        let context = try Self.freshContext(kind)
        try context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            request.predicate = NSPredicate(format: "index == 0 AND name != %@", "photo2-0")
            request.relationshipKeyPathsForPrefetching = ["album.photos"]
            let photos = try context.fetch(request)
            #expect(photos.count == 2)
            let registered = context.registeredObjects
            #expect(registered.count == 6)
            #expect(registered.allSatisfy { !$0.isFault })
            let loaded = registered
            #expect(loaded.filter { $0.entity.name == "Album" }.count == 2)
            #expect(Set(loaded.filter { $0.entity.name == "Photo" }.map { $0.value(forKey: "name") as! String })
                    == ["photo0-0", "photo0-1", "photo1-0", "photo1-1"])
        }
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func unknownKeyPathsThrow(kind: TestStack.StoreKind) throws {
        let context = try Self.freshContext(kind)
        try context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            for path in ["albm", "album.nope", "name", "album.photos.name"] {
                request.relationshipKeyPathsForPrefetching = [path]
                #expect(throws: NSError.self) { try context.fetch(request) }
            }
            let ids = NSFetchRequest<NSManagedObjectID>(entityName: "Photo")
            ids.resultType = .managedObjectIDResultType
            ids.relationshipKeyPathsForPrefetching = ["album"]
            #expect(try context.fetch(ids).count == 6)
        }
    }

    /// SQLite: each key-path step costs one record read of the destination
    /// table, whatever the number of objects; without prefetching, touching
    /// the relationships costs one read per destination.
    @Test(arguments: [5, 40])
    func sqliteReadsOncePerStep(albums: Int) throws {
        let context = try Self.freshContext(.sqlite, albums: albums, photosPerAlbum: 3)
        let store = try #require(Self.store(of: context))
        try context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            var before = store.recordQueryCount
            var photos = try context.fetch(request)
            for photo in photos { _ = (photo.value(forKey: "album") as? NSManagedObject)?.value(forKey: "name") }
            #expect(store.recordQueryCount - before == albums)

            context.reset()
            request.relationshipKeyPathsForPrefetching = ["album"]
            before = store.recordQueryCount
            photos = try context.fetch(request)
            #expect(store.recordQueryCount - before == 1)
            for photo in photos { _ = (photo.value(forKey: "album") as? NSManagedObject)?.value(forKey: "name") }
            #expect(store.recordQueryCount - before == 1)

            context.reset()
            request.relationshipKeyPathsForPrefetching = ["album.photos"]
            request.predicate = NSPredicate(format: "index == 0")
            before = store.recordQueryCount
            photos = try context.fetch(request)
            #expect(photos.count == albums)
            #expect(store.recordQueryCount - before == 2)
            for photo in photos {
                let siblings = (photo.value(forKey: "album") as? NSManagedObject)?.value(forKey: "photos") as? NSSet
                for case let sibling as NSManagedObject in siblings?.allObjects ?? [] { _ = sibling.value(forKey: "name") }
            }
            #expect(store.recordQueryCount - before == 2)
        }
    }
}
