import Foundation
import Testing
@testable import OpenCoreDataCore

/// `fetchBatched`: Core Data's batch-faulting array. "When the fetch is
/// executed, the entire request is evaluated and the identities of all
/// matching objects recorded, but only data for objects up to the batchSize
/// will be fetched from the persistent store at a time … the array returned
/// … automatically faults in batches as you access them"
/// (NSFetchRequest.fetchBatchSize, Apple's documentation).
@Suite struct BatchFaultingArrayTests {
    static func context(_ kind: TestStack.StoreKind, photos: Int, albums: Int = 4) throws -> NSManagedObjectContext {
        let writer = try TestStack.context(TestStack.albumsModel(), kind)
        try writer.performAndWait { () throws in
            let owners = (0..<albums).map { TestStack.insert("Album", into: writer, ["name": "album\($0)"]) }
            for index in 0..<photos {
                let photo = TestStack.insert("Photo", into: writer, ["name": String(format: "photo%05d", index), "index": index % 50])
                photo.setValue(owners[index % albums], forKey: "album")
            }
            try writer.save()
            // Albums and photos hold each other; reset breaks the cycles, so
            // no saved object keeps its record in the row cache.
            writer.reset()
        }
        return TestStack.sibling(of: writer)
    }

    static func request(batchSize: Int) -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: false)]
        request.fetchBatchSize = batchSize
        return request
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func elementsMatchTheEagerFetch(kind: TestStack.StoreKind) throws {
        let context = try Self.context(kind, photos: 1_000)
        try context.performAndWait { () throws in
            for configure in [{ (_: NSFetchRequest<NSManagedObject>) in },
                              { $0.predicate = NSPredicate(format: "index < 10 AND album.name != 'album2'") },
                              { $0.fetchOffset = 95; $0.fetchLimit = 230 }] {
                let request = Self.request(batchSize: 100)
                configure(request)
                let batched = try context.fetchBatched(request)
                let eager = try context.fetch(request)
                #expect(batched.count == eager.count)
                #expect(batched.map { $0.value(forKey: "name") as! String } == eager.map { $0.value(forKey: "name") as! String })
                #expect(zip(batched, eager).allSatisfy { $0 === $1 })
            }
        }
    }

    /// Reading one element loads its batch only, with one record read; a walk
    /// that keeps no references ends with one batch registered.
    @Test func loadsOneBatchAtATime() throws {
        let context = try Self.context(.sqlite, photos: 1_000)
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first as? SQLiteStore)
        try context.performAndWait { () throws in
            let batched = try context.fetchBatched(Self.request(batchSize: 100))
            #expect(batched.count == 1_000)
            #expect(context.registeredObjects.isEmpty)
            let before = store.recordQueryCount
            #expect(batched[250].value(forKey: "name") as? String == "photo00749")
            #expect(store.recordQueryCount == before + 1)
            #expect(context.registeredObjects.filter { $0.entity.name == "Photo" && !$0.isFault }.count == 100)
            _ = batched[299]
            _ = batched[200]
            #expect(store.recordQueryCount == before + 1)
            var names = Set<String>()
            for photo in batched { names.insert(photo.value(forKey: "name") as! String) }
            #expect(names.count == 1_000)
            // Ten batches, the one read first included: it was let go when the walk began.
            #expect(store.recordQueryCount == before + 11)
            // The registry's storage holds a few batches at most, not every batch walked: the objects
            // let go are dropped before it grows (the benchmark's 1M walk needs that to stay bounded).
            #expect(context.registered.storageCount < 400, "\(context.registered.storageCount) entries")
            #expect(context.registeredObjects.filter { $0.entity.name == "Photo" }.count == 100)
        }
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func prefetchesRelationshipsPerBatch(kind: TestStack.StoreKind) throws {
        let context = try Self.context(kind, photos: 300)
        try context.performAndWait { () throws in
            let request = Self.request(batchSize: 50)
            request.relationshipKeyPathsForPrefetching = ["album"]
            let batched = try context.fetchBatched(request)
            let photo = batched[120]
            let album = try #require(photo.primitiveValue(forKey: "album") as? NSManagedObject)
            #expect(!album.isFault)
            #expect(album.value(forKey: "name") as? String == "album\(Int((photo.value(forKey: "name") as! String).dropFirst(5))! % 4)")
        }
    }

    /// With unsaved changes the result merges them as `fetch` does; other
    /// result types and no batch size give the eager result.
    @Test(arguments: TestStack.StoreKind.allCases)
    func fallsBackToTheEagerResult(kind: TestStack.StoreKind) throws {
        let context = try Self.context(kind, photos: 120)
        try context.performAndWait { () throws in
            TestStack.insert("Photo", into: context, ["name": "photo99999"])
            let withInsert = try context.fetchBatched(Self.request(batchSize: 10))
            #expect(withInsert.count == 121)
            #expect(withInsert.first?.value(forKey: "name") as? String == "photo99999")
            context.rollback()
            let ids = NSFetchRequest<NSManagedObjectID>(entityName: "Photo")
            ids.resultType = .managedObjectIDResultType
            ids.fetchBatchSize = 10
            #expect(try context.fetchBatched(ids).count == 120)
            #expect(try context.fetchBatched(Self.request(batchSize: 0)).count == 120)
        }
    }

    @Test func badKeyPathsThrowBeforeSelecting() throws {
        let context = try Self.context(.sqlite, photos: 10)
        context.performAndWait {
            let request = Self.request(batchSize: 5)
            request.predicate = NSPredicate(format: "nope == 1")
            #expect(throws: NSError.self) { try context.fetchBatched(request) }
            let prefetch = Self.request(batchSize: 5)
            prefetch.relationshipKeyPathsForPrefetching = ["albm"]
            #expect(throws: NSError.self) { try context.fetchBatched(prefetch) }
        }
    }
}
