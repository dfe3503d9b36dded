import Foundation
import Testing
@testable import OpenCoreDataCore

/// Objects do not outlive what the application keeps: a context holds
/// unchanged objects weakly ("a context holds changed objects strongly until
/// save/reset/rollback; otherwise references are weak", Core Data
/// Programming Guide, "Object Lifetime Management", coredata-behaviour.md
/// §3.2), owners do not reference their to-many destinations until the
/// relationship is used (a to-many fault, §3.5), and a context that goes
/// away turns its remaining objects into faults, which breaks the cycles
/// that inverse relationships form. Each test fails on a leak: it keeps only
/// weak references and expects them to be gone.
@Suite struct ObjectLifetimeTests {
    private final class Weak: @unchecked Sendable {
        weak var object: AnyObject?
        init(_ object: AnyObject?) { self.object = object }
    }

    /// A file store with 3 albums of 10 photos each, saved and let go.
    private static func storeWithGraph() throws -> NSPersistentStoreCoordinator {
        try #require(TestStack.albumsWithPhotos().persistentStoreCoordinator)
    }

    private static func context(_ coordinator: NSPersistentStoreCoordinator) -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// Photos fetched and read with their albums' names, then one album's
    /// photos read too (a photo ⇄ album cycle the application made): all of
    /// it, and the context, is freed when the application lets go.
    @Test func aFetchedGraphIsFreedWithItsContext() throws {
        let coordinator = try Self.storeWithGraph()
        let (photo, album, context) = try { () throws -> (Weak, Weak, Weak) in
            let context = Self.context(coordinator)
            return try context.performAndWait { () throws in
                let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
                request.returnsObjectsAsFaults = false
                let photos = try context.fetch(request)
                #expect(photos.count == 30)
                let albums = photos.compactMap { $0.value(forKey: "album") as? NSManagedObject }
                #expect(Set(albums.compactMap { $0.value(forKey: "name") as? String }) == ["a0", "a1", "a2"])
                #expect((albums[0].value(forKey: "photos") as? NSSet)?.count == 10)
                return (Weak(photos[0]), Weak(albums[0]), Weak(context))
            }
        }()
        #expect(context.object == nil)
        #expect(photo.object == nil)
        #expect(album.object == nil)
    }

    /// A fetch alone creates no owner → destination reference: once the
    /// photos are let go, their albums go too, while the context lives.
    @Test func loadingAnOwnerMakesNoDestinationObjects() throws {
        let coordinator = try Self.storeWithGraph()
        let context = Self.context(coordinator)
        try context.performAndWait { () throws in
            let albums = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album"))
            _ = albums.map { $0.value(forKey: "name") }
            #expect(albums.allSatisfy { $0.hasFault(forRelationshipNamed: "photos") })
            #expect(context.registeredObjects.count == 3)
            #expect((albums[0].value(forKey: "photos") as? NSSet)?.count == 10)
            #expect(!albums[0].hasFault(forRelationshipNamed: "photos"))
            #expect(albums[1].hasFault(forRelationshipNamed: "photos"))
            #expect(context.registeredObjects.count == 13)
        }
    }

    /// Objects inserted with their inverses (album.photos ⇄ photo.album) and
    /// saved are freed with the context.
    @Test func anInsertedGraphIsFreedAfterSaveAndRelease() throws {
        let coordinator = try Self.storeWithGraph()
        let (photo, album) = try { () throws -> (Weak, Weak) in
            let context = Self.context(coordinator)
            return try context.performAndWait { () throws in
                let album = TestStack.insert("Album", into: context, ["name": "new"])
                let photos = (0..<5).map { TestStack.insert("Photo", into: context, ["name": "n\($0)", "album": album]) }
                #expect((album.value(forKey: "photos") as? NSSet)?.count == 5)
                try context.save()
                return (Weak(photos[0]), Weak(album))
            }
        }()
        #expect(photo.object == nil)
        #expect(album.object == nil)
    }

    /// An object kept after its context went away is a fault that reads nil,
    /// as with Core Data (objects returned out of `performBackgroundTask`
    /// read nil once the background context is gone).
    @Test func anObjectOutlivingItsContextReadsNil() throws {
        let coordinator = try Self.storeWithGraph()
        let photo = try { () throws -> NSManagedObject in
            let context = Self.context(coordinator)
            return try context.performAndWait { () throws in
                let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
                request.predicate = NSPredicate(format: "name == 'p0-0'")
                let photo = try #require(try context.fetch(request).first)
                #expect(photo.value(forKey: "name") as? String == "p0-0")
                return photo
            }
        }()
        #expect(photo.managedObjectContext == nil)
        #expect(photo.isFault)
        #expect(photo.value(forKey: "name") == nil)
        #expect(photo.value(forKey: "album") == nil)
    }

    /// A deleted object whose deletion was saved reads nil instead of
    /// stopping the program (issue 18: Apple returns nil there).
    @Test func aDeletedAndSavedObjectReadsNil() throws {
        let coordinator = try Self.storeWithGraph()
        let context = Self.context(coordinator)
        try context.performAndWait { () throws in
            let album = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album")).first)
            context.delete(album)
            try context.save()
            #expect(album.managedObjectContext == nil)
            #expect(album.value(forKey: "name") == nil)
            #expect((album.value(forKey: "photos") as? NSSet)?.count == 0)
        }
    }

    /// Objects the application let go while their context lives are freed
    /// by the context's sweep at the end of a `perform` (at most once a
    /// second, once the registry holds 1024 entries), not only when the
    /// context goes: the registry holds no weak references, so it drops the
    /// objects nothing else uses.
    @Test func releasedObjectsAreFreedWhileTheContextLives() throws {
        let writer = try TestStack.context(TestStack.albumsModel(), .sqlite)
        try writer.performAndWait { () throws in
            for p in 0..<1100 { TestStack.insert("Photo", into: writer, ["name": "p\(p)"]) }
            try writer.save()
            writer.reset()
        }
        let context = TestStack.sibling(of: writer)
        let photo = try context.performAndWait { () throws -> Weak in
            let photos = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Photo"))
            #expect(photos.count == 1100)
            return Weak(photos[0])
        }
        Thread.sleep(forTimeInterval: 1.1)
        context.performAndWait {}
        #expect(photo.object == nil)
        #expect(context.performAndWait { context.registeredObjects.isEmpty })
    }
}
