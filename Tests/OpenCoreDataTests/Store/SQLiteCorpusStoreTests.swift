import Testing
import GRDB
@testable import OpenCoreData

/// Stores written by Core Data (shared/corpus/stores, copied with their
/// -wal/-shm first), opened with their paired models: every object of every
/// entity is fetched and read, or the store is refused with an error because
/// its tables differ from the model's layout — never read wrongly.
@Suite(.enabled(if: Corpus.stores != nil && Corpus.models != nil, "shared/corpus is absent"))
struct SQLiteCorpusStoreTests {
    @Test func everyObjectOfPairedStoresReads() throws {
        var opened = 0, refused = 0, objects = 0
        for (store, models) in try SQLiteSchemaCorpusTests.pairings() {
            guard let model = models.lazy.compactMap({ try? NSManagedObjectModel.load(contentsOf: $0) }).first else { continue }
            let copy = try SQLiteMetadataTests.copy(store)
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            do {
                // Our version hashes are not Apple's, so the check is skipped; the layout check still runs.
                try coordinator.addPersistentStore(type: .sqlite, at: copy, options: [NSIgnorePersistentStoreVersioningOption: true,
                                                                                      NSReadOnlyPersistentStoreOption: true])
            } catch let error as NSError {
                #expect(error.domain == NSCocoaErrorDomain, "\(store.lastPathComponent): \(error)")
                refused += 1
                continue
            }
            opened += 1
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            let sqlite = try #require(coordinator.persistentStores.first as? SQLiteStore)
            let raw = try DatabaseQueue(path: copy.path)
            for entity in model.entities {
                guard let mapped = sqlite.mapping.entity(entity) else { continue }
                let request = NSFetchRequest<NSManagedObject>(entityName: entity.name!)
                request.includesSubentities = false
                let fetched = try context.fetch(request)
                let expected = try raw.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM \(mapped.table) WHERE Z_ENT = \(mapped.number)") }
                #expect(fetched.count == expected, "\(store.lastPathComponent) \(entity.name!)")
                for object in fetched {
                    for (name, property) in entity.propertiesByName where !property.isTransient {
                        _ = object.value(forKey: name)
                    }
                    #expect(!object.isFault)
                }
                objects += fetched.count
            }
        }
        print("SQLiteCorpusStoreTests: \(opened) Core Data stores opened, \(objects) objects read, \(refused) refused")
        #expect(opened >= 5 && objects > 100)
    }
}
