import Testing
import GRDB
@testable import OpenCoreDataCore

/// Stores Core Data wrote, changed and saved by OpenCoreData (on copies):
/// SQLite's own integrity check passes and the change reads back after reopening.
@Suite(.enabled(if: Corpus.stores != nil && Corpus.models != nil, "shared/corpus is absent"))
struct SQLiteCorpusWriteTests {
    static let marker = "changed by OpenCoreData"

    @Test func changedStoresStayIntactAndReadBack() throws {
        var saved = 0
        for (store, models) in try SQLiteSchemaCorpusTests.pairings() {
            guard let (coordinator, copy, modelURL) = try? SQLiteCorpusStoreTests.open(store, models: models, readOnly: false) else { continue }
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            // The first object with an optional string attribute: changing it breaks no validation rule.
            var target: (entity: String, key: String, id: NSManagedObjectID)?
            for entity in coordinator.managedObjectModel.entities where !entity.isAbstract && target == nil {
                guard let key = entity.attributesByName.values.filter({ $0.attributeType == .stringAttributeType && $0.isOptional && !$0.isTransient })
                    .map(\.name).sorted().first else { continue }
                let request = NSFetchRequest<NSManagedObject>(entityName: entity.name!)
                request.fetchLimit = 1
                if let object = try context.fetch(request).first {
                    object.setValue(Self.marker, forKey: key)
                    target = (entity.name!, key, object.objectID)
                }
            }
            guard let target else { continue }
            try context.save()
            try coordinator.remove(coordinator.persistentStores[0])

            let check = try DatabaseQueue(path: copy.path).read { try String.fetchOne($0, sql: "PRAGMA integrity_check") }
            #expect(check == "ok", "\(store.lastPathComponent): \(check ?? "")")
            let reopened = try NSPersistentStoreCoordinator(managedObjectModel: NSManagedObjectModel.load(contentsOf: modelURL))
            try reopened.addPersistentStore(type: .sqlite, at: copy, options: [NSIgnorePersistentStoreVersioningOption: true])
            let readBack = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            readBack.persistentStoreCoordinator = reopened
            let request = NSFetchRequest<NSManagedObject>(entityName: target.entity)
            request.predicate = NSPredicate(format: "%K == %@", target.key, Self.marker)
            let found = try readBack.fetch(request)
            #expect(found.count == 1, "\(store.lastPathComponent) \(target.entity).\(target.key)")
            #expect(found.first?.objectID.uriRepresentation().lastPathComponent == target.id.uriRepresentation().lastPathComponent)
            // Everything else still reads, counts agree with SQL and inverses hold.
            var tally = SQLiteCorpusStoreTests.Tally(), failures: [String] = []
            try SQLiteCorpusStoreTests().read(reopened, copy: copy, store: store.lastPathComponent, tally: &tally, failures: &failures)
            #expect(failures.isEmpty, "\(failures)")
            saved += 1
        }
        print("SQLiteCorpusWriteTests: \(saved) Core Data stores changed, saved, integrity-checked and reopened")
        #expect(saved >= 15)
    }
}

/// Transformable values in Core Data stores decode through the default
/// transformer (a keyed archive), and values OpenCoreData archives read back.
@Suite(.enabled(if: Corpus.stores != nil && Corpus.models != nil, "shared/corpus is absent"))
struct SQLiteCorpusTransformableTests {
    /// BookMigration's Book.fileURL names no transformer: its values, keyed
    /// archives of NSString (file names, despite the attribute's name) written
    /// on an Apple device, decode on Linux; a URL archived here reads back.
    @Test func keyedArchivesFromAppleDevicesDecode() throws {
        let store = try #require(Corpus.stores).appendingPathComponent("hwaxxer__BookMigration__BookMigration_Model1.sqlite")
        let model = try #require(Corpus.models).appendingPathComponent("hwaxxer__BookMigration__Model__Model1.xml")
        let (coordinator, copy, _) = try SQLiteCorpusStoreTests.open(store, models: [model], readOnly: false)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let books = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book"))
        let names = books.compactMap { $0.value(forKey: "fileURL") as? String }.sorted()
        #expect(names == ["Cosmos.file", "Extinction.file", "Metamorphosis.file", "The Trial.file"])

        books[0].setValue(URL(fileURLWithPath: "/tmp/Written on Linux.file"), forKey: "fileURL")
        try context.save()
        let reopened = try NSPersistentStoreCoordinator(managedObjectModel: NSManagedObjectModel.load(contentsOf: model))
        try reopened.addPersistentStore(type: .sqlite, at: copy, options: [NSIgnorePersistentStoreVersioningOption: true])
        let readBack = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        readBack.persistentStoreCoordinator = reopened
        let urls = try readBack.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book")).compactMap { $0.value(forKey: "fileURL") as? URL }
        #expect(urls.map(\.lastPathComponent) == ["Written on Linux.file"])
    }
}
