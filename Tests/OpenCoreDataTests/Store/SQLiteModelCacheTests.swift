import Foundation
import GRDB
import Testing
@testable import OpenCoreDataCore

/// The model a store keeps in Z_MODELCACHE, read back as Apple's
/// `cachedModelForPersistentStore(at:options:)` does
/// (https://onestack.dev/ios-reference/CoreData/NSPersistentStoreCoordinator lists it, iOS 26.4):
/// every corpus store that has one opens with it and reads fully, including
/// the stores whose model version is absent from the corpus.
@Suite struct SQLiteModelCacheTests {
    @Test(.enabled(if: Corpus.stores != nil, "shared/corpus/stores is absent"))
    func everyCorpusStoreReadsWithItsCachedModel() throws {
        var stores = 0, objects = 0, failures: [String] = []
        for store in Corpus.files(in: Corpus.stores, suffix: ".sqlite") {
            let copy = try SQLiteMetadataTests.copy(store)
            let name = store.lastPathComponent
            // Its tables were rewritten by another tool (untyped, back-quoted columns): no model reads it.
            if name.hasPrefix("jakeBerberich__LPAR-development__Model.") { continue }
            let model: NSManagedObjectModel
            do {
                model = try NSPersistentStoreCoordinator.cachedModelForPersistentStore(at: copy)
            } catch let error as NSError where error.code == NSMigrationMissingSourceModelError {
                continue
            } catch {
                failures.append("\(name): \(error)"); continue
            }
            // Its entities are the file's (a renamed entity under its renaming identifier).
            let numbers = try DatabaseQueue(path: copy.path).read { db in
                try SQLitePrimaryKeyTable.rows(db).filter { $0.number < 16000 }.map(\.name)
            }
            let names = model.entities.map { $0.renamingIdentifier ?? $0.name ?? "" }
            if Set(names) != Set(numbers) {
                failures.append("\(name): entities \(names.sorted()) vs \(numbers.sorted())")
            }
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            do {
                try coordinator.addPersistentStore(type: .sqlite, at: copy, options: [
                    NSIgnorePersistentStoreVersioningOption: true, NSReadOnlyPersistentStoreOption: true])
            } catch {
                failures.append("\(name) does not open with its cached model: \(error)"); continue
            }
            var tally = SQLiteCorpusStoreTests.Tally()
            try SQLiteCorpusStoreTests().read(coordinator, copy: copy, store: name, tally: &tally, failures: &failures)
            stores += 1
            objects += tally.objects
        }
        print("SQLiteModelCacheTests: \(stores) corpus stores read fully with their cached model, \(objects) objects")
        #expect(failures.isEmpty, "\(failures.count) failures:\n\(failures.joined(separator: "\n"))")
        #expect(stores >= 35)
    }

    /// The cached model of a store is the model file that wrote it (CorpusOwnModelTable), property for
    /// property: what the archive reader rebuilds (types, optionality, transience, to-many, order,
    /// inverses, delete rules, hierarchy) agrees with the Xcode file.
    @Test(.enabled(if: Corpus.stores != nil && Corpus.models != nil, "shared/corpus is absent"))
    func cachedModelsAgreeWithTheModelFilesThatWroteTheStores() throws {
        var compared = 0, differences: [String] = []
        for (store, file, modelName) in CorpusOwnModelTable.storesWithTheirModels {
            guard let cached = try? NSPersistentStoreCoordinator.cachedModelForPersistentStore(
                at: SQLiteMetadataTests.copy(file)) else { continue }
            let url = try #require(Corpus.models).appendingPathComponent(modelName + ".xml")
            differences += try NSManagedObjectModel.load(contentsOf: url).structuralDifferences(from: cached)
                .map { "\(store): \($0)" }
            compared += 1
        }
        print("SQLiteModelCacheTests: \(compared) cached models compared with their model files")
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
        #expect(compared >= 20)
    }

    @Test func storesWithoutACacheAndFilesThatAreNoStoresThrow() throws {
        let context = try TestStack.context(TestStack.albumsModel(), .sqlite)
        let url = try #require(context.persistentStoreCoordinator?.persistentStores.first?.url)
        func code(_ url: URL) -> Int? {
            (#expect(throws: NSError.self) { try NSPersistentStoreCoordinator.cachedModelForPersistentStore(at: url) })?
                .code
        }
        // OpenCoreData leaves Z_MODELCACHE empty: there is no model to give.
        #expect(code(url) == NSMigrationMissingSourceModelError)
        #expect(code(TestStack.temporaryStoreURL("None.sqlite")) == CocoaError.fileReadNoSuchFile.rawValue)
        let plain = TestStack.temporaryStoreURL("Plain.sqlite")
        try DatabaseQueue(path: plain.path).write { try $0.execute(sql: "CREATE TABLE t (x)") }
        #expect(code(plain) == NSPersistentStoreInvalidTypeError)
        // A cache that is not DEFLATE data, or not a model: 134000, no crash.
        for garbage in [Data([0x07, 0x00]), Data(try Inflate.decompress(Array(Data(base64Encoded: "AQMA/P9hYmM=")!)))] {
            try DatabaseQueue(path: url.path).write { db in
                try db.execute(sql: "DELETE FROM Z_MODELCACHE")
                try db.execute(sql: "INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)", arguments: [garbage])
            }
            #expect(code(url) == NSPersistentStoreInvalidTypeError)
        }
    }
}
