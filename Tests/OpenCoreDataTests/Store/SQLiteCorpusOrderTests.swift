import Testing
import GRDB
@testable import OpenCoreDataCore

/// Ordered to-many relationships of the corpus stores (those with Z_FOK_
/// columns): every source object's destinations come back in ascending
/// Z_FOK_ order, compared with plain SQL on the same file.
@Suite(.enabled(if: Corpus.stores != nil && Corpus.models != nil, "shared/corpus is absent"))
struct SQLiteCorpusOrderTests {
    @Test func orderedToManyFollowsTheOrderKeys() throws {
        var stores = 0, relationships = 0, lists = 0, links = 0
        var failures: [String] = []
        for (store, models) in try SQLiteSchemaCorpusTests.pairings() {
            // Unopenable stores are SQLiteCorpusStoreTests' concern.
            guard let (coordinator, copy, _) = try? SQLiteCorpusStoreTests.open(store, models: models) else { continue }
            let sqlite = try #require(coordinator.persistentStores.first as? SQLiteStore)
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            let raw = try DatabaseQueue(path: copy.path)
            var ordered = 0
            for entity in coordinator.managedObjectModel.entities {
                guard let mapped = sqlite.mapping.entity(entity) else { continue }
                for (relationship, storage) in mapped.relationships where relationship.isOrdered && relationship.isToMany
                    && relationship.entity === entity {
                    let sql: String
                    switch storage {
                    case .inverseForeignKey(let key):
                        guard let order = key.orderColumn else { continue }
                        sql = "SELECT Z_PK FROM \(key.table) WHERE \(key.column) = ? ORDER BY \(order), Z_PK"
                    case .joinTable(let join):
                        guard let order = join.order else { continue }
                        sql = "SELECT \(join.destination) FROM \(join.table) WHERE \(join.source) = ? ORDER BY \(order), \(join.destination)"
                    default: continue
                    }
                    ordered += 1
                    let request = NSFetchRequest<NSManagedObject>(entityName: entity.name!)
                    for object in try context.fetch(request) {
                        let keys = SQLiteCorpusStoreTests.objects(object.value(forKey: relationship.name)).compactMap(\.objectID.primaryKey)
                        let expected = try raw.read { try Int64.fetchAll($0, sql: sql, arguments: [object.objectID.primaryKey]) }
                        if keys != expected {
                            failures.append("\(store.lastPathComponent) \(entity.name!).\(relationship.name) of \(object.objectID): \(keys) != SQL \(expected)")
                        }
                        lists += 1
                        links += keys.count
                    }
                }
            }
            if ordered > 0 { stores += 1; relationships += ordered }
        }
        print("SQLiteCorpusOrderTests: \(stores) corpus stores with ordered to-many relationships, \(relationships) relationships, "
              + "\(lists) ordered lists and \(links) links checked against Z_FOK_ order")
        #expect(failures.isEmpty, "\(failures.count) failures:\n\(failures.prefix(40).joined(separator: "\n"))")
        #expect(stores > 0 && links > 0)
    }
}
