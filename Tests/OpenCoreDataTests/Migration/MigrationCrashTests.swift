import Foundation
import GRDB
import Testing
@testable import OpenCoreDataCore

/// A process killed (SIGKILL) at a random moment of a lightweight migration
/// leaves the store as it was or fully migrated, never a mix: the migration
/// is one SQLite transaction. The child is StoreCrashWriter's `migrate` mode.
@Suite struct MigrationCrashTests {
    static let notes = 150_000

    /// Version 2 adds an entity sorting first (every entity renumbered: every
    /// table rebuilt) and turns Note.folder into Note.folders (a join table).
    static func versions() throws -> [NSManagedObjectModel] {
        let changed = MigrationModels()
        let folders = TestStack.relationship("folders", to: changed.folder, toMany: true)
        folders.renamingIdentifier = "folder"
        TestStack.pair(changed.notes, folders)
        changed.note.properties = changed.note.ownProperties.map { $0.name == "folder" ? folders : $0 }
        let album = NSEntityDescription(name: "Album")
        album.properties = [NSAttributeDescription(name: "name", type: .stringAttributeType)]
        return try MigrationModels.versions(MigrationModels().model(), changed.model([album]))
    }

    /// A version 1 store of `notes` notes in 100 folders, filled by SQL.
    static func template(_ v1: NSManagedObjectModel) throws -> URL {
        let url = TestStack.temporaryStoreURL("Template.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: v1)
        let store = try coordinator.addPersistentStore(type: .sqlite, at: url)
        try coordinator.remove(store)
        let schema = try SQLiteSchema(model: v1)
        let folder = try #require(schema.entity(named: "Folder")), note = try #require(schema.entity(named: "Note"))
        let column = { (property: String) in schema.columnName(forProperty: property, ofEntity: "Note")! }
        try DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100)
                INSERT INTO ZFOLDER (Z_PK, Z_ENT, Z_OPT, ZNAME) SELECT i, \(folder.number), 1, 'f' || i FROM n
                """)
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(notes))
                INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, \(column("title")), \(column("count")), \(column("folder")))
                SELECT i, \(note.number), 1, 'n' || i, i, 1 + i % 100 FROM n
                """)
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 100 WHERE Z_NAME = 'Folder'")
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = \(notes) WHERE Z_NAME = 'Note'")
        }
        return url
    }

    /// Starts the child on `store`, kills it after `delay` seconds (or lets it
    /// finish); whether it reported the migration done.
    static func migrate(_ store: URL, bundle: URL, delay: Double?) throws -> Bool {
        let process = Process()
        process.executableURL = SQLiteCrashTests.writer
        process.arguments = ["migrate", store.path, bundle.path, "V2"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        if let delay {
            usleep(UInt32(delay * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).contains("migrated")
    }

    /// What is wrong with the store after a kill: it must pass SQLite's
    /// integrity check and be either the template (version 1's hashes and
    /// schema, same rows) or the migrated store (version 2's hashes, every
    /// note in its folder).
    static func problems(_ url: URL, template: [String], versions: [NSManagedObjectModel]) throws -> [String] {
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        let dump = try fingerprint(url)
        if try DatabaseQueue(path: url.path).read({ try String.fetchOne($0, sql: "PRAGMA integrity_check") }) != "ok" {
            return ["integrity check failed"]
        }
        if versions[0].isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) {
            return dump == template ? [] : ["version 1's hashes over another schema or other rows"]
        }
        guard versions[1].isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) else {
            return ["the metadata is neither version's"]
        }
        // It opens with version 2 (no migration left) and every note is in its folder, by SQL (fast).
        let context = try MigrationModels.open(url, versions[1], options: nil)
        let counted = try context.performAndWait { () throws in
            try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Note"))
        }
        let schema = try SQLiteSchema(model: versions[1])
        guard case .joinTable(let join)? = schema.storage(ofRelationship: "folders", ofEntity: "Note") else {
            return ["version 2 keeps Note.folders in no join table"]
        }
        let paired = try DatabaseQueue(path: url.path).read { db in
            try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM \(join.table) j JOIN ZNOTE n ON n.Z_PK = j.\(join.source)
                WHERE j.\(join.destination) = 1 + n.Z_PK % 100
                """)
        }
        return counted == Self.notes && paired == Self.notes
            ? [] : ["migrated store holds \(counted) notes, \(paired ?? 0) in their folder"]
    }

    /// The schema, and each table's row count and key sum: what a partial migration would change.
    static func fingerprint(_ url: URL) throws -> [String] {
        try DatabaseQueue(path: url.path).read { db in
            var lines = try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE sql NOT NULL ORDER BY 1")
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY 1")
            for table in tables {
                let key = try db.columns(in: table).first?.name ?? "1"
                let row = try Row.fetchOne(db, sql: "SELECT COUNT(*), TOTAL(\(key)) FROM \(table)")
                lines.append("\(table) \(row.map { "\($0)" } ?? "")")
            }
            return lines
        }
    }

    /// Kills 5 migrations (`OCD_MIGRATION_KILLS` for more) at random moments
    /// within an uninterrupted migration's time, and checks the store each time.
    @Test func killedMigrationsLeaveTheOldStoreOrTheNew() throws {
        let versions = try Self.versions()
        let bundle = try #require(versions[1].versionBundleURL)
        let template = try Self.template(versions[0])
        let templateDump = try Self.fingerprint(template)
        func copy() throws -> URL {
            let url = TestStack.temporaryStoreURL()
            try FileManager.default.copyItem(at: template, to: url)
            return url
        }
        // One migration to the end: its time bounds the kills.
        let whole = try copy()
        let start = Date()
        #expect(try Self.migrate(whole, bundle: bundle, delay: nil))
        let duration = Date().timeIntervalSince(start)
        #expect(try Self.problems(whole, template: templateDump, versions: versions).isEmpty)

        let runs = ProcessInfo.processInfo.environment["OCD_MIGRATION_KILLS"].flatMap { Int($0) } ?? 5
        var random = SeededGenerator(seed: 134_110)
        var old = 0, migrated = 0
        for kill in 1...runs {
            let url = try copy()
            let delay = Double.random(in: 0.02...max(0.03, duration * 1.3), using: &random)
            _ = try Self.migrate(url, bundle: bundle, delay: delay)
            let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType,
                                                                                       at: url)
            if versions[0].isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) {
                old += 1
            } else {
                migrated += 1
            }
            let problems = try Self.problems(url, template: templateDump, versions: versions)
            #expect(problems.isEmpty, "kill \(kill) after \(delay)s: \(problems.joined(separator: "; "))")
        }
        print("MigrationCrashTests: \(runs) kills within \(duration)s: \(old) left version 1, \(migrated) version 2")
    }
}
