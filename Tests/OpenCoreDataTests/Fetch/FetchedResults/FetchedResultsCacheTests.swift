import Testing
@testable import OpenCoreDataCore
import TestScratch

/// `cacheName`: computed sections kept in a file, checked against the store
/// (reference §6.1: "Cached sections are checked to see if the time stamp
/// matches the store").
@Suite(.serialized) struct FetchedResultsCacheTests {
    func controller(_ context: NSManagedObjectContext, cacheName: String, predicate: NSPredicate? = nil) -> NSFetchedResultsController<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
        request.sortDescriptors = [NSSortDescriptor(key: "group", ascending: true), NSSortDescriptor(key: "rank", ascending: true)]
        request.predicate = predicate
        return NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "group", cacheName: cacheName)
    }

    @Test func cachedSectionsAreReusedUntilTheStoreChanges() throws {
        let name = "cache-\(UUID().uuidString)"
        defer { NSFetchedResultsController<NSManagedObject>.deleteCache(withName: name) }
        let context = try FetchedResultsControllerTests.items([("a1", 1, "a"), ("b1", 2, "b"), ("a2", 0, "a")])
        let first = controller(context, cacheName: name)
        try first.performFetch()
        // A store without a file keeps its caches in the user's caches folder, which the tests point
        // into their scratch folder (TestStack).
        let file = FetchedResultsCache.userCachesFolder.appendingPathComponent("\(name).plist")
        #expect(FileManager.default.fileExists(atPath: file.path))
        #expect(file.path.hasPrefix(ScratchDirectory.root.path + "/"))
        #expect(FetchedResultsCache.standardUserCachesFolder == FileManager.default.urls(
            for: .cachesDirectory, in: .userDomainMask)[0].appendingPathComponent("OpenCoreData/FetchedResultsCaches"))

        // Another context reads the sections from the cache: no fetch, objects stay faults.
        let reader = TestStack.sibling(of: context)
        let cached = controller(reader, cacheName: name)
        try cached.performFetch()
        #expect(cached.fetchedObjects?.allSatisfy(\.isFault) == true)
        #expect(cached.sections?.map(\.name) == ["a", "b"])
        #expect(cached.fetchedObjects?.map { $0.value(forKey: "name") as! String } == ["a2", "a1", "b1"])

        // A different request under the same name does not use it.
        let other = controller(TestStack.sibling(of: context), cacheName: name, predicate: NSPredicate(format: "rank > 0"))
        try other.performFetch()
        #expect(other.fetchedObjects?.map { $0.value(forKey: "name") as! String } == ["a1", "b1"])

        // After a save the store's stamp differs: the cache is ignored and rewritten.
        let item = TestStack.insert("Item", into: context, ["name": "c1", "rank": 0, "visible": true, "group": "c"])
        try context.save()
        _ = item
        let afterSave = controller(TestStack.sibling(of: context), cacheName: name)
        try afterSave.performFetch()
        #expect(afterSave.sections?.map(\.name) == ["a", "b", "c"])

        NSFetchedResultsController<NSManagedObject>.deleteCache(withName: name)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func cachesLieBesideAStoreWithAFile() throws {
        let folder = ScratchDirectory.url("frc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: FetchedResultsModels.items())
        try coordinator.addPersistentStore(type: .inMemory, at: folder.appendingPathComponent("Items.store"))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        _ = TestStack.insert("Item", into: context, ["name": "a", "rank": 1, "group": "a"])
        try context.save()
        try controller(context, cacheName: "beside").performFetch()
        let file = folder.appendingPathComponent("Items.store-FRCCaches/beside.plist")
        #expect(FileManager.default.fileExists(atPath: file.path))
        NSFetchedResultsController<NSManagedObject>.deleteCache(withName: nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test(.enabled(if: FetchedResultsModels.storeTypes.contains(.sqlite)))
    func sqliteCachesSurviveRelaunchesUntilTheFileChanges() throws {
        let folder = ScratchDirectory.url("frc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Items.sqlite")
        // Each "launch" is a new coordinator on the same file.
        func launch() throws -> NSManagedObjectContext {
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: FetchedResultsModels.items())
            try coordinator.addPersistentStore(type: .sqlite, at: url)
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            return context
        }
        let first = try launch()
        for (name, rank, group) in [("a1", 1, "a"), ("b1", 2, "b"), ("a2", 0, "a")] {
            _ = TestStack.insert("Item", into: first, ["name": name, "rank": rank, "group": group])
        }
        try first.save()
        try controller(first, cacheName: "launches").performFetch()
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("Items.sqlite-FRCCaches/launches.plist").path))

        let second = try launch()
        let cached = controller(second, cacheName: "launches")
        try cached.performFetch()
        #expect(cached.fetchedObjects?.allSatisfy(\.isFault) == true)
        #expect(cached.fetchedObjects?.map { $0.value(forKey: "name") as! String } == ["a2", "a1", "b1"])

        _ = TestStack.insert("Item", into: second, ["name": "c1", "rank": 0, "group": "c"])
        try second.save()
        let third = try launch()
        let refetched = controller(third, cacheName: "launches")
        try refetched.performFetch()
        #expect(refetched.fetchedObjects?.map { $0.value(forKey: "name") as! String } == ["a2", "a1", "b1", "c1"])
    }

    @Test func trackingWorksOnCachedResults() throws {
        let name = "cache-\(UUID().uuidString)"
        defer { NSFetchedResultsController<NSManagedObject>.deleteCache(withName: name) }
        let context = try FetchedResultsControllerTests.items([("a1", 1, "a"), ("b1", 2, "b"), ("a2", 0, "a")])
        try controller(context, cacheName: name).performFetch()
        let reader = TestStack.sibling(of: context)
        let cached = controller(reader, cacheName: name)
        let recorder = FetchedResultsRecorder()
        cached.delegate = recorder
        try cached.performFetch()
        #expect(cached.fetchedObjects?.allSatisfy(\.isFault) == true)
        let before = TableModel(cached)
        let a2 = cached.object(at: IndexPath(row: 0, section: 0))
        a2.setValue("b", forKey: "group")
        reader.processPendingChanges()
        #expect(try before.replaying(recorder.take()).get() == TableModel(cached))
        #expect(cached.sections?.map { $0.numberOfObjects } == [1, 2])
    }
}
