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
            #expect(!photo.isFault && photo.holdsObjectID, "firing asked for the ID")
            photo.setValue("renamed", forKey: "name")
            try context.save()
            context.reset()
            let again = try #require(try Self.faults(in: context).first {
                $0.value(forKey: "name") as? String == "renamed"
            })
            #expect(again.objectID == photo.objectID)
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
