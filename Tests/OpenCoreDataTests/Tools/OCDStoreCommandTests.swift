import Testing
import GRDB
@testable import OpenCoreDataCore
import TestScratch

/// `ocd inspect` and `ocd query`, run as subprocesses on copies of stores
/// Core Data wrote (shared/corpus/stores), their JSON output checked
/// against plain SQL.
@Suite(.enabled(if: Corpus.stores != nil && Corpus.models != nil, "shared/corpus is absent"))
struct OCDStoreCommandTests {
    static let moodyName = "objcio__core-data__Migrations_MigrationsTests_Moody_3.moody.sqlite"
    static var moodyModel: String { Corpus.models!.appendingPathComponent("objcio__core-data__Moody__Moody_3.xml").path }

    static func moody() throws -> URL {
        try SQLiteMetadataTests.copy(Corpus.stores!.appendingPathComponent(moodyName))
    }

    static func json(_ run: OCDModelCommandTests.Run) throws -> Any {
        #expect(run.status == 0, "\(run.stderr)")
        return try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
    }

    /// Every corpus store, no model: UUID and per-entity counts agree with SQL.
    @Test func inspectCountsEveryEntityOfEveryStore() throws {
        var stores = 0, entities = 0
        for store in Corpus.files(in: Corpus.stores, suffix: ".sqlite") {
            let copy = try SQLiteMetadataTests.copy(store)
            let json = try #require(try Self.json(OCDModelCommandTests.ocd("inspect", copy.path, "--format", "json")) as? [String: Any])
            let raw = try DatabaseQueue(path: copy.path)
            let (uuid, rows) = try raw.read { db in
                (try String.fetchOne(db, sql: "SELECT Z_UUID FROM Z_METADATA"),
                 try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY ORDER BY Z_ENT"))
            }
            #expect(json["uuid"] as? String == uuid, "\(store.lastPathComponent)")
            let listed = try #require(json["entities"] as? [[String: Any]])
            #expect(listed.map { $0["name"] as? String } == rows.map { $0["Z_NAME"] as String? }, "\(store.lastPathComponent)")
            for entity in listed {
                guard let table = entity["table"] as? String, let number = entity["number"] as? Int else { continue }
                let count = try raw.read { db in
                    try db.tableExists(table) ? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE Z_ENT = ?", arguments: [number]) : nil
                }
                #expect(entity["objects"] as? Int == count, "\(store.lastPathComponent) \(entity)")
                entities += 1
            }
            stores += 1
        }
        print("ocd inspect: \(stores) corpus stores, \(entities) entities counted")
        #expect(stores >= 40)
    }

    @Test func inspectWithAModelGivesAVerdict() throws {
        let store = try Self.moody()
        let fits = try #require(try Self.json(OCDModelCommandTests.ocd("inspect", store.path, "--model", Self.moodyModel, "--format", "json")) as? [String: Any])
        let verdict = try #require(fits["verdict"] as? [String: Any])
        #expect(verdict["compatible"] as? Bool == true && verdict["versionHashesAgree"] as? Bool == false)
        let counts = (fits["entities"] as? [[String: Any]] ?? []).map { "\($0["name"]!)=\($0["objects"]!)" }
        #expect(counts == ["GeographicRegion=0", "Continent=2", "Country=3", "Mood=4"])
        let metadata = try #require(fits["metadata"] as? [String: Any])
        #expect(metadata["NSStoreModelVersionIdentifiers"] as? [String] == ["3"])

        let older = Corpus.models!.appendingPathComponent("objcio__core-data__Moody__Moody.xml").path
        // A model that does not fit: the report still comes, with exit status 1 (issue 15).
        let misfitRun = try OCDModelCommandTests.ocd("inspect", store.path, "--model", older, "--format", "json")
        #expect(misfitRun.status == 1)
        let misfit = try #require(try JSONSerialization.jsonObject(with: Data(misfitRun.stdout.utf8)) as? [String: Any])
        let refusal = try #require(misfit["verdict"] as? [String: Any])
        #expect(refusal["compatible"] as? Bool == false)
        #expect((refusal["reason"] as? String)?.contains("ZREMOTEIDENTIFIER") == true)
    }

    @Test func queryFiltersSortsAndLimits() throws {
        let store = try Self.moody()
        let run = try OCDModelCommandTests.ocd("query", store.path, "--model", Self.moodyModel, "--entity", "Mood",
                                               "--predicate", "rating >= 0 AND country != nil", "--sort", "-date", "--limit", "3",
                                               "--format", "json")
        let moods = try #require(try Self.json(run) as? [[String: Any]])
        let expected = try DatabaseQueue(path: store.path).read { db in
            try Double.fetchAll(db, sql: "SELECT ZDATE FROM ZMOOD WHERE ZRATING >= 0 AND ZCOUNTRY IS NOT NULL ORDER BY ZDATE DESC LIMIT 3")
        }
        #expect(moods.count == expected.count && !moods.isEmpty)
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        let dates = moods.compactMap { ($0["date"] as? String).flatMap { try? style.parse($0) } }
        #expect(dates.count == expected.count)
        for (date, seconds) in zip(dates, expected) { #expect(abs(date.timeIntervalSinceReferenceDate - seconds) < 0.001) }
        let first = try #require(moods.first)
        #expect((first["id"] as? String)?.hasPrefix("x-coredata://") == true)
        #expect((first["country"] as? String)?.contains("/Country/p") == true)
        #expect(first.keys.contains("remoteID") && first["markedForRemoteDeletion"] as? Bool == false)

        let csv = try OCDModelCommandTests.ocd("query", store.path, "--model", Self.moodyModel, "--entity", "Country", "--format", "csv")
        let lines = csv.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("id,") == true && lines.count == 4)
        let table = try OCDModelCommandTests.ocd("query", store.path, "--model", Self.moodyModel, "--entity", "Continent")
        #expect(table.status == 0 && table.stdout.contains("(2 objects)"))
    }

    /// Without a model: the one rebuilt from the schema, shown by inspect and used by query.
    @Test func reconstructedModelServesInspectAndQuery() throws {
        let store = try Self.moody()
        let json = try #require(try Self.json(OCDModelCommandTests.ocd("inspect", store.path, "--reconstruct", "--format", "json")) as? [String: Any])
        let entities = try #require((json["reconstructedModel"] as? [String: Any])?["entities"] as? [[String: Any]])
        let mood = try #require(entities.first { $0["name"] as? String == "Mood" })
        let relationships = (mood["relationships"] as? [[String: Any]] ?? []).map { "\($0["name"]!)→\($0["destination"]!)" }
        #expect(relationships == ["continent→Continent", "country→Country"])
        #expect((json["unrecovered"] as? [String])?.isEmpty == false)

        let query = try OCDModelCommandTests.ocd("query", store.path, "--entity", "Mood", "--predicate", "rating == 0", "--format", "json")
        let moods = try #require(try Self.json(query) as? [[String: Any]])
        let expected = try DatabaseQueue(path: store.path).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM ZMOOD WHERE ZRATING = 0") }
        #expect(moods.count == expected && (moods.first?["remoteID"] as? String)?.isEmpty == false)
    }

    /// A `.xcdatamodeld` whose current version does not fit: the version that does is used.
    @Test func versionedModelPicksTheVersionThatFits() throws {
        let bundle = SeedModels.examples.appendingPathComponent("GroceryDude.xcdatamodeld")
        let older = try ModelVersionBundle(url: bundle).model(named: "Model 4")
        let store = ScratchDirectory.url("ocd-\(UUID().uuidString).sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: older)
        try coordinator.addPersistentStore(type: .sqlite, at: store)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        NSManagedObject(entity: older.entitiesByName["Item"]!, insertInto: context).setValue("Milk", forKey: "name")
        try context.save()
        try coordinator.remove(coordinator.persistentStores[0])

        let inspect = try #require(try Self.json(OCDModelCommandTests.ocd("inspect", store.path, "--model", bundle.path, "--format", "json")) as? [String: Any])
        #expect((inspect["verdict"] as? [String: Any])?["compatible"] as? Bool == true)
        let items = try #require(try Self.json(OCDModelCommandTests.ocd("query", store.path, "--model", bundle.path, "--entity", "Item", "--format", "json")) as? [[String: Any]])
        #expect(items.map { $0["name"] as? String } == ["Milk"])
    }

    /// Bad input is one line on stderr and status 1, without usage text.
    @Test func badInputIsOneLineWithStatusOne() throws {
        let store = try Self.moody()
        let older = Corpus.models!.appendingPathComponent("objcio__core-data__Moody__Moody.xml").path
        let cases: [(arguments: [String], message: String)] = [
            (["inspect", "/nonexistent/Store.sqlite"], "no such file"),
            (["inspect", #filePath], "not a Core Data SQLite store"),
            (["query", store.path, "--model", older, "--entity", "Mood"], "the model does not fit the store"),
            (["query", store.path, "--model", Self.moodyModel, "--entity", "Mood", "--predicate", "rating >"], "at offset 8"),
            (["query", store.path, "--model", Self.moodyModel, "--entity", "Nope"], "no entity Nope"),
        ]
        for (arguments, message) in cases {
            let run = try OCDModelCommandTests.ocd(arguments)
            #expect(run.status == 1, "\(arguments)")
            #expect(run.stderr.hasPrefix("error: ") && run.stderr.contains(message), "\(arguments): \(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1 && !run.stderr.contains("Usage"), "\(arguments): \(run.stderr)")
        }
    }

    /// Progress goes to stderr only: stdout stays one JSON document.
    @Test func progressLinesGoToStderrAndLeaveTheJSONClean() throws {
        let store = try Self.moody()
        let query = try OCDModelCommandTests.ocd("query", store.path, "--model", Self.moodyModel, "--entity", "Mood", "--progress",
                                                 "--format", "json")
        let moods = try #require(try Self.json(query) as? [[String: Any]])
        #expect(query.stderr.split(separator: "\n").contains("Mood objects read: \(moods.count)/\(moods.count)"), "\(query.stderr)")

        let inspect = try OCDModelCommandTests.ocd("inspect", store.path, "--progress", "--format", "json")
        let entities = try #require((try Self.json(inspect) as? [String: Any])?["entities"] as? [Any])
        let lines = inspect.stderr.split(separator: "\n")
        #expect(lines.count == entities.count && lines.last == "entities counted: \(entities.count)/\(entities.count)", "\(inspect.stderr)")

        let quiet = try OCDModelCommandTests.ocd("inspect", store.path, "--format", "json")
        #expect(quiet.stderr.isEmpty, "not a terminal and no --progress: \(quiet.stderr)")
    }
}
