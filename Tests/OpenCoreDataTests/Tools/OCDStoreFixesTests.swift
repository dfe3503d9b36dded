import Testing
import GRDB
@testable import OpenCoreDataCore
import TestScratch

/// What issue 17 found wrong in `ocd inspect` and `ocd query` on real
/// stores, each run as a subprocess: crashes on an attribute named `id`, no
/// way to open one configuration of a model, long errors, lower-cased names,
/// cut URIs, a damaged store misreported.
@Suite(.enabled(if: Corpus.stores != nil && Corpus.models != nil, "shared/corpus is absent"))
struct OCDStoreFixesTests {
    typealias Run = OCDModelCommandTests.Run
    static func ocd(_ arguments: String...) throws -> Run { try OCDModelCommandTests.ocd(arguments) }

    static func jsonArray(_ run: Run) throws -> [[String: Any]] {
        #expect(run.status == 0, "\(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
    }

    /// Every corpus store: inspect, then query each entity, as JSON; no crash, and every row has one key per column.
    @Test func everyCorpusStoreInspectsAndQueriesEachEntity() throws {
        var queried = 0
        for store in Corpus.files(in: Corpus.stores, suffix: ".sqlite") {
            let copy = try SQLiteMetadataTests.copy(store)
            let inspect = try Self.ocd("inspect", copy.path, "--format", "json")
            #expect(inspect.status == 0, "\(store.lastPathComponent): \(inspect.stderr)")
            let json = try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any]
            for entity in (json?["entities"] as? [[String: Any]] ?? []).compactMap({ $0["name"] as? String }) {
                let query = try Self.ocd("query", copy.path, "--entity", entity, "--format", "json")
                // A store whose schema the rebuilt model cannot open is an error line, never a signal.
                #expect(query.status == 0 || (query.status == 1 && query.stderr.hasPrefix("error: ")),
                        "\(store.lastPathComponent) \(entity): status \(query.status) \(query.stderr)")
                if query.status == 0 {
                    let rows = try #require(try JSONSerialization.jsonObject(with: Data(query.stdout.utf8)) as? [Any])
                    #expect(rows.allSatisfy { $0 is [String: Any] })
                    queried += 1
                }
            }
        }
        print("ocd query: \(queried) entities of corpus stores read as JSON")
        #expect(queried >= 100)
    }

    /// A store of an entity with an attribute `id`: the object URI moves to `objectID`.
    @Test func anAttributeNamedIDKeepsItsColumn() throws {
        let item = NSEntityDescription(name: "Item")
        item.properties = [NSAttributeDescription(name: "id", type: .integer64AttributeType),
                           NSAttributeDescription(name: "title", type: .stringAttributeType)]
        let model = NSManagedObjectModel()
        model.entities = [item]
        let folder = ScratchDirectory.url("ocd-id-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let modelURL = folder.appendingPathComponent("Items.xcdatamodel")
        let store = folder.appendingPathComponent("Items.sqlite")
        try model.write(to: modelURL)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: store)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let object = NSManagedObject(entity: item, insertInto: context)
            object.setValue(Int64(42), forKey: "id")
            object.setValue("Answer", forKey: "title")
            try context.save()
        }
        try coordinator.remove(coordinator.persistentStores[0])

        for model in [["--model", modelURL.path], []] {
            let rows = try Self.jsonArray(try OCDModelCommandTests.ocd(["query", store.path, "--entity", "Item",
                                                                        "--format", "json"] + model))
            #expect(rows.count == 1 && rows[0]["id"] as? Int == 42, "\(rows)")
            #expect((rows[0]["objectID"] as? String)?.hasSuffix("/Item/p1") == true)
            let csv = try OCDModelCommandTests.ocd(["query", store.path, "--entity", "Item", "--format", "csv"] + model)
            #expect(csv.stdout.split(separator: "\n").first == "objectID,id,title")
            let table = try OCDModelCommandTests.ocd(["query", store.path, "--entity", "Item"] + model)
            #expect(table.stdout.split(separator: "\n").first?.split(separator: " ").filter { $0 == "id" }.count == 1)
        }
    }

    /// A store holding one configuration of a model opens with it, found or named.
    @Test func aStoreOfOneConfigurationOpens() throws {
        let modelFile = Corpus.models!.appendingPathComponent("Aidoku__Aidoku__Aidoku__0.9.xml")
        let model = try NSManagedObjectModel.load(contentsOf: modelFile)
        let store = ScratchDirectory.url("ocd-conf-\(UUID().uuidString).sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, configuration: "Local", at: store)
        try coordinator.remove(coordinator.persistentStores[0])

        let withModel = ["--model", modelFile.path]
        func query(_ more: String...) throws -> Run {
            try OCDModelCommandTests.ocd(["query", store.path] + withModel + more + ["--entity", "Source"])
        }
        let found = try Self.jsonArray(try query("--format", "json"))
        #expect(found.isEmpty)
        let named = try query("--configuration", "Local")
        #expect(named.status == 0 && named.stdout.contains("(0 objects)"), "\(named.stderr)")
        let inspect = try OCDModelCommandTests.ocd(["inspect", store.path] + withModel
                                                   + ["--configuration", "Local", "--format", "json"])
        let verdict = (try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any])?["verdict"]
        #expect((verdict as? [String: Any])?["compatible"] as? Bool == true, "\(inspect.stdout)")
        let wrong = try query("--configuration", "Nope")
        #expect(wrong.status == 1 && wrong.stderr == "error: the model has no configuration Nope\n")
        let misfit = try query("--configuration", "Cloud")
        #expect(misfit.status == 1 && misfit.stderr.count < 600, "\(misfit.stderr)")
    }

    /// Errors are one short line: no NSError dump with the store's metadata, no GRDB decoration.
    @Test func errorsAreShortLines() throws {
        let store = try OCDStoreCommandTests.moody()
        let older = Corpus.models!.appendingPathComponent("objcio__core-data__Moody__Moody.xml").path
        let runs = [
            try Self.ocd("query", store.path, "--model", older, "--entity", "Mood"),
            try Self.ocd("query", store.path, "--entity", "Mood", "--sort", "nothing"),
            try Self.ocd("query", store.path, "--model", OCDStoreCommandTests.moodyModel, "--entity", "Mood",
                         "--predicate", "ratng > 1"),
        ]
        for run in runs {
            #expect(run.status == 1 && run.stderr.hasPrefix("error: ") && run.stderr.count < 500, "\(run.stderr)")
            #expect(!run.stderr.contains("Error Domain") && !run.stderr.contains("UserInfo"), "\(run.stderr)")
        }
        #expect(runs[2].stderr.contains("no property ratng in entity Mood (did you mean 'rating'?)"),
                "\(runs[2].stderr)")
        let inspect = try Self.ocd("inspect", store.path, "--model", older, "--format", "json")
        let verdict = (try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any])?["verdict"]
        let reason = try #require((verdict as? [String: Any])?["reason"] as? String)
        #expect(reason.count < 400 && !reason.contains("UserInfo"), "\(reason)")
    }

    /// Without a model, names come from Z_MODELCACHE with the model's case, and a near miss gets a hint.
    @Test func rebuiltModelSpellsNamesAsTheAppDoes() throws {
        let store = try OCDStoreCommandTests.moody()
        let moods = try Self.jsonArray(try Self.ocd("query", store.path, "--entity", "Mood", "--format", "json"))
        let keys = Set(moods.first?.keys.map { $0 } ?? [])
        #expect(keys.isSuperset(of: ["remoteID", "markedForRemoteDeletion", "creatorID", "id"]), "\(keys)")
        let typo = try Self.ocd("query", store.path, "--entity", "Mood", "--sort", "-remoteid")
        #expect(typo.stderr.contains("did you mean 'remoteID'?"), "\(typo.stderr)")
        let entity = try Self.ocd("query", store.path, "--entity", "mood")
        #expect(entity.stderr.contains("did you mean 'Mood'?"), "\(entity.stderr)")
        let historyStore = Corpus.stores!.appendingPathComponent(
            "alemar11__CoreDataPlus__Tests_Resources_SampleModel2_Fixtures_SampleModel2_V1.sqlite")
        let history = try Self.ocd("query", try SQLiteMetadataTests.copy(historyStore).path, "--entity", "CHANGE")
        #expect(history.status == 1 && history.stderr.contains("CHANGE is persistent history's own table"),
                "\(history.stderr)")
    }

    /// Table output keeps object URIs whole, so relationship columns tell objects apart.
    @Test func tableKeepsURIsWhole() throws {
        let store = try OCDStoreCommandTests.moody()
        let table = try Self.ocd("query", store.path, "--model", OCDStoreCommandTests.moodyModel, "--entity", "Mood")
        let countries = try DatabaseQueue(path: store.path).read {
            try Int.fetchAll($0, sql: "SELECT ZCOUNTRY FROM ZMOOD")
        }
        for key in Set(countries) { #expect(table.stdout.contains("/Country/p\(key) "), "p\(key): \(table.stdout)") }
        #expect(!table.stdout.contains("x-coredata://") || !table.stdout.contains("-38…"))
    }

    /// A damaged store is said to be damaged, once, whichever page is broken (the first, with the schema;
    /// the fifth, a table's) and whichever command reads it.
    @Test(arguments: [(100, Data(repeating: 0xff, count: 250)),
                      (5 * 4096, Data([0x0d]) + Data(repeating: 0xff, count: 300))])
    func aDamagedStoreIsReportedOnceAsDamaged(offset: Int, garbage: Data) throws {
        let store = try OCDStoreCommandTests.moody()
        let handle = try FileHandle(forWritingTo: store)
        try handle.seek(toOffset: UInt64(offset))
        try handle.write(contentsOf: garbage)
        try handle.close()
        var reported = 0
        for arguments in [["inspect", store.path], ["query", store.path, "--entity", "Mood"],
                          ["query", store.path, "--model", OCDStoreCommandTests.moodyModel, "--entity", "Mood"]] {
            let run = try OCDModelCommandTests.ocd(arguments)
            if run.status == 0 { continue } // the broken page held nothing this command reads
            #expect(run.status == 1, "\(arguments)")
            #expect(run.stderr == "error: damaged Core Data store: \(store.path) (database disk image is malformed); "
                        + "recover a copy with `sqlite3 FILE .recover`\n", "\(arguments): \(run.stderr)")
            reported += 1
        }
        #expect(reported > 0)
        let metadata = try? NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: store)
        if metadata == nil {
            let error = try #require(throws: NSError.self) {
                try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: store)
            }
            #expect(error.code == CocoaError.fileReadCorruptFile.rawValue)
            #expect(error.userInfo[NSSQLiteErrorDomain] as? Int == 11)
        }
    }
}
