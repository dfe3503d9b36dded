import Foundation
import Testing
@testable import OpenCoreDataCore

/// A fetch's rows name their records by family and primary key, without an
/// ID object each (`RecordIdentity`); the IDs are made when asked for. They
/// must still be the IDs Core Data gives: equal to the IDs of the same
/// records made anywhere else, stable for an object ("an object ID
/// uniquely identifies the same managed object both between managed object
/// contexts in a single application, and in multiple applications",
/// NSManagedObjectID's documentation), and the row cache and the registry
/// must find what a fetch made by those IDs.
@Suite struct FetchedRecordIdentityTests {
    /// A store of 30 photos in 3 albums, and the photos' IDs as their save made them, by name.
    private static func savedPhotos() throws -> (NSManagedObjectContext, [String: NSManagedObjectID]) {
        let writer = try TestStack.context(TestStack.albumsModel(), .sqlite)
        let ids = try writer.performAndWait { () throws -> [String: NSManagedObjectID] in
            var photos: [NSManagedObject] = []
            for a in 0..<3 {
                let album = TestStack.insert("Album", into: writer, ["name": "a\(a)"])
                for p in 0..<10 {
                    photos.append(TestStack.insert("Photo", into: writer, ["name": "p\(a)-\(p)", "album": album]))
                }
            }
            try writer.save()
            return Dictionary(uniqueKeysWithValues: photos.map { ($0.value(forKey: "name") as! String, $0.objectID) })
        }
        writer.performAndWait { writer.reset() }
        return (writer, ids)
    }

    private static func fetchLoaded(_ context: NSManagedObjectContext) throws -> [NSManagedObject] {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
        request.returnsObjectsAsFaults = false
        return try context.fetch(request)
    }

    @Test func aFetchedObjectMakesItsIDWhenAskedAndKeepsIt() throws {
        let (writer, saved) = try Self.savedPhotos()
        let context = TestStack.sibling(of: writer)
        try context.performAndWait {
            let photos = try Self.fetchLoaded(context)
            #expect(photos.count == 30)
            for photo in photos {
                let record = try #require(photo.committedRow?.record)
                #expect(record.madeID == nil, "the fetched row names its record without an ID")
                #expect(!photo.holdsObjectID, "the fetch made no ID for the object")
                let expected = try #require(saved[photo.value(forKey: "name") as! String])
                #expect(record.family.entity === expected.entity && record.primaryKey == expected.primaryKey)
                let id = photo.objectID
                #expect(id == expected && id.hash == expected.hash && !id.isTemporaryID)
                #expect(photo.objectID === id, "the object keeps the ID it made")
                #expect(id.uriRepresentation() == expected.uriRepresentation())
                #expect(context.object(with: expected) === photo)
                #expect(context.registeredObject(for: expected) === photo)
                #expect(try context.existingObject(with: expected) === photo)
            }
        }
    }

    /// The registry finds a fetched object by a fresh ID before the object made
    /// its own: the lookup compares the ID with the record the object names.
    @Test func theRegistryFindsAFetchedObjectByAnIDMadeElsewhere() throws {
        let (writer, saved) = try Self.savedPhotos()
        let context = TestStack.sibling(of: writer)
        try context.performAndWait {
            let photos = try Self.fetchLoaded(context)
            let byName = Dictionary(uniqueKeysWithValues: photos.map { ($0.value(forKey: "name") as! String, $0) })
            for (name, id) in saved {
                let found = context.registeredObject(for: id)
                #expect(found === byName[name])
                #expect(found.map { !$0.holdsObjectID } == true, "the lookup made no ID for the object")
            }
        }
    }

    /// The row cache holds one row a record, whatever names it: a fetched
    /// row (family and key) is found by an ID, kept by a second fetch of the
    /// same version, and replaced by a save, which names it by an ID.
    @Test func theRowCacheFindsAndReplacesFetchedRowsByID() throws {
        let (writer, saved) = try Self.savedPhotos()
        let cache = try #require(writer.persistentStoreCoordinator?.rowCache)
        let first = TestStack.sibling(of: writer), second = TestStack.sibling(of: writer)
        let firstPhotos = try first.performAndWait { try Self.fetchLoaded(first) }
        let rows = firstPhotos.map(\.committedRow)
        for (photo, row) in zip(firstPhotos, rows) {
            let id = try #require(saved[photo.value(forKey: "name") as! String])
            #expect(cache.row(for: id, maxAge: -1) === row)
        }
        let secondPhotos = try second.performAndWait { try Self.fetchLoaded(second) }
        #expect(zip(secondPhotos, rows).allSatisfy { $0.committedRow === $1 }, "the same versions share the rows")
        #expect(cache.invariantViolations.isEmpty)

        try first.performAndWait {
            for photo in firstPhotos { photo.setValue((photo.value(forKey: "name") as! String) + "!", forKey: "name") }
            try first.save()
        }
        #expect(cache.invariantViolations.isEmpty, "a saved row replaced each fetched one, none added beside it")
        for (name, id) in saved {
            let row = try #require(cache.row(for: id, maxAge: -1))
            #expect(row.snapshot.attributes["name"] as? String == name + "!")
            #expect(row.version == 2)
        }
        second.performAndWait {
            second.refreshAllObjects()
            #expect(secondPhotos.allSatisfy { ($0.value(forKey: "name") as! String).hasSuffix("!") })
        }
        withExtendedLifetime((firstPhotos, secondPhotos)) {}
    }

    /// A child context makes its objects by ID from its parent's fetch; those IDs equal the saved ones.
    @Test func aChildContextsFetchGivesTheSameIDs() throws {
        let (writer, saved) = try Self.savedPhotos()
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = TestStack.sibling(of: writer)
        try child.performAndWait {
            let photos = try Self.fetchLoaded(child)
            #expect(Set(photos.map(\.objectID)) == Set(saved.values))
        }
    }

    /// The two forms of one record agree on everything a table asks: the
    /// hash, the name; they are identical only to themselves.
    @Test func bothFormsOfARecordHashAndCompareAlike() throws {
        let (writer, saved) = try Self.savedPhotos()
        defer { withExtendedLifetime(writer) {} }  // the IDs' store, which a twin family names
        for id in saved.values {
            let primaryKey = try #require(id.primaryKey)
            let asID = RecordIdentity.id(id), asRecord = RecordIdentity.record(id.family, primaryKey: primaryKey)
            for seed in [0, 1, 0x5eed, -7] {
                #expect(asID.tableHash(seed: seed) == asRecord.tableHash(seed: seed))
                #expect(asRecord.tableHash(seed: seed) == id.tableHash(seed: seed))
            }
            #expect(asRecord.isNamed(by: id) && asID.isNamed(by: id))
            #expect(asRecord.objectID == id && asRecord.objectID !== asRecord.objectID)
            #expect(asID.objectID === id)
            #expect(asRecord.isIdentical(to: asRecord) && asID.isIdentical(to: asID))
            #expect(!asRecord.isIdentical(to: asID))
            #expect(asRecord.namesSameRecord(as: asID) && asID.namesSameRecord(as: asRecord))
            #expect(asRecord.namesSameRecord(as: .record(id.family, primaryKey: primaryKey)))
            #expect(asRecord.madeID == nil && asID.madeID === id)
            #expect(asRecord.family === id.family && asID.family === id.family)
            // Another family object of the same entity and store names the same records.
            let twin = RecordIdentity.record(ObjectIDFamily(entity: id.entity, store: id.persistentStore),
                                             primaryKey: primaryKey)
            #expect(twin.namesSameRecord(as: asRecord) && twin.namesSameRecord(as: asID) && twin.isNamed(by: id))
            #expect(!twin.isIdentical(to: asRecord) && twin.tableHash(seed: 3) == asRecord.tableHash(seed: 3))
            #expect(asRecord.permanentRecord.primaryKey == primaryKey && asID.permanentRecord.family === id.family)
            #expect(asRecord.primaryKey == primaryKey && asRecord.entity === id.entity)
        }
        let ids = Array(saved.values)
        // The key that marks an ID in the identity's second word: a damaged store's record of that key gets an ID.
        let lowest = RecordIdentity.record(ids[0].family, primaryKey: .min)
        #expect(lowest.madeID != nil && lowest.primaryKey == .min && lowest.family === ids[0].family)
        #expect(lowest.objectID == NSManagedObjectID(family: ids[0].family, key: .permanent(.min)))
        #expect(lowest.namesSameRecord(as: .record(ObjectIDFamily(entity: ids[0].entity, store: ids[0].persistentStore),
                                                   primaryKey: .min)))
        let other = RecordIdentity.record(ids[0].family, primaryKey: ids[0].primaryKey! + 1_000)
        #expect(!other.isNamed(by: ids[0]))
        #expect(!other.namesSameRecord(as: .id(ids[0])) && !RecordIdentity.id(ids[0]).namesSameRecord(as: other))
        #expect(!other.namesSameRecord(as: .record(ids[0].family, primaryKey: ids[0].primaryKey!)))
        #expect(!other.isIdentical(to: .record(ids[0].family, primaryKey: ids[0].primaryKey!)))
    }
}
