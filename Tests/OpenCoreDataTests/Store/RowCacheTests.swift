import Foundation
import Testing
@testable import OpenCoreDataCore

/// The coordinator's row cache: a record some object holds is not read from
/// the store again by another context, unless the context's
/// `stalenessInterval` says the row is too old. Apple: stalenessInterval is
/// "the maximum length of time that may have elapsed since the store
/// previously fetched data before fulfilling a fault issues a new fetch
/// rather than using the previously-fetched data"; negative (the default)
/// means infinite, 0 means no staleness is acceptable (NSManagedObjectContext.h).
@Suite struct RowCacheTests {
    static func setUp() throws -> (NSManagedObjectContext, NSManagedObjectContext, SQLiteStore, [NSManagedObject]) {
        let writer = try TestStack.context(TestStack.albumsModel(), .sqlite)
        let photos = try writer.performAndWait { () throws in
            let photos = (0..<5).map { TestStack.insert("Photo", into: writer, ["name": "p\($0)", "index": $0]) }
            try writer.save()
            return photos
        }
        let store = try #require(writer.persistentStoreCoordinator?.persistentStores.first as? SQLiteStore)
        return (writer, TestStack.sibling(of: writer), store, photos)
    }

    @Test func anotherContextFiresFaultsFromTheCache() throws {
        // The writer stays alive: its objects hold the rows (a released
        // context turns its objects into faults, which lets their rows go).
        let (writer, other, store, photos) = try Self.setUp()
        defer { withExtendedLifetime(writer) {} }
        try other.performAndWait { () throws in
            let before = store.recordQueryCount
            #expect(photos.map { other.object(with: $0.objectID).value(forKey: "name") as? String }
                    == ["p0", "p1", "p2", "p3", "p4"])
            #expect(try other.existingObject(with: photos[0].objectID).value(forKey: "index") as? Int16 == 0)
            #expect(store.recordQueryCount == before)

            other.stalenessInterval = 0
            let fault = other.object(with: photos[1].objectID)
            #expect(fault.isFault)
            _ = fault.value(forKey: "name")
            #expect(store.recordQueryCount == before + 1)
        }
    }

    @Test func rowsOlderThanTheStalenessIntervalAreReadAgain() throws {
        let (writer, other, store, photos) = try Self.setUp()
        defer { withExtendedLifetime(writer) {} }
        try other.performAndWait { () throws in
            other.stalenessInterval = 0.05
            let before = store.recordQueryCount
            _ = other.object(with: photos[0].objectID).value(forKey: "name")
            #expect(store.recordQueryCount == before)
            Thread.sleep(forTimeInterval: 0.1)
            _ = other.object(with: photos[1].objectID).value(forKey: "name")
            #expect(store.recordQueryCount == before + 1)
        }
    }

    /// A save replaces the cached rows, and a delete removes them: another
    /// context's faults see the saved values, and a deleted record's fault
    /// reads as deleted.
    @Test func savesAndDeletesUpdateTheCache() throws {
        let (writer, other, store, photos) = try Self.setUp()
        try writer.performAndWait { () throws in
            photos[0].setValue("renamed", forKey: "name")
            writer.delete(photos[1])
            try writer.save()
        }
        try other.performAndWait { () throws in
            let before = store.recordQueryCount
            #expect(other.object(with: photos[0].objectID).value(forKey: "name") as? String == "renamed")
            #expect(store.recordQueryCount == before)
            let deleted = other.object(with: photos[1].objectID)
            _ = deleted.value(forKey: "name")
            #expect(deleted.isDeleted)
            #expect(throws: NSError.self) { try other.existingObject(with: photos[1].objectID) }
        }
    }

    /// Changes written by another coordinator (another process, as far as this
    /// one knows) are not seen through cached rows until they are too old or a
    /// fetch asks for them with `shouldRefreshRefetchedObjects`.
    @Test func shouldRefreshRefetchedObjectsReadsTheStore() throws {
        let (writer, _, _, photos) = try Self.setUp()
        let outsider = try TestStack.reader(of: writer)
        try outsider.performAndWait { () throws in
            let object = try outsider.existingObject(with: outsider.persistentStoreCoordinator!
                .managedObjectID(forURIRepresentation: photos[0].objectID.uriRepresentation())!)
            object.setValue("outside", forKey: "name")
            try outsider.save()
        }
        try writer.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            photos[0].setValue(Int16(7), forKey: "index")
            writer.refresh(photos[0], mergeChanges: true)
            #expect(photos[0].value(forKey: "name") as? String == "p0")
            // Only the store sees the outside name; the object's own values do not match.
            request.predicate = NSPredicate(format: "name == 'outside'")
            request.includesPendingChanges = false
            #expect(try writer.fetch(request).first === photos[0])
            #expect(photos[0].value(forKey: "name") as? String == "p0")
            request.shouldRefreshRefetchedObjects = true
            #expect(try writer.fetch(request).first === photos[0])
            #expect(photos[0].value(forKey: "name") as? String == "outside")
            #expect(photos[0].value(forKey: "index") as? Int16 == 7)
            #expect(photos[0].changedValues().keys.sorted() == ["index"])
        }
    }
}
