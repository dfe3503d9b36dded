import Foundation
import Testing
@testable import OpenCoreDataCore

/// A fetch with `returnsObjectsAsFaults = false` loads its objects from the
/// records it read in the same SELECT, as Core Data fills them from the
/// fetch's own rows: no second read, whatever the staleness interval.
@Suite struct FetchLoadingTests {
    @Test func objectsLoadFromTheFetchsOwnRecords() throws {
        let context = try TestStack.albumsWithPhotos()
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first as? SQLiteStore)
        try context.performAndWait { () throws in
            // 0 accepts no cached row: before, the loads after the fetch read every record again.
            context.stalenessInterval = 0
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            request.returnsObjectsAsFaults = false
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            let before = store.recordQueryCount
            let photos = try context.fetch(request)
            #expect(store.recordQueryCount == before)
            #expect(photos.count == 30)
            #expect(photos.allSatisfy { !$0.isFault })
            #expect(photos.first?.value(forKey: "name") as? String == "p0-0")
            #expect((photos.last?.value(forKey: "album") as? NSManagedObject)?.value(forKey: "name") as? String == "a2")
        }
    }

    /// Objects already loaded keep their unsaved values; faults among the
    /// results are loaded from the fetch's records.
    @Test func loadedObjectsKeepTheirChanges() throws {
        let context = try TestStack.albumsWithPhotos()
        try context.performAndWait { () throws in
            let first = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Photo"))
            first[0].setValue("renamed", forKey: "name")
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            request.returnsObjectsAsFaults = false
            request.includesPendingChanges = false
            let again = try context.fetch(request)
            #expect(again.contains { $0 === first[0] })
            #expect(first[0].value(forKey: "name") as? String == "renamed")
            #expect(again.allSatisfy { !$0.isFault })
        }
    }
}
