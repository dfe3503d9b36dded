import Foundation
import Testing
@testable import OpenCoreDataCore

/// IDs of one entity's records in one store share their entity, store and
/// names (`ObjectIDFamily`) instead of each holding them, with Apple's
/// behaviour kept: an ID's store is weak (`NSManagedObjectID.persistentStore`
/// is `weak` in Apple's header), its URI names the store it was made by even
/// after that store is gone, and IDs made before and after a store's
/// identifier changes name different stores.
@Suite struct ObjectIDFamilyTests {
    @Test(arguments: TestStack.StoreKind.allCases)
    func idsOfOneEntityAndStoreShareTheirFamily(_ kind: TestStack.StoreKind) throws {
        let context = try TestStack.savedAlbum(photos: ["p1", "p2", "p3"], kind)
        let photos = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Photo"))
        let albums = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album"))
        #expect(photos.count >= 2 && albums.count >= 1)
        let family = photos[0].objectID.family
        #expect(photos.allSatisfy { $0.objectID.family === family })
        #expect(albums[0].objectID.family !== family && albums[0].objectID.entity.name == "Album")
        let inserted = TestStack.insert("Photo", into: context)
        #expect(inserted.objectID.family !== family && inserted.objectID.persistentStore == nil)
        try context.save()
        #expect(inserted.objectID.family === family && inserted.objectID.persistentStore != nil)
    }

    @Test func idsMadeAfterTheIdentifierChangesNameTheNewOne() throws {
        let context = try TestStack.context(TestStack.albumsModel(), .sqlite)
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first)
        let entity = try #require(context.persistentStoreCoordinator?.managedObjectModel.entitiesByName["Album"])
        let before = store.objectID(for: entity, primaryKey: 1)
        let old = try #require(store.identifier)
        store.identifier = "RENAMED"
        let after = store.objectID(for: entity, primaryKey: 1)
        #expect(before.uriRepresentation().absoluteString == "x-coredata://\(old)/Album/p1")
        #expect(after.uriRepresentation().absoluteString == "x-coredata://RENAMED/Album/p1")
        #expect(before != after && before.family !== after.family)
        #expect(store.objectID(for: entity, primaryKey: 2).family === after.family)
    }

    @Test func anIDOutlivesItsStoreWithoutKeepingIt() throws {
        weak var weakStore: NSPersistentStore?
        let (id, identifier): (NSManagedObjectID, String) = try {
            let context = try TestStack.context(TestStack.albumsModel(), .sqlite)
            let album = TestStack.insert("Album", into: context, ["name": "A"])
            try context.save()
            let coordinator = try #require(context.persistentStoreCoordinator)
            let store = try #require(coordinator.persistentStores.first)
            weakStore = store
            #expect(album.objectID.persistentStore === store)
            try coordinator.remove(store)
            return (album.objectID, try #require(store.identifier))
        }()
        #expect(weakStore == nil && id.persistentStore == nil)
        #expect(id.uriRepresentation().absoluteString == "x-coredata://\(identifier)/Album/p1")
        #expect(id.entity.name == "Album")
    }

    /// `isEqual(_:)` takes `Any?`: an ID given as itself, as `AnyObject`, in
    /// an `AnyHashable` or as an `NSObject` compares by record; anything
    /// else, nil included, is unequal. Sets and dictionaries reach it on
    /// every hash collision.
    @Test func isEqualComparesIDsHoweverTheyAreGiven() throws {
        let context = try TestStack.context(TestStack.albumsModel(), .sqlite)
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first)
        let entity = try #require(context.persistentStoreCoordinator?.managedObjectModel.entitiesByName["Album"])
        let id = store.objectID(for: entity, primaryKey: 7), same = store.objectID(for: entity, primaryKey: 7)
        let other = store.objectID(for: entity, primaryKey: 8)
        #expect(id !== same)
        #expect(id.isEqual(same) && id.isEqual(same as AnyObject) && id.isEqual(AnyHashable(same)))
        #expect(id.isEqual(same as NSObject) && id.isEqual(Optional(same) as Any))
        #expect(!id.isEqual(other) && !id.isEqual(nil) && !id.isEqual("p7") && !id.isEqual(7))
        #expect(!id.isEqual(NSObject()) && !id.isEqual(AnyHashable(other)))
        let ids = Set(sparse: (1...200).map { store.objectID(for: entity, primaryKey: Int64($0)) })
        #expect(ids.count == 200 && ids.contains(same) && (1...200).allSatisfy {
            ids.contains(store.objectID(for: entity, primaryKey: Int64($0)))
        })
    }
}

