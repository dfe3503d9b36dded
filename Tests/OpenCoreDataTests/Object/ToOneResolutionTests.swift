import Foundation
import Testing
@testable import OpenCoreDataCore

/// Reading a to-one relationship of a loaded object resolves its ID to the
/// destination object without copying the record's slots, which the object
/// shares with the row cache: the destination is kept beside the slots
/// (`PropertyValues.resolvedDestination`). What that must keep: the same
/// destination object on every read, alive as long as its owner, and the
/// new destination once the slot holds another ID.
@Suite struct ToOneResolutionTests {
    private static func firstPhoto(in context: NSManagedObjectContext) throws -> NSManagedObject {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
        request.predicate = NSPredicate(format: "name == %@", "p0-0")
        request.returnsObjectsAsFaults = false
        return try #require(try context.fetch(request).first)
    }

    /// Whether the object's slots are still its record's (the same storage).
    private static func sharesRecordSlots(_ object: NSManagedObject) throws -> Bool {
        let record = try #require(object.committedRow)
        return object.values.slots.buffer === record
    }

    @Test func readingAToOneKeepsTheRecordsSlotsShared() throws {
        let context = try TestStack.albumsWithPhotos()
        try context.performAndWait {
            let photo = try Self.firstPhoto(in: context)
            #expect(try Self.sharesRecordSlots(photo))
            let album = try #require(photo.value(forKey: "album") as? NSManagedObject)
            #expect(album.value(forKey: "name") as? String == "a0")
            #expect(try Self.sharesRecordSlots(photo), "reading the album copied the photo's slots")
            #expect(!photo.hasChanges && !context.hasChanges)
        }
    }

    @Test func theDestinationIsOneObjectThatLivesAsLongAsItsOwner() throws {
        let context = try TestStack.albumsWithPhotos()
        try context.performAndWait {
            let photo = try Self.firstPhoto(in: context)
            // The album read in a closure of its own: no reference to it outlives the closure.
            let (first, identity) = try { () throws -> (NSManagedObjectID, ObjectIdentifier) in
                let album = try #require(photo.value(forKey: "album") as? NSManagedObject)
                #expect(album.value(forKey: "name") as? String == "a0")
                return (album.objectID, ObjectIdentifier(album))
            }()
            // Nothing but the photo references the album now; the registry's sweep must keep it.
            context.registered.sweep()
            let again = try #require(photo.value(forKey: "album") as? NSManagedObject)
            #expect(ObjectIdentifier(again) == identity && again.objectID == first && !again.isFault)
            #expect(context.registeredObject(for: first) === again)
        }
    }

    /// Another context moves the photo to another album; merging its save
    /// gives the photo the other album's ID, and the read follows it.
    @Test func aSlotThatHoldsAnotherIDResolvesAgain() throws {
        let context = try TestStack.albumsWithPhotos()
        let other = TestStack.sibling(of: context)
        let photo = try context.performAndWait {
            let photo = try Self.firstPhoto(in: context)
            #expect((photo.value(forKey: "album") as? NSManagedObject)?.value(forKey: "name") as? String == "a0")
            return photo
        }
        let saved = try other.performAndWait {
            let photo = try Self.firstPhoto(in: other)
            let request = NSFetchRequest<NSManagedObject>(entityName: "Album")
            request.predicate = NSPredicate(format: "name == %@", "a2")
            let album = try #require(try other.fetch(request).first)
            photo.setValue(album, forKey: "album")
            let recorder = NotificationRecorder([.NSManagedObjectContextDidSave], object: other)
            try other.save()
            return try #require(recorder.notes.first)
        }
        context.performAndWait {
            context.mergeChanges(fromContextDidSave: saved)
            let album = photo.value(forKey: "album") as? NSManagedObject
            #expect(album?.value(forKey: "name") as? String == "a2")
            #expect(album.map { context.registeredObject(for: $0.objectID) === $0 } == true)
        }
    }

    /// `setValue(_:forKey:)` of a to-one takes the destination however the
    /// `Any` holds it: as `NSManagedObject` (read in place), as its subclass,
    /// as `AnyObject`, in an optional or a doubly wrapped optional; each sets
    /// the destination and its inverse, and nil or an optional holding nil
    /// clears them.
    @Test func aToOneIsSetHoweverTheDestinationIsGiven() throws {
        let context = try TestStack.context(TestStack.albumsModel(albumClass: "OpenCoreDataTests.Album"))
        let photo = TestStack.insert("Photo", into: context)
        let albums = (0..<5).map { _ in TestStack.insert("Album", into: context) }
        let typed = try #require(albums[1] as? Album)
        let givens: [Any?] = [albums[0], typed, albums[2] as AnyObject, Optional(albums[3]),
                              Optional(Optional(albums[4]) as Any)]
        for (given, album) in zip(givens, albums) {
            photo.setValue(given, forKey: "album")
            #expect(photo.value(forKey: "album") as? NSManagedObject === album)
            #expect((album.value(forKey: "photos") as? NSSet)?.contains(photo) == true)
        }
        photo.setValue(Optional<NSManagedObject>.none, forKey: "album")
        #expect(photo.value(forKey: "album") == nil)
        #expect((albums[4].value(forKey: "photos") as? NSSet)?.count == 0)
        photo.setValue(albums[0], forKey: "album")
        photo.setValue(nil, forKey: "album")
        #expect(photo.value(forKey: "album") == nil)
    }
}
