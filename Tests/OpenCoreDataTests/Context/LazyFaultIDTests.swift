import Foundation
import Testing
@testable import OpenCoreDataCore

/// A fetch of faults (`includesPropertyValues = false`) makes each fault
/// from its record's key, without an `NSManagedObjectID`: the ID is made when
/// first asked for (issue 13 bounds a fault at 150 bytes; the ID's block is
/// 48). What that must keep: the ID asked for later is the store's ID of the
/// record, the context finds the same object by record and by ID before and
/// after the ID is made, and the fault fires as any other. A fetch that reads
/// the records caches their rows: another context finds them by ID, and a save
/// replaces them.
@Suite struct LazyFaultIDTests {
    /// Every photo by name, fetched as `configure` sets the request up.
    private static func photos(in context: NSManagedObjectContext,
                               _ configure: (NSFetchRequest<NSManagedObject>) -> Void) throws -> [NSManagedObject] {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        configure(request)
        return try context.fetch(request)
    }

    private static func faults(in context: NSManagedObjectContext) throws -> [NSManagedObject] {
        try photos(in: context) { $0.includesPropertyValues = false }
    }

    @Test func aFetchedFaultMakesItsIDOnlyWhenAskedFor() throws {
        let context = try TestStack.albumsWithPhotos()
        try context.performAndWait {
            let photos = try Self.faults(in: context)
            #expect(photos.count == 30 && photos.allSatisfy(\.isFault))
            #expect(photos.allSatisfy { !$0.holdsObjectID }, "no fault made its ID")
            let store = try #require(context.persistentStoreCoordinator?.persistentStores.first)
            let id = photos[0].objectID
            #expect(photos[0].holdsObjectID && !photos[1].holdsObjectID)
            #expect(!id.isTemporaryID && id.persistentStore === store && id.entity.name == "Photo")
            #expect(id == photos[0].objectID && id.uriRepresentation().absoluteString.hasPrefix("x-coredata://"))
        }
    }

    /// Found by ID before its ID exists, and by record after it does: one object either way.
    @Test func theContextFindsOneObjectByRecordAndByID() throws {
        let context = try TestStack.albumsWithPhotos()
        try context.performAndWait {
            let photos = try Self.faults(in: context)
            let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            reader.persistentStoreCoordinator = context.persistentStoreCoordinator
            let ids = try reader.performAndWait { try Self.faults(in: reader).map(\.objectID) }
            for (photo, id) in zip(photos, ids) {
                #expect(!photo.holdsObjectID)
                #expect(context.object(with: id) === photo, "the ID finds the fault made from its record")
            }
            #expect(zip(try Self.faults(in: context), photos).allSatisfy { $0 === $1 }, "a refetch finds them again")
            _ = photos.map(\.objectID)
            #expect(zip(try Self.faults(in: context), photos).allSatisfy { $0 === $1 }, "and once their IDs exist")
            #expect(Set(photos.map(\.objectID)).count == 30)
        }
    }

    @Test func aFaultMadeFromItsRecordFiresAndSaves() throws {
        let context = try TestStack.albumsWithPhotos()
        try context.performAndWait {
            let photo = try #require(try Self.faults(in: context).first)
            #expect(photo.value(forKey: "name") as? String == "p0-0")
            #expect(!photo.isFault && !photo.holdsObjectID, "firing read the record by its key, without the ID")
            photo.setValue("renamed", forKey: "name")
            try context.save()
            context.reset()
            let again = try #require(try Self.faults(in: context).first {
                $0.value(forKey: "name") as? String == "renamed"
            })
            #expect(again.objectID == photo.objectID)
        }
    }

    /// Faults made from records fire by key, alone or in a batch, without making their IDs: from the row
    /// cache when it holds a fresh row (within the context's `stalenessInterval`), else from the store, a batch
    /// of one family in one query. An object listed twice is loaded once; a record deleted from the store
    /// leaves its fault a fault in a batch, and makes it inaccessible when it fires alone.
    @Test func faultsMadeFromRecordsFireByKey() throws {
        let context = try TestStack.albumsWithPhotos()
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first as? SQLiteStore)
        let names = (0..<3).flatMap { a in (0..<10).map { "p\(a)-\($0)" } }
        // Another context holds every photo loaded, so the cache keeps their rows.
        let holder = TestStack.sibling(of: context)
        let held = try holder.performAndWait { try Self.records(in: holder) }
        try withExtendedLifetime(held) {
            try context.performAndWait {
                let photos = try Self.faults(in: context)
                let reads = store.recordQueryCount
                #expect(photos[3].value(forKey: "name") as? String == names[3])
                context.fulfillFaults(photos + photos.prefix(5))
                #expect(store.recordQueryCount == reads, "fresh rows come from the cache")
                #expect(photos.map { $0.value(forKey: "name") as? String } == names)
                #expect(photos.allSatisfy { !$0.holdsObjectID }, "no ID was made")

                context.reset()
                context.stalenessInterval = 0  // no cached row is fresh enough
                let again = try Self.faults(in: context)
                #expect(again[7].value(forKey: "name") as? String == names[7])
                #expect(store.recordQueryCount == reads + 1, "a fault fired alone reads its record")
                context.fulfillFaults(again.reversed() + again.prefix(5))
                #expect(store.recordQueryCount == reads + 2, "the other 29 in one query")
                #expect(again.map { $0.value(forKey: "name") as? String } == names)
                #expect(again.allSatisfy { !$0.holdsObjectID && $0.committedRow != nil })
            }
        }
        // Two photos deleted behind the context's back.
        let deleter = TestStack.sibling(of: context)
        try context.performAndWait {
            context.reset()
            let photos = try Self.faults(in: context)
            try deleter.performAndWait {
                for id in [photos[2], photos[5]].map(\.objectID) { deleter.delete(deleter.object(with: id)) }
                try deleter.save()
            }
            context.fulfillFaults(photos)
            #expect(photos.map(\.isFault) == photos.indices.map { [2, 5].contains($0) })
            #expect(photos[5].value(forKey: "name") == nil && photos[5].isDeleted, "a lost record's fault fires empty")
        }
    }

    /// A batched fetch makes each batch's faults from the store's keys and reads their records by key:
    /// one query a batch, the values in the fetch's order, and no ID made.
    @Test func aBatchedFetchReadsEachBatchByKey() throws {
        let context = try TestStack.albumsWithPhotos()
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first as? SQLiteStore)
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: false)]
            request.fetchBatchSize = 7
            let photos = try context.fetchBatched(request)
            let reads = store.recordQueryCount
            var seen: [NSManagedObject] = []
            for photo in photos {
                #expect(!photo.isFault)
                seen.append(photo)
            }
            #expect(seen.map { $0.value(forKey: "name") as? String }
                    == (0..<3).flatMap { a in (0..<10).map { "p\(a)-\($0)" } }.reversed())
            #expect(store.recordQueryCount == reads + 5, "one read for each of the 5 batches")
            #expect(seen.allSatisfy { !$0.holdsObjectID })
            #expect(seen.map(\.objectID) == (try Self.storedIDs(context)).reversed(), "IDs made later are the store's")
        }
    }

    private static func records(in context: NSManagedObjectContext, asFaults: Bool = false) throws
        -> [NSManagedObject] {
        try photos(in: context) { $0.returnsObjectsAsFaults = asFaults }
    }

    /// The photos' IDs by name, read by another context on the same coordinator.
    private static func storedIDs(_ context: NSManagedObjectContext) throws -> [NSManagedObjectID] {
        let reader = TestStack.sibling(of: context)
        let request = NSFetchRequest<NSManagedObjectID>(entityName: "Photo")
        request.resultType = .managedObjectIDResultType
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        return try reader.performAndWait { try reader.fetch(request) }
    }

    /// Loaded objects (`returnsObjectsAsFaults = false`) and the default fetch's faults, which get
    /// the rows read with them: their values come with the fetch, and their IDs are the store's.
    @Test(arguments: [false, true]) func aFetchThatReadsRecordsNeedsNoSecondRead(asFaults: Bool) throws {
        let context = try TestStack.albumsWithPhotos()
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first as? SQLiteStore)
        let ids = try Self.storedIDs(context)
        try context.performAndWait {
            let photos = try Self.records(in: context, asFaults: asFaults)
            #expect(photos.count == 30 && photos.allSatisfy { $0.isFault == asFaults })
            let reads = store.recordQueryCount
            #expect(photos.map { $0.value(forKey: "name") as? String }
                    == (0..<3).flatMap { a in (0..<10).map { "p\(a)-\($0)" } })
            #expect(store.recordQueryCount == reads, "the values came with the fetch")
            #expect(photos.map(\.objectID) == ids)
            #expect(photos.allSatisfy { $0.objectID.persistentStore === store && !$0.objectID.isTemporaryID })
            #expect(zip(ids, photos).allSatisfy { context.object(with: $0) === $1 })
            #expect(zip(try Self.records(in: context), photos).allSatisfy { $0 === $1 }, "a refetch finds them")
        }
    }

    /// The rows a fetch cached are found by the records' IDs: another context's fault, made from
    /// an ID, fires from the cache without reading the store.
    @Test func theRowCacheFindsAFetchedRowByID() throws {
        let context = try TestStack.albumsWithPhotos()
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first as? SQLiteStore)
        let ids = try Self.storedIDs(context)
        // Held, so that the cache keeps their rows (it drops rows no object uses).
        let photos = try context.performAndWait { try Self.records(in: context) }
        let other = TestStack.sibling(of: context)
        withExtendedLifetime(photos) {
            other.performAndWait {
                let reads = store.recordQueryCount
                let photo = other.object(with: ids[4])
                #expect(photo.isFault && photo.value(forKey: "name") as? String == "p0-4")
                #expect(store.recordQueryCount == reads, "the fault fired from the cached row")
            }
        }
    }

    /// A save of a fetched object replaces the row the fetch cached: no context reads the old values
    /// again, whether it asks by ID or fetches.
    @Test func aSaveReplacesTheRowAFetchCached() throws {
        let context = try TestStack.albumsWithPhotos()
        let ids = try Self.storedIDs(context)
        try context.performAndWait {
            let photo = try #require(try Self.records(in: context).first)
            photo.setValue("renamed", forKey: "name")
            try context.save()
        }
        let other = TestStack.sibling(of: context)
        try other.performAndWait {
            #expect(other.object(with: ids[0]).value(forKey: "name") as? String == "renamed")
            other.reset()
            let names = try Self.records(in: other).map { $0.value(forKey: "name") as? String }
            #expect(names.contains("renamed") && !names.contains("p0-0"))
        }
        try context.performAndWait {
            context.reset()
            let again = try Self.records(in: context, asFaults: true)
            #expect(again.last?.value(forKey: "name") as? String == "renamed")
            #expect(again.last?.objectID == ids[0])
        }
    }
}
