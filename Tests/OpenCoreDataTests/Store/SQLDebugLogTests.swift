import Testing
import Logging
@testable import OpenCoreDataCore
import TestScratch

/// The SQL debug log (`-com.apple.CoreData.SQLDebug N`), captured through a
/// log handler.
///
/// The expected line shapes are Apple's, as Core Data prints them; they were
/// read from public captures of its output: "Core Data SQLDebug Log Levels"
/// (blog.raymccrae.scot/2017/12/core-data-sqldebug-log-levels.html: at 1
/// `CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, … FROM ZPERSON t0 WHERE t0.ZAGE > ?`
/// and `CoreData: annotation: sql connection fetch time: 0.4789s.`; from 2
/// `CoreData: details: SQLite bind[0] = 18`) and "Debugging Core Data"
/// (useyourloaf.com/blog/debugging-core-data/: `CoreData: annotation: sql
/// connection fetch time: 0.000…`, followed by the total fetch execution time).
@Suite(.serialized) struct SQLDebugLogTests {
    /// Keeps every line with the metadata it came with.
    final class Capture: @unchecked Sendable {
        private let lines = Locked<[(String, Logger.Metadata)]>([])
        var all: [(String, Logger.Metadata)] { lines.withLock { $0 } }
        func append(_ line: String, _ metadata: Logger.Metadata) { lines.withLock { $0.append((line, metadata)) } }

        /// The lines of the store at `path`, and row cache lines naming objects of the store `uuid`.
        func lines(store path: String, uuid: String) -> [String] {
            all.filter { line, metadata in
                metadata["store"] == .string(path) || (metadata["store"] == nil && line.contains("//\(uuid)/"))
            }.map(\.0)
        }
    }

    struct CapturingHandler: LogHandler {
        let capture: Capture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            capture.append(event.message.description, metadata.merging(event.metadata ?? [:]) { $1 })
        }
    }

    /// A store and coordinator made while the level is `level` and the logger captures.
    static func stack(level: Int, capture: Capture) throws -> (NSManagedObjectContext, URL) {
        let (oldLevel, oldLogger) = (CoreDataDebug.sqlDebugLevel, CoreDataDebug.logger)
        CoreDataDebug.sqlDebugLevel = level
        CoreDataDebug.logger = Logger(label: "test") { _ in CapturingHandler(capture: capture) }
        defer { (CoreDataDebug.sqlDebugLevel, CoreDataDebug.logger) = (oldLevel, oldLogger) }
        let url = ScratchDirectory.url("sqldebug-\(UUID().uuidString).sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: SeedModels.frozenTime())
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return (context, url)
    }

    /// Saves two photos, then fetches them by rating in a fresh context and reads their names.
    static func work(_ context: NSManagedObjectContext) throws -> [String] {
        try context.performAndWait {
            let model = context.persistentStoreCoordinator!.managedObjectModel
            for (name, rating) in [("Dunes", 4), ("Quay", 2)] {
                let photo = NSManagedObject(entity: model.entitiesByName["Photo"]!, insertInto: context)
                photo.setValue(name, forKey: "name")
                photo.setValue(Int16(rating), forKey: "rating")
            }
            try context.save()
            context.reset()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            request.predicate = NSPredicate(format: "rating > %d", 3)
            return try context.fetch(request).compactMap { $0.value(forKey: "name") as? String }
        }
    }

    @Test func levelOneLogsEachStatementWithItsTimeAndEachFetch() throws {
        let capture = Capture()
        let (context, url) = try Self.stack(level: 1, capture: capture)
        #expect(try Self.work(context) == ["Dunes"])
        let uuid = try #require(context.persistentStoreCoordinator?.persistentStores.first?.identifier)
        let lines = capture.lines(store: url.path, uuid: uuid)
        let select = try #require(lines.firstIndex { $0.hasPrefix("CoreData: sql: SELECT") && $0.contains("ZPHOTO") },
                                  "\(lines)")
        #expect(lines[select].contains("?"), "level 1 shows parameters, not values: \(lines[select])")
        #expect(lines[select + 1].wholeMatch(of: /CoreData: annotation: sql connection fetch time: \d+\.\d{4}s/) != nil)
        #expect(lines.contains { $0.wholeMatch(of: /CoreData: sql: INSERT INTO ZPHOTO.*/) != nil })
        #expect(lines.contains { $0.wholeMatch(of: /CoreData: annotation: sql execution time: \d+\.\d{4}s/) != nil })
        let total = /CoreData: annotation: total fetch execution time: \d+\.\d{4}s for 1 rows\./
        #expect(lines.contains { $0.wholeMatch(of: total) != nil },
                "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("CoreData: details:") })
        #expect(lines.allSatisfy { $0.hasPrefix("CoreData: ") && !$0.contains("\n") })
    }

    /// SQLite fixes a file's auto-vacuum mode when it first writes the file, and turning on WAL writes it:
    /// a new store sets the mode before, so that no VACUUM (a copy of the whole file) has to apply it after.
    @Test func aNewStoreSetsItsVacuumModeBeforeWALAndNeedsNoVacuum() throws {
        let capture = Capture()
        let (context, url) = try Self.stack(level: 1, capture: capture)
        let statements = capture.all.filter { $0.1["store"] == .string(url.path) }.map(\.0)
            .filter { $0.hasPrefix("CoreData: sql: ") }
        let vacuumMode = try #require(statements.firstIndex(of: "CoreData: sql: PRAGMA auto_vacuum = 2"),
                                      "\(statements)")
        let wal = try #require(statements.firstIndex(of: "CoreData: sql: PRAGMA journal_mode = WAL"), "\(statements)")
        #expect(vacuumMode < wal)
        let vacuums = statements.filter { $0.uppercased().contains("VACUUM") && !$0.contains("auto_vacuum") }
        #expect(vacuums.isEmpty, "\(statements)")
        #expect(try Self.work(context) == ["Dunes"])
    }

    @Test func levelTwoAddsBoundValuesAndFetchCounts() throws {
        let capture = Capture()
        let (context, url) = try Self.stack(level: 2, capture: capture)
        _ = try Self.work(context)
        let uuid = try #require(context.persistentStoreCoordinator?.persistentStores.first?.identifier)
        let lines = capture.lines(store: url.path, uuid: uuid)
        let select = try #require(lines.firstIndex { $0.hasPrefix("CoreData: sql: SELECT") && $0.contains("ZPHOTO") })
        #expect(lines[select + 1] == "CoreData: details: SQLite bind[0] = 3", "\(lines[select...])")
        #expect(lines.contains { $0.hasPrefix("CoreData: details: SQLite bind[") && $0.hasSuffix("] = 'Dunes'") })
        #expect(lines.contains("CoreData: annotation: fetch on entity 'Photo' returned 1 rows"))
        #expect(!lines.contains { $0.contains("row cache hit") || $0.contains("fault fulfilled") })
    }

    @Test func levelThreeAddsFaultsAndRowCacheHits() throws {
        let capture = Capture()
        let (context, url) = try Self.stack(level: 3, capture: capture)
        // The saved photo stays alive in `context` and holds its row: another context's fault of it
        // is fulfilled from the row cache; one that accepts no cached row (staleness 0) reads the database.
        let photo = try context.performAndWait { () throws in
            let photo = NSManagedObject(entity: context.persistentStoreCoordinator!.managedObjectModel
                .entitiesByName["Photo"]!, insertInto: context)
            photo.setValue("Dunes", forKey: "name")
            try context.save()
            return photo
        }
        defer { withExtendedLifetime(photo) {} }
        let id = photo.objectID
        let cached = TestStack.sibling(of: context), fresh = TestStack.sibling(of: context)
        fresh.stalenessInterval = 0
        #expect(cached.performAndWait { cached.object(with: id).value(forKey: "name") as? String } == "Dunes")
        #expect(fresh.performAndWait { fresh.object(with: id).value(forKey: "name") as? String } == "Dunes")
        let uuid = try #require(context.persistentStoreCoordinator?.persistentStores.first?.identifier)
        let lines = capture.lines(store: url.path, uuid: uuid)
        let uri = id.uriRepresentation().absoluteString
        #expect(lines.contains("CoreData: annotation: row cache hit for : \(uri)"), "\(lines)")
        #expect(lines.contains("CoreData: annotation: fault fulfilled from database for : \(uri)"), "\(lines)")
    }

    /// Core Data counts an entity that is alone in its table with `SELECT COUNT(*) FROM ZITEM`, no `Z_ENT`
    /// condition (its SQLDebug output in fatbobman.com/en/posts/countincoredata), which SQLite answers from
    /// the b-tree without decoding rows; with a predicate the count is one statement too, not a subquery.
    @Test func countsOfAnEntityAloneInItsTableNeedNoEntityCondition() throws {
        let capture = Capture()
        let (context, url) = try Self.stack(level: 1, capture: capture)
        _ = try Self.work(context)
        let (all, rated) = try context.performAndWait {
            let rated = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            rated.predicate = NSPredicate(format: "rating > %d", 3)
            return (try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Photo")),
                    try context.count(for: rated))
        }
        #expect(all == 2 && rated == 1)
        let uuid = try #require(context.persistentStoreCoordinator?.persistentStores.first?.identifier)
        let counts = capture.lines(store: url.path, uuid: uuid).filter { $0.contains("COUNT(") }
        let ratedSQL = "CoreData: sql: SELECT COUNT(*) FROM ZPHOTO t0 WHERE (t0.ZRATING > ? AND t0.ZRATING IS NOT NULL)"
        #expect(counts == ["CoreData: sql: SELECT COUNT(*) FROM ZPHOTO t0", ratedSQL], "\(counts)")
    }

    @Test func offMeansNoLogAtAll() throws {
        let capture = Capture()
        let (context, url) = try Self.stack(level: 0, capture: capture)
        _ = try Self.work(context)
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first as? SQLiteStore)
        #expect(store.debugLog == nil)
        #expect(capture.lines(store: url.path, uuid: store.identifier ?? "").isEmpty)
    }

    @Test func launchArgumentWinsOverTheEnvironment() {
        func level(_ arguments: [String], _ environment: [String: String]) -> Int {
            CoreDataDebug.level(argument: CoreDataDebug.sqlDebugArgument,
                                environmentVariable: CoreDataDebug.sqlDebugEnvironmentVariable,
                                arguments: arguments, environment: environment)
        }
        #expect(level(["App"], [:]) == 0)
        #expect(level(["App", "-com.apple.CoreData.SQLDebug", "3"], [:]) == 3)
        #expect(level(["App", "-com.apple.CoreData.SQLDebug", "YES"], [:]) == 1)
        #expect(level(["App"], ["OPENCOREDATA_SQL_DEBUG": "2"]) == 2)
        #expect(level(["App", "-com.apple.CoreData.SQLDebug", "1"], ["OPENCOREDATA_SQL_DEBUG": "4"]) == 1)
        #expect(level(["App", "-com.apple.CoreData.SQLDebug"], ["OPENCOREDATA_SQL_DEBUG": "junk"]) == 0)
        #expect(CoreDataDebug.level(argument: CoreDataDebug.migrationDebugArgument,
                                    environmentVariable: CoreDataDebug.migrationDebugEnvironmentVariable,
                                    arguments: ["App", "-com.apple.CoreData.MigrationDebug", "1"],
                                    environment: [:]) == 1)
    }

    @Test func boundValuesAreReadBackFromTheExpandedStatement() {
        let sql = "SELECT a FROM T WHERE b = ? AND c = '?' AND d IN (?, ?) AND e = ?"
        let expanded = "SELECT a FROM T WHERE b = 'it''s' AND c = '?' AND d IN (-1.5e+3, NULL) AND e = x'00ff'"
        #expect(SQLiteDebugLog.boundValues(sql: sql, expanded: expanded) == ["'it''s'", "-1.5e+3", "NULL", "x'00ff'"])
    }
}
