import Testing
import GRDB
@testable import OpenCoreDataCore

/// Stores written by Core Data (shared/corpus/stores, copied with their
/// -wal/-shm first), opened with their models: every object of every entity
/// is fetched, every attribute and relationship read, counts compared with
/// plain SQL and every relationship checked against its inverse. A store
/// that does not open is listed with the reason, never skipped silently.
@Suite(.enabled(if: Corpus.stores != nil && Corpus.models != nil, "shared/corpus is absent"))
struct SQLiteCorpusStoreTests {
    struct Refusal: Error, CustomStringConvertible {
        var reasons: [String]
        var description: String { reasons.joined(separator: "; ") }
    }

    struct Tally { var stores = 0, entities = 0, objects = 0, attributes = 0, relationships = 0 }

    /// Stores that no corpus model opens, with the reason. Each must still fail
    /// to open; a store that starts opening must be removed from this list.
    /// The reasons are those of SQLiteSchemaCorpusTests.tolerated: the model
    /// version that wrote these stores is not in the corpus. (Migrated stores
    /// whose join tables or entity names differ from a fresh store's open:
    /// the store reads the names the file has.)
    static let unopenable: [(store: String, reason: String)] = [
        ("LPAR-development", "not written by Core Data: untyped, back-quoted columns"),
        ("CartStorage_v1", "written by an earlier CartStorage model: ZCDCART lacks ZSESSIONID, ZPROMOTIONKINDSJSON"),
        ("Fixtures__SampleModelV1.", "written by a SampleModel version without Car.color, absent from the corpus"),
        ("EasyLife.sqlite", "written by an EasyLife model before TodoItem.project, absent from the corpus"),
        ("EasyLife_1.3.0.sqlite", "written by an EasyLife model before TodoItem.project, absent from the corpus"),
    ]

    /// Opens a copy of `store` (read-only unless told otherwise) with the first of `models` whose
    /// entities and columns fit; returns the coordinator, the copy and the model's file.
    static func open(_ store: URL, models: [URL], readOnly: Bool = true) throws -> (NSPersistentStoreCoordinator, URL, URL) {
        var reasons: [String] = []
        for url in try SQLiteSchemaCorpusTests.rankedModels(for: store, candidates: models) {
            let model = try NSManagedObjectModel.load(contentsOf: url)
            let copy = try SQLiteMetadataTests.copy(store)
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            do {
                // Our version hashes are not Apple's, so the check is skipped; the layout check still runs.
                try coordinator.addPersistentStore(type: .sqlite, at: copy, options: [NSIgnorePersistentStoreVersioningOption: true,
                                                                                      NSReadOnlyPersistentStoreOption: readOnly])
                return (coordinator, copy, url)
            } catch {
                reasons.append("\(url.lastPathComponent): \(error)")
            }
        }
        throw Refusal(reasons: reasons)
    }

    @Test func everyObjectAttributeAndRelationshipOfPairedStoresReads() throws {
        var tally = Tally()
        var failures: [String] = []
        for (store, models) in try SQLiteSchemaCorpusTests.pairings() {
            let name = store.lastPathComponent
            let coordinator: NSPersistentStoreCoordinator, copy: URL
            do {
                (coordinator, copy, _) = try Self.open(store, models: models)
            } catch {
                if !Self.unopenable.contains(where: { name.contains($0.store) }) { failures.append("\(name) does not open: \(error)") }
                continue
            }
            #expect(!Self.unopenable.contains(where: { name.contains($0.store) }), "\(name) now opens: remove it from unopenable")
            tally.stores += 1
            try read(coordinator, copy: copy, store: name, tally: &tally, failures: &failures)
        }
        print("""
            SQLiteCorpusStoreTests: \(tally.stores) Core Data stores opened and read fully: \(tally.entities) entities, \
            \(tally.objects) objects, \(tally.attributes) attribute values, \(tally.relationships) relationship links \
            checked against their inverses; \(Self.unopenable.count) store(s) listed as unopenable
            """)
        #expect(failures.isEmpty, "\(failures.count) failures:\n\(failures.prefix(40).joined(separator: "\n"))")
        #expect(tally.stores >= 35 && tally.objects > 42_000)
    }

    /// Reads every object of every entity of an opened store.
    func read(_ coordinator: NSPersistentStoreCoordinator, copy: URL, store name: String,
              tally: inout Tally, failures: inout [String]) throws {
        let model = coordinator.managedObjectModel
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let sqlite = try #require(coordinator.persistentStores.first as? SQLiteStore)
        let raw = try DatabaseQueue(path: copy.path)
        for entity in model.entities {
            guard let mapped = sqlite.mapping.entity(entity) else { failures.append("\(name): \(entity.name!) unmapped"); continue }
            tally.entities += 1
            let request = NSFetchRequest<NSManagedObject>(entityName: entity.name!)
            request.includesSubentities = false
            let fetched = try context.fetch(request)
            let expected = try raw.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM \(mapped.table) WHERE Z_ENT = \(mapped.number)") }
            if fetched.count != expected { failures.append("\(name) \(entity.name!): fetched \(fetched.count), SQL counts \(expected ?? -1)") }
            tally.objects += fetched.count
            for object in fetched {
                for (key, attribute) in entity.attributesByName where !attribute.isTransient {
                    _ = object.value(forKey: key)
                    tally.attributes += 1
                }
                for (key, relationship) in entity.relationshipsByName where !relationship.isTransient {
                    let destinations = Self.objects(object.value(forKey: key))
                    tally.relationships += destinations.count
                    guard let inverse = relationship.inverseRelationship else { continue }
                    for destination in destinations where !Self.objects(destination.value(forKey: inverse.name)).contains(where: { $0 === object }) {
                        failures.append("\(name) \(entity.name!).\(key): \(destination.objectID) does not point back through \(inverse.name)")
                    }
                }
            }
        }
    }

    /// The objects a relationship value holds: none, one, or a set's members.
    static func objects(_ value: Any?) -> [NSManagedObject] {
        switch value {
        case let object as NSManagedObject: [object]
        case let set as NSSet: set.allObjects.compactMap { $0 as? NSManagedObject }
        case let set as NSOrderedSet: set.array.compactMap { $0 as? NSManagedObject }
        default: []
        }
    }
}
