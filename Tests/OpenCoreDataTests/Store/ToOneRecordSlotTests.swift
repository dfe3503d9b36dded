import Foundation
import Testing
@testable import OpenCoreDataCore

/// A record read from a store holds each to-one destination by the store's
/// ID family and the destination's key (`SlotValue.record`), its ID made
/// only when something asks for it. What reads such a slot must behave as
/// if it held the ID: the relationship resolves to the context's object for
/// that ID ("an object ID uniquely identifies the same managed object both
/// between managed object contexts in a single application, and in multiple
/// applications", NSManagedObjectID's documentation), in a child context
/// too; a save writes the destination's key; a merge compares it with an
/// object as it would compare the ID.
@Suite struct ToOneRecordSlotTests {
    /// 3 albums of 4 photos saved by one context; the albums' IDs and the
    /// photos' by name, and a sibling context on the same store.
    private static func saved() throws -> (NSManagedObjectContext, albums: [String: NSManagedObjectID],
                                           photos: [String: NSManagedObjectID]) {
        let writer = try TestStack.context(TestStack.albumsModel(), .sqlite)
        let (albums, photos) = try writer.performAndWait {
            () throws -> ([String: NSManagedObjectID], [String: NSManagedObjectID]) in
            var albums: [NSManagedObject] = [], photos: [NSManagedObject] = []
            for a in 0..<3 {
                let album = TestStack.insert("Album", into: writer, ["name": "a\(a)"])
                albums.append(album)
                for p in 0..<4 {
                    photos.append(TestStack.insert("Photo", into: writer, ["name": "a\(a)-\(p)", "album": album]))
                }
            }
            try writer.save()
            func byName(_ objects: [NSManagedObject]) -> [String: NSManagedObjectID] {
                Dictionary(uniqueKeysWithValues: objects.map { ($0.value(forKey: "name") as! String, $0.objectID) })
            }
            return (byName(albums), byName(photos))
        }
        return (TestStack.sibling(of: writer), albums, photos)
    }

    private static func loadedPhotos(_ context: NSManagedObjectContext) throws -> [NSManagedObject] {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
        request.returnsObjectsAsFaults = false
        return try context.fetch(request)
    }

    private static func albumName(ofPhoto photo: String) -> String { String(photo.prefix(2)) }

    @Test func aDestinationResolvesToTheRegisteredObjectWithoutAnID() throws {
        let (context, albums, _) = try Self.saved()
        try context.performAndWait {
            var resolved: [String: NSManagedObject] = [:]
            for photo in try Self.loadedPhotos(context) {
                let name = Self.albumName(ofPhoto: photo.value(forKey: "name") as! String)
                let album = try #require(photo.value(forKey: "album") as? NSManagedObject)
                if let first = resolved[name] {
                    #expect(album === first, "two photos of \(name) resolved to two objects")
                } else {
                    #expect(!album.holdsObjectID, "resolving the relationship made the album's ID")
                    resolved[name] = album
                }
                #expect(photo.value(forKey: "album") as? NSManagedObject === album)
                #expect(context.registeredObject(for: try #require(albums[name])) === album)
            }
            #expect(resolved.count == 3)
            for (name, album) in resolved {
                #expect(album.objectID == albums[name] && album.value(forKey: "name") as? String == name)
            }
            let fetched = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album"))
            #expect(Set(fetched.map(ObjectIdentifier.init)) == Set(resolved.values.map(ObjectIdentifier.init)))
        }
    }

    @Test func aChildContextResolvesToItsOwnObjects() throws {
        let (context, albums, _) = try Self.saved()
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = context
        try child.performAndWait {
            for photo in try Self.loadedPhotos(child) {
                let name = Self.albumName(ofPhoto: photo.value(forKey: "name") as! String)
                let album = try #require(photo.value(forKey: "album") as? NSManagedObject)
                #expect(album.managedObjectContext === child)
                #expect(album.objectID == albums[name])
                #expect(child.object(with: try #require(albums[name])) === album)
                #expect(album.value(forKey: "name") as? String == name)
            }
        }
    }

    /// A record as the store read it, changed and saved straight through the
    /// store: its update writes every column, the album's key among them,
    /// from the family and key the record holds.
    @Test func anUpdateWritesTheKeyOfADestinationKnownByRecord() throws {
        let (context, albums, photos) = try Self.saved()
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first)
        let photoID = try #require(photos["a1-2"])
        let photoKey = try #require(photoID.primaryKey)
        var record = try #require(try store.snapshots(of: photoID.family, primaryKey: photoKey).first)
        let layout = record.layout
        guard case .record(let album) = record[layout.slotsByName["album"]!] else {
            Issue.record("the photo's record holds no album by record")
            return
        }
        #expect(album.madeID == nil && album.objectID == albums["a1"])
        record[layout.slotsByName["name"]!] = .string("renamed")
        var changes = StoreChangeSet()
        changes.updated = [record]
        try store.save(changes)
        let reader = TestStack.sibling(of: context)
        try reader.performAndWait {
            let photo = try reader.existingObject(with: photoID)
            #expect(photo.value(forKey: "name") as? String == "renamed")
            let album = try #require(photo.value(forKey: "album") as? NSManagedObject)
            #expect(album.objectID == albums["a1"] && album.value(forKey: "name") as? String == "a1")
        }
    }

    /// A context holds a photo whose album it never resolved; another moves
    /// the photo to another album and saves; the first renames the photo and
    /// saves by property, object trump: its change wins, and the album is the
    /// store's, since the first context did not change it (NSMergePolicy's
    /// documentation for mergeByPropertyObjectTrump).
    @Test func aMergeByPropertyKeepsTheStoresDestination() throws {
        let (first, albums, photos) = try Self.saved()
        let second = TestStack.sibling(of: first)
        let photoID = try #require(photos["a0-1"])
        let held = try first.performAndWait { try first.existingObject(with: photoID) }
        try first.performAndWait { #expect(held.value(forKey: "name") as? String == "a0-1") }
        try second.performAndWait {
            let photo = try second.existingObject(with: photoID)
            photo.setValue(second.object(with: try #require(albums["a2"])), forKey: "album")
            try second.save()
        }
        try first.performAndWait {
            first.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
            held.setValue("renamed", forKey: "name")
            try first.save()
        }
        let reader = TestStack.sibling(of: first)
        try reader.performAndWait {
            let photo = try reader.existingObject(with: photoID)
            #expect(photo.value(forKey: "name") as? String == "renamed")
            #expect((photo.value(forKey: "album") as? NSManagedObject)?.objectID == albums["a2"])
        }
    }

    /// `isRecord(_:)` against records by ID and by family and key, for an
    /// object known by record (a fetched fault), by a made ID, and an
    /// inserted object with a temporary ID.
    @Test func anObjectIsTheRecordItsIDNames() throws {
        let (context, albums, _) = try Self.saved()
        try context.performAndWait {
            let albumID = try #require(albums["a1"]), otherID = try #require(albums["a2"])
            let family = albumID.family, key = try #require(albumID.primaryKey)
            let request = NSFetchRequest<NSManagedObject>(entityName: "Album")
            request.predicate = NSPredicate(format: "name == 'a1'")
            request.includesPropertyValues = false
            let fault = try #require(try context.fetch(request).first)
            #expect(!fault.holdsObjectID)
            #expect(fault.isRecord(.record(family, primaryKey: key)) && fault.isRecord(.id(albumID)))
            #expect(!fault.isRecord(.record(family, primaryKey: try #require(otherID.primaryKey))))
            #expect(!fault.isRecord(.id(otherID)) && !fault.holdsObjectID)
            _ = fault.objectID
            #expect(fault.isRecord(.record(family, primaryKey: key)) && fault.isRecord(.id(albumID)))
            #expect(!fault.isRecord(.id(otherID)))
            let inserted = TestStack.insert("Album", into: context, ["name": "new"])
            #expect(!inserted.isRecord(.id(albumID)) && !inserted.isRecord(.record(family, primaryKey: key)))
            let temporary = inserted.objectID
            #expect(temporary.isTemporaryID && inserted.isRecord(.id(temporary)) && !fault.isRecord(.id(temporary)))
        }
    }
}
