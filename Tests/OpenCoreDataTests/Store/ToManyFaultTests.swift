import Foundation
import Testing
@testable import OpenCoreDataCore

/// To-many relationships of the SQLite store are faults until used: the
/// store reads an object's record without them and reads a relationship's
/// destinations when it is first used, for all owners that need them at
/// once where it can. Core Data: "a to-many relationship is represented by
/// a fault" until accessed, and snapshots "contain attributes + to-one IDs,
/// not to-many" (coredata-behaviour.md §3.5, §3.6; Core Data Programming
/// Guide, "Faulting and Uniquing").
@Suite struct ToManyFaultTests {
    /// A store with 3 albums of 10 photos (of `photoClass`), saved and let go; a new context on it.
    private static func albums(photoClass: String? = nil) throws -> (NSManagedObjectContext, SQLiteStore) {
        let writer = try TestStack.albumsWithPhotos(photoClass: photoClass)
        let store = try #require(writer.persistentStoreCoordinator?.persistentStores.first as? SQLiteStore)
        return (TestStack.sibling(of: writer), store)
    }

    private static func fetchAlbums(_ context: NSManagedObjectContext) throws -> [NSManagedObject] {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Album")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        request.returnsObjectsAsFaults = false
        return try context.fetch(request)
    }

    @Test func aFetchReadsNoToManyUntilOneIsUsed() throws {
        let (context, store) = try Self.albums()
        try context.performAndWait { () throws in
            let albums = try Self.fetchAlbums(context)
            #expect(store.toManyQueryCount == 0)
            #expect(albums.allSatisfy { $0.hasFault(forRelationshipNamed: "photos") })
            #expect((albums[0].value(forKey: "photos") as? NSSet)?.count == 10)
            #expect(store.toManyQueryCount == 1)
            #expect(!albums[0].hasFault(forRelationshipNamed: "photos"))
            #expect(albums[1].hasFault(forRelationshipNamed: "photos"))
            // Reading it again reads nothing.
            #expect((albums[0].value(forKey: "photos") as? NSSet)?.count == 10)
            #expect(store.toManyQueryCount == 1)
        }
    }

    /// Reading a to-many relationship is no change; adding to it is one, and
    /// the save writes it.
    @Test func changesCompareWithWhatTheStoreHeld() throws {
        let (context, _) = try Self.albums()
        try context.performAndWait { () throws in
            let albums = try Self.fetchAlbums(context)
            _ = albums[0].value(forKey: "photos")
            #expect(albums[0].changedValues().isEmpty)
            #expect(albums[1].committedValues(forKeys: ["photos"])["photos"].flatMap { ($0 as? NSSet)?.count } == 10)
            let photo = TestStack.insert("Photo", into: context, ["name": "new"])
            albums[1].mutableSetValue(forKey: "photos").add(photo)
            #expect(albums[1].changedValues().keys.contains("photos"))
            try context.save()
        }
        let reader = TestStack.sibling(of: context)
        try reader.performAndWait { () throws in
            let albums = try Self.fetchAlbums(reader)
            #expect((albums[1].value(forKey: "photos") as? NSSet)?.count == 11)
        }
    }

    /// Deleting albums reads their photos once for the whole wave, and the
    /// Cascade rule reaches every photo.
    @Test func aCascadeReadsEachWavesToManyTogether() throws {
        let (context, store) = try Self.albums()
        try context.performAndWait { () throws in
            for album in try Self.fetchAlbums(context) { context.delete(album) }
            context.processPendingChanges()
            #expect(store.toManyQueryCount == 1)
            try context.save()
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Photo")) == 0)
        }
    }

    /// Deletes every album and processes the change: one to-many query, no record read by key.
    @discardableResult
    private static func deleteEveryAlbumInOneQuery(_ context: NSManagedObjectContext, _ store: SQLiteStore) throws
        -> [NSManagedObject] {
        let albums = try fetchAlbums(context)
        let recordReads = store.recordQueryCount
        for album in albums { context.delete(album) }
        context.processPendingChanges()
        #expect(store.toManyQueryCount == 1)
        #expect(store.recordQueryCount == recordReads)
        return albums
    }

    /// When the photos a Cascade deletes need their values (here for the
    /// context's undo manager, which keeps what deleted objects held), they
    /// come with their records from the query that finds them (one query,
    /// not a second by their keys), and the save deletes every one.
    @Test func aCascadeReadsTheDestinationsRecordsWithTheirKeys() throws {
        let (context, store) = try Self.albums()
        try context.performAndWait { () throws in
            context.undoManager = UndoManager()
            try Self.deleteEveryAlbumInOneQuery(context, store)
            #expect(context.deletedObjects.count == 33)
            #expect(context.deletedObjects.allSatisfy { !$0.isFault })
            try context.save()
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Photo")) == 0)
        }
    }

    /// Photos of the plain class, or of a class that runs no code of its own
    /// when deleted (as Xcode generates them: `ClassOverrides`), whose one
    /// rule of their own is their album's Nullify, need none of their values
    /// to be deleted by the album's Cascade (issue 13): the query that finds
    /// them reads their versions, not their records, and they stay faults.
    /// What they show is what running the rule at once shows: the albums
    /// hold no photos, and a photo whose fault fires before the save has its
    /// values and no album.
    @Test(arguments: [NSManagedObject.self, GeneratedPhoto.self] as [NSManagedObject.Type])
    func aCascadeDeletesDestinationsAsFaults(photoClass: NSManagedObject.Type) throws {
        let named = photoClass == NSManagedObject.self ? nil : String(describing: photoClass)
        if named != nil { NSManagedObject.register(photoClass) }
        let (context, store) = try Self.albums(photoClass: named)
        try context.performAndWait { () throws in
            let albums = try Self.deleteEveryAlbumInOneQuery(context, store)
            let photos = context.deletedObjects.filter { $0.entity.name == "Photo" }
            #expect(photos.count == 30 && photos.allSatisfy { $0.isFault && $0.isDeleted })
            #expect(photos.allSatisfy { type(of: $0) == photoClass })
            #expect(albums.allSatisfy { ($0.value(forKey: "photos") as? NSSet)?.count == 0 })
            let fired = try #require(photos.first)
            #expect((fired.value(forKey: "name") as? String)?.hasPrefix("p") == true)
            #expect(fired.value(forKey: "album") == nil)
            #expect(!fired.isFault && fired.isDeleted)
            try context.save()
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Photo")) == 0)
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Album")) == 0)
        }
    }

    /// A class's own deletion code runs for every photo the Cascade deletes,
    /// with the photo's values there to read: `prepareForDeletion()` is "an
    /// opportunity to add code into the life cycle of the managed object
    /// before deleting it", such as "custom propagation before relationships
    /// are torn down" (NSManagedObject documentation), so each photo is still
    /// in its album. The records come with the query that finds the photos,
    /// and the save deletes them all.
    @Test func aCascadeRunsTheDestinationsOwnDeletionCode() throws {
        NSManagedObject.register(PreparedPhoto.self)
        let (context, store) = try Self.albums(photoClass: "PreparedPhoto")
        try context.performAndWait { () throws in
            try Self.deleteEveryAlbumInOneQuery(context, store)
            let photos = context.deletedObjects.compactMap { $0 as? PreparedPhoto }
            #expect(photos.count == 30)
            // "pA-P in aA": each photo still in its album, as before any rule ran.
            #expect(photos.allSatisfy { photo in
                photo.preparedFor.count == 1 && photo.preparedFor[0].wholeMatch(of: /p(\d)-\d in a\1/) != nil
            })
            #expect(Set(photos.flatMap(\.preparedFor)).count == 30)
            try context.save()
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Photo")) == 0)
            #expect(photos.allSatisfy { $0.preparedFor.count == 1 })
        }
    }

    /// An object of a class that runs deletion code of its own is not left a
    /// fault by a cascade that reads versions for its entity's plain class:
    /// photos made as `PreparedPhoto` beside plain ones, then turned into
    /// faults (they keep their class), alternate in the cascade's wave, and
    /// every `PreparedPhoto` runs `prepareForDeletion()` with its values while
    /// the plain photos stay faults.
    @Test func aCascadeKeepsFaultsOfClassesWithDeletionCodeOutOfItsDeferredDeletes() throws {
        let context = try TestStack.context(TestStack.albumsModel(), .sqlite)
        try context.performAndWait { () throws in
            let photoEntity = try #require(context.persistentStoreCoordinator?.managedObjectModel
                .entitiesByName["Photo"])
            var photos: [NSManagedObject] = []
            for a in 0..<2 {
                let album = TestStack.insert("Album", into: context, ["name": "a\(a)"])
                for p in 0..<6 {
                    let photo = p % 2 == 0 ? PreparedPhoto(entity: photoEntity, insertInto: context)
                        : NSManagedObject(entity: photoEntity, insertInto: context)
                    photo.setValue("p\(a)-\(p)", forKey: "name")
                    photo.setValue(album, forKey: "album")
                    photos.append(photo)
                }
            }
            try context.save()
            for photo in photos { context.refresh(photo, mergeChanges: false) }
            let albums = try Self.fetchAlbums(context)
            for album in albums { context.refresh(album, mergeChanges: false) }
            for album in albums { context.delete(album) }
            context.processPendingChanges()
            let prepared = photos.compactMap { $0 as? PreparedPhoto }
            #expect(prepared.count == 6)
            #expect(prepared.allSatisfy { photo in
                photo.preparedFor.count == 1 && photo.preparedFor[0].wholeMatch(of: /p(\d)-\d in a\1/) != nil
            })
            #expect(photos.filter { !($0 is PreparedPhoto) }.allSatisfy { $0.isFault && $0.isDeleted })
            try context.save()
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Photo")) == 0)
        }
    }

    /// Deleting as faults changes nothing a caller sees after the rules ran:
    /// the same deleted and updated objects, the same albums' photos and
    /// changed values, the same photos once fired, and a rollback brings all
    /// back; against the same cascade with the photos' records read (an undo
    /// manager asks for them).
    @Test func aCascadeOfFaultsShowsWhatTheRulesRunAtOnceShow() throws {
        func observed(withRecords: Bool) throws -> [String] {
            let (context, _) = try Self.albums()
            return try context.performAndWait { () throws -> [String] in
                if withRecords { context.undoManager = UndoManager() }
                let albums = try Self.fetchAlbums(context)
                context.delete(albums[0])
                context.delete(albums[2])
                context.processPendingChanges()
                var seen = ["deleted \(context.deletedObjects.count)", "updated \(context.updatedObjects.count)"]
                for album in albums {
                    let photos = (album.value(forKey: "photos") as? NSSet)?.count ?? -1
                    seen.append("\(album.value(forKey: "name")!): \(photos), \(album.changedValues().keys.sorted())")
                }
                let photos = context.deletedObjects.filter { $0.entity.name == "Photo" }
                    .sorted { ($0.value(forKey: "name") as! String) < ($1.value(forKey: "name") as! String) }
                for photo in photos {
                    let album = photo.value(forKey: "album") == nil ? "no album" : "an album"
                    let changed = photo.changedValues().keys.sorted()
                    seen.append("\(photo.value(forKey: "name")!) \(photo.isDeleted) \(album) \(changed)")
                }
                context.rollback()
                seen.append("after rollback: \(context.deletedObjects.count) deleted, "
                            + "\(albums.map { ($0.value(forKey: "photos") as? NSSet)?.count ?? -1 })")
                return seen
            }
        }
        let deferred = try observed(withRecords: false), read = try observed(withRecords: true)
        #expect(deferred == read)
        #expect(deferred.first == "deleted 22")
    }

    /// A photo deleted as a fault is deleted at the version the cascade read:
    /// changed elsewhere in between, the save fails with a merge conflict, as
    /// for a photo read with its record, and succeeds with a policy that
    /// resolves it.
    @Test func aFaultDeletedByACascadeKeepsOptimisticLocking() throws {
        let (context, _) = try Self.albums()
        let other = TestStack.sibling(of: context)
        try context.performAndWait { () throws in
            for album in try Self.fetchAlbums(context) where album.value(forKey: "name") as? String == "a1" {
                context.delete(album)
            }
            context.processPendingChanges()
            #expect(context.deletedObjects.filter(\.isFault).count == 10)
        }
        try other.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            request.predicate = NSPredicate(format: "name == 'p1-3'")
            try #require(try other.fetch(request).first).setValue("changed", forKey: "name")
            try other.save()
        }
        try context.performAndWait { () throws in
            let error = try #require(throws: NSError.self) { try context.save() }
            #expect(error.code == NSManagedObjectMergeError)
            context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
            try context.save()
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Photo")) == 20)
        }
    }

    /// The versions a cascade reads go with their photos, album by album:
    /// photos saved again since (at a version above 1) in every album, and
    /// albums deleted in an order other than the query's, are deleted at the
    /// versions they have, so the save finds no conflict; and only the one
    /// photo changed elsewhere after the read makes the save fail.
    @Test func aCascadesVersionsStayWithTheirPhotos() throws {
        let (context, _) = try Self.albums()
        let other = TestStack.sibling(of: context)
        func renamePhotos(_ names: [String], in context: NSManagedObjectContext,
                          to newName: (String) -> String) throws {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            request.predicate = NSPredicate(format: "name IN %@", names)
            let photos = try context.fetch(request)
            #expect(photos.count == names.count)
            for photo in photos { photo.setValue(newName(photo.value(forKey: "name") as! String), forKey: "name") }
            try context.save()
        }
        // Versions 2 and 3 among version-1 photos, in each album.
        try other.performAndWait { () throws in
            try renamePhotos(["p0-2", "p1-5", "p2-9", "p2-0"], in: other) { $0 + "x" }
            try renamePhotos(["p0-2x", "p2-0x"], in: other) { $0 + "y" }
        }
        try context.performAndWait { () throws in
            for album in try Self.fetchAlbums(context).reversed() { context.delete(album) }
            context.processPendingChanges()
            #expect(context.deletedObjects.filter { $0.entity.name == "Photo" && $0.isFault }.count == 30)
        }
        try other.performAndWait { () throws in try renamePhotos(["p1-5x"], in: other) { $0 + "z" } }
        try context.performAndWait { () throws in
            let error = try #require(throws: NSError.self) { try context.save() }
            #expect(error.code == NSManagedObjectMergeError)
            let conflicts = try #require(error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict])
            #expect(conflicts.map { $0.sourceObject.objectID.uriRepresentation().lastPathComponent } == ["p16"])
            context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
            try context.save()
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Photo")) == 0)
        }
    }

    /// Random cascades over more albums than one query reads (512 owners): photos at versions 1 to 3, some
    /// loaded and the rest faults when their albums go, and some changed elsewhere after the cascade read
    /// them. The save's conflicts are exactly the changed photos of the deleted albums; resolved, the store
    /// keeps exactly the other albums and their photos.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomCascadesConflictExactlyWhereChanged(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let writer = try TestStack.context(TestStack.albumsModel(), .sqlite)
        let albumCount = 900
        try writer.performAndWait { () throws in
            for a in 0..<albumCount {
                let album = TestStack.insert("Album", into: writer, ["name": "a\(a)"])
                for p in 0..<Int.random(in: 0...4, using: &random) {
                    TestStack.insert("Photo", into: writer, ["name": "p\(a)-\(p)", "album": album])
                }
            }
            try writer.save()
            writer.reset()
        }
        let context = TestStack.sibling(of: writer), other = TestStack.sibling(of: writer)
        func photos(in context: NSManagedObjectContext, where keep: (String) -> Bool) throws -> [NSManagedObject] {
            try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Photo"))
                .filter { keep($0.value(forKey: "name") as! String) }
        }
        // Versions 2 and 3 for some photos, chosen one by one: an album's photos are at different versions.
        try other.performAndWait { () throws in
            for round in 0..<2 {
                for photo in try photos(in: other, where: { _ in Int.random(in: 0..<3, using: &random) == 0 }) {
                    photo.setValue("\(round)", forKey: "path")
                }
                try other.save()
            }
        }
        let doomed = Set((0..<albumCount).filter { _ in Int.random(in: 0..<3, using: &random) > 0 })
        let loaded = Set((0..<albumCount).filter { _ in Bool.random(using: &random) })
        let changedLater = Set((0..<albumCount).filter { _ in Int.random(in: 0..<10, using: &random) == 0 })
        func albumNumber(_ photo: NSManagedObject) -> Int {
            Int((photo.value(forKey: "name") as! String).dropFirst().prefix { $0 != "-" })!
        }
        try context.performAndWait { () throws in
            // Only the loaded albums' photos are read here; the others are made by the cascade, as faults.
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            request.predicate = NSPredicate(format: "album.name IN %@", loaded.map { "a\($0)" })
            request.returnsObjectsAsFaults = false
            let held = try context.fetch(request)
            #expect(held.allSatisfy { !$0.isFault })
            let albums = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album"))
            for album in albums.shuffled(using: &random)
            where doomed.contains(Int((album.value(forKey: "name") as! String).dropFirst())!) {
                context.delete(album)
            }
            context.processPendingChanges()
            #expect(held.allSatisfy { $0.isDeleted == doomed.contains(albumNumber($0)) })
            let deletedPhotos = context.deletedObjects.filter { $0.entity.name == "Photo" }
            #expect(deletedPhotos.contains { $0.isFault } && deletedPhotos.contains { !$0.isFault })
        }
        var expectedConflicts = Set<String>()
        try other.performAndWait { () throws in
            for photo in try photos(in: other, where: { _ in true }) where changedLater.contains(albumNumber(photo)) {
                photo.setValue("later", forKey: "path")
                guard doomed.contains(albumNumber(photo)) else { continue }
                expectedConflicts.insert(photo.value(forKey: "name") as! String)
            }
            try other.save()
        }
        try context.performAndWait { () throws in
            if expectedConflicts.isEmpty {
                try context.save()
            } else {
                let error = try #require(throws: NSError.self) { try context.save() }
                let list = error.userInfo[NSPersistentStoreSaveConflictsErrorKey]
                let conflicts = try #require(list as? [NSMergeConflict])
                #expect(Set(conflicts.map { $0.sourceObject.value(forKey: "name") as! String }) == expectedConflicts)
                context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
                try context.save()
            }
        }
        let reader = TestStack.sibling(of: writer)
        try reader.performAndWait { () throws in
            let albums = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album"))
            #expect(Set(albums.map { Int(($0.value(forKey: "name") as! String).dropFirst())! })
                    == Set(0..<albumCount).subtracting(doomed))
            let left = try photos(in: reader, where: { _ in true })
            #expect(left.allSatisfy { !doomed.contains(albumNumber($0)) })
            #expect(left.allSatisfy { photo in
                (photo.value(forKey: "album") as? NSManagedObject)?.value(forKey: "name") as? String
                    == "a\(albumNumber(photo))"
            })
        }
    }

    /// Deleting photos of several albums removes each from its album's
    /// photos: the albums' to-many relationships are read together, not one
    /// album at a time.
    @Test func aNullifyReadsTheInverseToManysOfTheWaveTogether() throws {
        let writer = try TestStack.albumsWithPhotos()
        let context = try TestStack.reader(of: writer)
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first as? SQLiteStore)
        try context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            request.predicate = NSPredicate(format: "name ENDSWITH '-0'")
            let doomed = try context.fetch(request)
            #expect(doomed.count == 3)
            let toManyReads = store.toManyQueryCount
            for photo in doomed { context.delete(photo) }
            context.processPendingChanges()
            #expect(store.toManyQueryCount == toManyReads + 1)
            try context.save()
        }
        let reader = try TestStack.reader(of: writer)
        try reader.performAndWait { () throws in
            let albums = try Self.fetchAlbums(reader)
            #expect(albums.map { TestStack.names(TestStack.set($0, "photos")) }
                    == (0..<3).map { a in (1..<10).map { "p\(a)-\($0)" }.sorted() })
        }
    }

    /// A Nullify across a many-to-many reads the other side's records with
    /// the join table's links and their own to-many for all of them at once,
    /// and the save removes only the deleted links.
    @Test func aNullifyReadsTheDestinationsRecordsThroughTheJoinTable() throws {
        let writer = try TestStack.context(TestStack.quakesModel(), .sqlite)
        try writer.performAndWait { () throws in
            let countries = (0..<3).map { TestStack.insert("Country", into: writer, ["name": "c\($0)"]) }
            for magnitude in [5.0, 6.0] {
                let quake = TestStack.insert("Quake", into: writer, ["place": "here", "magnitude": magnitude])
                quake.setValue(NSSet(array: countries), forKey: "countries")
            }
            try writer.save()
        }
        // A new coordinator: the writer's row cache would know the saved links.
        let context = try TestStack.reader(of: writer)
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first as? SQLiteStore)
        try context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Quake")
            request.predicate = NSPredicate(format: "magnitude == 5.0")
            let quake = try #require(try context.fetch(request).first)
            let (recordReads, toManyReads) = (store.recordQueryCount, store.toManyQueryCount)
            context.delete(quake)
            context.processPendingChanges()
            // The quake's countries with their records, then the three countries' quakes together.
            #expect(store.toManyQueryCount == toManyReads + 2)
            let countries = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Country"))
            #expect(countries.allSatisfy { !$0.isFault && !TestStack.set($0, "quakes").contains(quake) })
            #expect(store.recordQueryCount == recordReads)
            try context.save()
        }
        let reader = try TestStack.reader(of: writer)
        try reader.performAndWait { () throws in
            let countries = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Country"))
            #expect(countries.map { TestStack.set($0, "quakes").map { $0.value(forKey: "magnitude") as? Double } }
                    == [[6.0], [6.0], [6.0]])
        }
    }

    /// Prefetching a to-many key path reads it for every owner at once.
    @Test func prefetchingReadsOneQueryForAllOwners() throws {
        let (context, store) = try Self.albums()
        try context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Album")
            request.relationshipKeyPathsForPrefetching = ["photos"]
            let albums = try context.fetch(request)
            #expect(store.toManyQueryCount == 1)
            #expect(albums.allSatisfy { !$0.hasFault(forRelationshipNamed: "photos") })
            #expect(albums.map { ($0.value(forKey: "photos") as? NSSet)?.count ?? 0 } == [10, 10, 10])
            #expect(store.toManyQueryCount == 1)
        }
    }

    /// A many-to-many relationship never read is not rewritten by a save of
    /// its owner: the join table keeps every link (a wrong empty list here
    /// would delete them).
    @Test func savingAnOwnerKeepsLinksItNeverRead() throws {
        let context = try TestStack.context(TestStack.quakesModel(), .sqlite)
        let url = try #require(context.persistentStoreCoordinator?.persistentStores.first?.url)
        try context.performAndWait { () throws in
            let countries = (0..<3).map { TestStack.insert("Country", into: context, ["name": "c\($0)"]) }
            let quake = TestStack.insert("Quake", into: context, ["place": "here", "magnitude": 5.0])
            quake.setValue(NSSet(array: countries), forKey: "countries")
            try context.save()
        }
        let editor = try TestStack.reader(of: context)
        try editor.performAndWait { () throws in
            let quake = try #require(try editor.fetch(NSFetchRequest<NSManagedObject>(entityName: "Quake")).first)
            #expect(quake.hasFault(forRelationshipNamed: "countries"))
            quake.setValue(6.5, forKey: "magnitude")
            try editor.save()
        }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: TestStack.quakesModel())
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = coordinator
        try reader.performAndWait { () throws in
            let quake = try #require(try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Quake")).first)
            #expect(quake.value(forKey: "magnitude") as? Double == 6.5)
            #expect((quake.value(forKey: "countries") as? NSSet)?.count == 3)
        }
    }
}

/// As Xcode generates a class: no methods of its own.
final class GeneratedPhoto: NSManagedObject {}

/// Notes the name and album each `prepareForDeletion()` saw.
final class PreparedPhoto: NSManagedObject {
    var preparedFor: [String] = []
    override func prepareForDeletion() {
        let album = (value(forKey: "album") as? NSManagedObject)?.value(forKey: "name") as? String
        preparedFor.append("\(value(forKey: "name") as? String ?? "no name") in \(album ?? "no album")")
        super.prepareForDeletion()
    }
}
