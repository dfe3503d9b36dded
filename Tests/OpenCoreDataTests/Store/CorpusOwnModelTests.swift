import Foundation
import Testing
@testable import OpenCoreDataCore

/// Every store of shared/corpus/stores that PAIRING.tsv pairs with an XML
/// model, opened with the one model version that wrote it and read fully
/// (every property of every object, inverses checked by
/// ``SQLiteCorpusStoreTests/read(_:copy:store:tally:failures:)``). The table
/// names the model and the objects each store holds; a store no corpus model
/// wrote says why instead, and must keep failing to open.
@Suite(.enabled(if: Corpus.stores != nil && Corpus.models != nil, "shared/corpus is absent"))
struct CorpusOwnModelTests {
    enum Outcome: Equatable {
        /// Opens with the model (a file in shared/corpus/models, without `.xml`) and holds this many objects.
        case reads(String, Int)
        /// Written by a model version absent from the corpus (the reason): no corpus model opens it,
        /// and the model the store caches in Z_MODELCACHE, its own, reads this many objects.
        case cached(Int, String)
        /// Opens with no model at all, for this reason.
        case refused(String)
    }

    static let table: [(store: String, outcome: Outcome)] = CorpusOwnModelTable.rows

    @Test func everyPairedStoreReadsWithItsOwnModel() throws {
        var failures: [String] = []
        var stores = 0, cached = 0, objects = 0, seen = Set<String>()
        for (store, candidates) in try SQLiteSchemaCorpusTests.pairings() {
            let name = store.lastPathComponent
            guard let row = Self.table.first(where: { name.hasPrefix($0.store + ".") }) else {
                failures.append("\(name): not in the table"); continue
            }
            seen.insert(row.store)
            let coordinator: NSPersistentStoreCoordinator, copy: URL, expected: Int
            switch row.outcome {
            case .reads(let modelName, let count):
                let model = try #require(Corpus.models).appendingPathComponent(modelName + ".xml")
                #expect(candidates.contains(model), "\(name): \(modelName) is not among PAIRING.tsv's candidates")
                do {
                    (coordinator, copy, _) = try SQLiteCorpusStoreTests.open(store, models: [model])
                } catch {
                    failures.append("\(name) does not open with \(modelName): \(error)"); continue
                }
                (expected, stores) = (count, stores + 1)
            case .cached(let count, let reason):
                if let opened = try? SQLiteCorpusStoreTests.open(store, models: candidates) {
                    failures.append("\(name) now opens with \(opened.2.lastPathComponent) (\(reason))")
                }
                copy = try SQLiteMetadataTests.copy(store)
                coordinator = NSPersistentStoreCoordinator(
                    managedObjectModel: try NSPersistentStoreCoordinator.cachedModelForPersistentStore(at: copy))
                try coordinator.addPersistentStore(type: .sqlite, at: copy, options: [
                    NSIgnorePersistentStoreVersioningOption: true, NSReadOnlyPersistentStoreOption: true])
                (expected, cached) = (count, cached + 1)
            case .refused(let reason):
                if let opened = try? SQLiteCorpusStoreTests.open(store, models: candidates) {
                    failures.append("\(name) now opens with \(opened.2.lastPathComponent) (\(reason))")
                }
                continue
            }
            var tally = SQLiteCorpusStoreTests.Tally()
            try SQLiteCorpusStoreTests().read(coordinator, copy: copy, store: name, tally: &tally, failures: &failures)
            if tally.objects != expected {
                failures.append("\(name): \(tally.objects) objects, the table says \(expected)")
            }
            objects += tally.objects
        }
        let unused = Self.table.map(\.store).filter { !seen.contains($0) }
        #expect(unused.isEmpty, "table rows matching no paired store: \(unused)")
        print("CorpusOwnModelTests: of \(seen.count) paired stores, \(stores) read with their corpus model and "
              + "\(cached) with the model cached in the file, \(objects) objects")
        #expect(failures.isEmpty, "\(failures.count) failures:\n\(failures.joined(separator: "\n"))")
        #expect(stores >= 35 && cached >= 4)
    }
}
