import Foundation
import Testing
@testable import OpenCoreDataCore

/// `automaticallyMergesChangesFromParent` without a parent: the context
/// merges what other contexts of its coordinator save ("whether the context
/// automatically merges changes saved to its persistent store coordinator or
/// parent context", Apple's documentation; for a context without a parent,
/// the saves of the coordinator's other contexts: SO 66784854, in
/// coredata-wave2.md §4.1). The merge runs on the context's own queue, so a
/// `performAndWait` after the save sees it.
@Suite struct AutomaticMergingTests {
    /// A writer and a viewer on one coordinator; the viewer holds album "a", loaded.
    private static func stack(merging: Bool)
        throws -> (NSManagedObjectContext, NSManagedObjectContext, NSManagedObject) {
        let writer = try TestStack.context(TestStack.albumsModel(), .sqlite)
        try writer.performAndWait { () throws in
            TestStack.insert("Album", into: writer, ["name": "a", "sheets": Int32(1)])
            try writer.save()
        }
        let viewer = TestStack.sibling(of: writer)
        viewer.automaticallyMergesChangesFromParent = merging
        let album = try viewer.performAndWait { () throws in
            let album = try #require(try viewer.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album")).first)
            _ = album.value(forKey: "name")
            return album
        }
        return (writer, viewer, album)
    }

    private static func writerAlbum(_ writer: NSManagedObjectContext) throws -> NSManagedObject {
        try #require(try writer.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album")).first)
    }

    @Test func savedChangesOfAnotherContextAreMergedKeepingLocalOnes() throws {
        let (writer, viewer, album) = try Self.stack(merging: true)
        #expect(viewer.automaticallyMergesChangesFromParent)
        let changes = NotificationRecorder([.NSManagedObjectContextObjectsDidChange], object: viewer)
        viewer.performAndWait { album.setValue(Int32(5), forKey: "sheets") }
        try writer.performAndWait { () throws in
            try Self.writerAlbum(writer).setValue("b", forKey: "name")
            TestStack.insert("Album", into: writer, ["name": "new"])
            try writer.save()
        }
        viewer.performAndWait {
            #expect(album.value(forKey: "name") as? String == "b")
            #expect(album.value(forKey: "sheets") as? Int32 == 5 && album.hasChanges)
            let names = viewer.registeredObjects.compactMap { $0.value(forKey: "name") as? String }.sorted()
            #expect(names == ["b", "new"])
        }
        // The merge's ObjectsDidChange lists the album as refreshed (read on the viewer's queue).
        viewer.performAndWait {
            #expect(changes.notes.contains { note in
                (note.userInfo?[NSRefreshedObjectsKey] as? Set<NSManagedObject>)?.contains(album) == true
            })
        }
    }

    @Test func aDeletionElsewhereRemovesTheObject() throws {
        let (writer, viewer, album) = try Self.stack(merging: true)
        try writer.performAndWait { () throws in
            writer.delete(try Self.writerAlbum(writer))
            try writer.save()
        }
        viewer.performAndWait {
            #expect(album.managedObjectContext == nil)
            #expect(!viewer.registeredObjects.contains(album))
        }
    }

    @Test func withoutItTheContextKeepsWhatItRead() throws {
        let (writer, viewer, album) = try Self.stack(merging: false)
        try writer.performAndWait { () throws in
            try Self.writerAlbum(writer).setValue("b", forKey: "name")
            try writer.save()
        }
        viewer.performAndWait { #expect(album.value(forKey: "name") as? String == "a") }
        // Switched on later, it merges the next save, and off again, not the one after.
        viewer.automaticallyMergesChangesFromParent = true
        try writer.performAndWait { () throws in
            try Self.writerAlbum(writer).setValue("c", forKey: "name")
            try writer.save()
        }
        viewer.performAndWait { #expect(album.value(forKey: "name") as? String == "c") }
        viewer.automaticallyMergesChangesFromParent = false
        try writer.performAndWait { () throws in
            try Self.writerAlbum(writer).setValue("d", forKey: "name")
            try writer.save()
        }
        viewer.performAndWait { #expect(album.value(forKey: "name") as? String == "c") }
    }

    @Test func contextsOfAnotherCoordinatorAreNotMerged() throws {
        let (writer, viewer, album) = try Self.stack(merging: true)
        let elsewhere = try TestStack.reader(of: writer)
        try elsewhere.performAndWait { () throws in
            try Self.writerAlbum(elsewhere).setValue("other", forKey: "name")
            try elsewhere.save()
        }
        viewer.performAndWait { #expect(album.value(forKey: "name") as? String == "a") }
    }

    /// After a merge the context posts didMergeChangesObjectIDsNotification
    /// with the merged IDs, under the keys NotificationKey names (the same
    /// strings as the older constants).
    @Test func aMergePostsTheMergedIDs() throws {
        let (writer, viewer, album) = try Self.stack(merging: true)
        let merged = NotificationRecorder([NSManagedObjectContext.didMergeChangesObjectIDsNotification], object: viewer)
        try writer.performAndWait { () throws in
            try Self.writerAlbum(writer).setValue("b", forKey: "name")
            try writer.save()
        }
        viewer.performAndWait {
            let info = merged.notes.first?.userInfo ?? [:]
            let key = NSManagedObjectContext.NotificationKey.updatedObjectIDs.rawValue
            #expect(key == NSUpdatedObjectIDsKey)
            #expect(info[key] as? Set<NSManagedObjectID> == [album.objectID])
            let inserted = NSManagedObjectContext.NotificationKey.insertedObjectIDs.rawValue
            #expect((info[inserted] as? Set<NSManagedObjectID>)?.isEmpty == true)
        }
        #expect(NSManagedObjectContext.NotificationKey.insertedObjects.rawValue == NSInsertedObjectsKey)
        #expect(NSManagedObjectContext.NotificationKey.invalidatedAllObjects.rawValue == NSInvalidatedAllObjectsKey)
    }
}
