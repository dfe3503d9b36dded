import Testing
import GRDB
@testable import OpenCoreDataCore
import OpenCoreDataTools

/// Issue 19, S1–S4: a store's bookkeeping tables and rows are untrusted
/// input. Each minimal store below stopped the program (stack overflow,
/// endless loop, GRDB's trapping conversions); now opening, rebuilding the
/// model, inspecting or reading throws an NSError or reads what is readable.
@Suite struct StoreBookkeepingTests {
    /// A saved store of SQLiteStoreTests' model (Box #1, Thing #2, its
    /// sub-entity Gadget #3): a box holding a thing and a gadget.
    static func store() throws -> URL {
        let context = try TestStack.context(SQLiteStoreTests.model(), .sqlite)
        let box = TestStack.insert("Box", into: context, ["name": "box"])
        for entity in ["Thing", "Gadget"] {
            TestStack.insert(entity, into: context, ["name": entity.lowercased()]).setValue(box, forKey: "box")
        }
        try context.save()
        let url = SQLiteStoreTests.url(of: context)
        context.persistentStoreCoordinator = nil
        return url
    }

    /// A fresh store changed by `sql`.
    static func damaged(_ sql: String) throws -> URL {
        let url = try store()
        try DatabaseQueue(path: url.path).write { try $0.execute(sql: sql) }
        return url
    }

    /// The NSError `body` throws (nil when it throws none).
    static func error(_ body: () throws -> Void) -> NSError? {
        do { try body(); return nil } catch { return error as NSError }
    }

    static func openWithModel(_ url: URL) throws -> NSPersistentStoreCoordinator {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: SQLiteStoreTests.model())
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: [NSReadOnlyPersistentStoreOption: true])
        return coordinator
    }

    /// Every way in: the model rebuilt from the store, the store opened with
    /// its model, and `ocd inspect` (with and without --reconstruct) must fail
    /// with 134080 naming `problem`, in time.
    static func expectRefused(_ sql: String, problem: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = try damaged(sql)
        let rebuilt = error { _ = try SQLiteModelReconstruction(store: url) }
        #expect(rebuilt?.domain == NSCocoaErrorDomain && rebuilt?.code == NSPersistentStoreOpenError, "\(sql): \(String(describing: rebuilt))", sourceLocation: sourceLocation)
        let rebuiltDescription = "\(rebuilt?.userInfo[NSLocalizedDescriptionKey] ?? "")"
        #expect(rebuiltDescription.contains(problem), "\(String(describing: rebuilt))", sourceLocation: sourceLocation)
        let opened = error { _ = try openWithModel(url) }
        #expect(opened?.domain == NSCocoaErrorDomain && opened?.code == NSPersistentStoreOpenError, "\(sql): \(String(describing: opened))", sourceLocation: sourceLocation)
        #expect(throws: StoreFileError.self, sourceLocation: sourceLocation) { try StoreInspection(store: url, reconstruct: true) }
        for extra in [[], ["--reconstruct"]] {
            let run = try Self.ocd(["inspect", url.path] + extra, timeout: 30)
            #expect(run.status == 1 && run.stderr.contains(problem), "ocd inspect \(extra) on \(sql): \(run)", sourceLocation: sourceLocation)
        }
    }

    @Test func s1SuperentityThatIsItselfIsRefused() throws {
        try Self.expectRefused("UPDATE Z_PRIMARYKEY SET Z_SUPER = Z_ENT WHERE Z_NAME = 'Box'", problem: "form a cycle")
        try Self.expectRefused("UPDATE Z_PRIMARYKEY SET Z_SUPER = Z_ENT WHERE Z_NAME = 'Gadget'", problem: "form a cycle")
    }

    @Test func s2SuperentityCyclesAreRefused() throws {
        // Thing ⇄ Gadget, and a three-entity loop.
        try Self.expectRefused("UPDATE Z_PRIMARYKEY SET Z_SUPER = 3 WHERE Z_ENT = 2", problem: "form a cycle")
        try Self.expectRefused("UPDATE Z_PRIMARYKEY SET Z_SUPER = (Z_ENT % 3) + 1", problem: "form a cycle")
        try Self.expectRefused("UPDATE Z_PRIMARYKEY SET Z_SUPER = 9 WHERE Z_ENT = 3", problem: "no entity of the store")
    }

    @Test func s4BookkeepingValuesOfTheWrongKindAreRefused() throws {
        try Self.expectRefused("UPDATE Z_PRIMARYKEY SET Z_NAME = NULL WHERE Z_ENT = 1", problem: "Z_NAME NULL")
        try Self.expectRefused("UPDATE Z_PRIMARYKEY SET Z_NAME = 7 WHERE Z_ENT = 1", problem: "Z_NAME '7'")
        try Self.expectRefused("UPDATE Z_PRIMARYKEY SET Z_NAME = 'Box; DROP TABLE ZBOX' WHERE Z_ENT = 1", problem: "not an entity name")
        try Self.expectRefused("UPDATE Z_PRIMARYKEY SET Z_NAME = 'Thing' WHERE Z_ENT = 1", problem: "listed twice")
        try Self.expectRefused("UPDATE Z_PRIMARYKEY SET Z_MAX = 'abc' WHERE Z_ENT = 1", problem: "Z_MAX 'abc'")
        try Self.expectRefused("UPDATE Z_PRIMARYKEY SET Z_MAX = 1.5 WHERE Z_ENT = 1", problem: "Z_MAX 1.5")
        try Self.expectRefused("UPDATE Z_PRIMARYKEY SET Z_SUPER = 'x' WHERE Z_ENT = 3", problem: "Z_SUPER 'x'")
        try Self.expectRefused("UPDATE Z_PRIMARYKEY SET Z_ENT = -3 WHERE Z_ENT = 3", problem: "Z_ENT -3")
        try Self.expectRefused("ALTER TABLE Z_PRIMARYKEY DROP COLUMN Z_MAX", problem: "lacks the column Z_MAX")
    }

    @Test func metadataOfTheWrongKindIsAnError() throws {
        for sql in ["UPDATE Z_METADATA SET Z_PLIST = 42", "UPDATE Z_METADATA SET Z_PLIST = x'00010203'",
                    "UPDATE Z_METADATA SET Z_UUID = x'00'", "UPDATE Z_METADATA SET Z_PLIST = '<plist><array/></plist>'"] {
            let url = try Self.damaged(sql)
            let read = Self.error { _ = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url) }
            #expect(read?.domain == NSCocoaErrorDomain && read?.code == NSPersistentStoreInvalidTypeError, "\(sql): \(String(describing: read))")
            let opened = Self.error { _ = try Self.openWithModel(url) }
            #expect(opened?.domain == NSCocoaErrorDomain && opened?.code == NSPersistentStoreInvalidTypeError, "\(sql): \(String(describing: opened))")
        }
    }

    /// A table whose key columns are not Core Data's integers does not fit the model (134020).
    @Test func keyColumnsOfTheWrongTypeDoNotFit() throws {
        let url = try Self.damaged("""
            ALTER TABLE ZTHING RENAME TO ZOLD; CREATE TABLE ZTHING AS SELECT * FROM ZOLD; DROP TABLE ZOLD
            """)
        let opened = Self.error { _ = try Self.openWithModel(url) }
        #expect(opened?.domain == NSCocoaErrorDomain && opened?.code == NSPersistentStoreIncompatibleSchemaError, "\(String(describing: opened))")
        let openedDescription = "\(opened?.userInfo[NSLocalizedDescriptionKey] ?? "")"
        #expect(openedDescription.contains("Z_PK"))
    }

    /// A Z_PK declared as a plain integer, not the rowid (its values are then not the rows' keys, and
    /// may be NULL), does not fit the model either (134020); the check reads SQLite's parsed schema.
    @Test func aKeyColumnThatIsNotTheRowidDoesNotFit() throws {
        let url = try Self.damaged("""
            PRAGMA writable_schema = ON;
            UPDATE sqlite_master SET sql = replace(sql, 'Z_PK INTEGER PRIMARY KEY', 'Z_PK INTEGER')
                WHERE name = 'ZTHING';
            PRAGMA writable_schema = OFF
            """)
        let opened = Self.error { _ = try Self.openWithModel(url) }
        #expect(opened?.domain == NSCocoaErrorDomain && opened?.code == NSPersistentStoreIncompatibleSchemaError,
                "\(String(describing: opened))")
        let description = "\(opened?.userInfo[NSLocalizedDescriptionKey] ?? "")"
        #expect(description.contains("Z_PK INTEGER, not INTEGER PRIMARY KEY"), "\(description)")
    }

    /// S3: a row whose Z_ENT is NULL (or not an integer) is no object:
    /// reading the relationships that lead to it neither stops the program
    /// nor finds it, with the model or with one rebuilt from the store.
    @Test(arguments: ["NULL", "'x'", "2.5", "x'02'"]) func s3RowsWithoutAnEntityNumberAreNoObjects(_ value: String) throws {
        let url = try Self.damaged("UPDATE ZTHING SET Z_ENT = \(value) WHERE ZNAME = 'thing'")
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = try Self.openWithModel(url)
        let boxes = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Box"))
        let things = SQLiteCorpusStoreTests.objects(boxes.first?.value(forKey: "things"))
        #expect(things.map(\.entity.name) == ["Gadget"], "\(value)")
        // Every property of every object, as the corpus tests read them.
        for coordinator in [context.persistentStoreCoordinator!, try StoreFile(reconstructing: url).coordinator] {
            let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            reader.persistentStoreCoordinator = coordinator
            var objects = 0
            for entity in coordinator.managedObjectModel.entities {
                let request = NSFetchRequest<NSManagedObject>(entityName: entity.name!)
                request.includesSubentities = false
                for object in try reader.fetch(request) {
                    objects += 1
                    for (key, property) in entity.propertiesByName where !property.isTransient {
                        _ = SQLiteCorpusStoreTests.objects(object.value(forKey: key))
                    }
                }
            }
            #expect(objects == 2, "\(value): the box and the gadget")
        }
    }

    /// A row whose Z_ENT is a fraction inside a hierarchy's range matches the
    /// fetch's `Z_ENT BETWEEN 2 AND 3`; SQLite hands the fetch its integer
    /// part, and the record read (which takes only integers) finds no object.
    @Test
    func fractionalEntityNumberInAHierarchyFetch() throws {
        let url = try Self.damaged("UPDATE ZTHING SET Z_ENT = 2.5 WHERE ZNAME = 'thing'")
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = try Self.openWithModel(url)
        let things = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Thing"))
        #expect(things.map(\.entity.name) == ["Gadget"])
    }

    /// The rows of Z_PRIMARYKEY as the checked reader gives them.
    @Test func checkedRowsOfAGoodStore() throws {
        let url = try Self.store()
        let rows = try DatabaseQueue(path: url.path).read { try SQLitePrimaryKeyTable.rows($0, file: url) }
        #expect(rows.map(\.name) == ["Box", "Thing", "Gadget"])
        #expect(rows.map(\.superNumber) == [0, 0, 2])
        #expect(rows.map(\.maxPrimaryKey) == [1, 2, 0])
    }

    // MARK: Running ocd with a time limit

    struct Run: CustomStringConvertible {
        var status: Int32, stdout: String, stderr: String
        var description: String { "status \(status), stderr: \(stderr.prefix(300))" }
    }

    /// `ocd` with `arguments`, killed (and reported) after `timeout` seconds.
    static func ocd(_ arguments: [String], timeout: TimeInterval) throws -> Run {
        let process = Process()
        process.executableURL = OCDModelCommandTests.executable
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            Issue.record("ocd \(arguments.joined(separator: " ")) still ran after \(timeout) s")
        }
        process.waitUntilExit()
        return Run(status: process.terminationStatus,
                   stdout: String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                   stderr: String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }
}
