import Testing
import GRDB
@testable import OpenCoreData

/// A child process (StoreCrashWriter) saves large batches and is killed with
/// SIGKILL at random points; after every kill the store must open, pass
/// SQLite's integrity check and hold each save whole or not at all.
@Suite struct SQLiteCrashTests {
    static let writer: URL = {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("StoreCrashWriter").path), url.path != "/" {
            url.deleteLastPathComponent()
        }
        return url.appendingPathComponent("StoreCrashWriter")
    }()

    static let perSave = 1500

    /// Runs the writer until it has reported at least one save and a random
    /// part of a save's time has passed, kills it, and returns the last batch
    /// it reported saved and whether it was inside `save()` when killed.
    static func runAndKill(_ store: URL, random: inout SeededGenerator) throws -> (saved: Int64, inSave: Bool) {
        let process = Process()
        process.executableURL = writer
        process.arguments = [store.path, String(perSave), CrashModelForTests.url.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let start = Date()
        var seen = Data()
        // Wait for the first reported save, then let it run into a later one.
        while !String(decoding: seen, as: UTF8.self).contains("saved"), Date().timeIntervalSince(start) < 20, process.isRunning {
            seen += output.fileHandleForReading.availableData
        }
        let firstSave = Date().timeIntervalSince(start)
        usleep(UInt32.random(in: 1_000...UInt32(max(firstSave, 0.01) * 1_000_000), using: &random))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        seen += output.fileHandleForReading.readDataToEndOfFile()
        let lines = String(decoding: seen, as: UTF8.self).split(separator: "\n")
        let saved = lines.filter { $0.hasPrefix("saved ") }.compactMap { Int64($0.dropFirst(6)) }.max() ?? 0
        return (saved, lines.last?.hasPrefix("saving ") ?? false)
    }

    @Test func killedSavesAreAllOrNothing() throws {
        var random = SeededGenerator(seed: 134_100)
        let store = TestStack.temporaryStoreURL("Crash.sqlite")
        var lastReported: Int64 = 0
        var kills = 0, inSave = 0
        while kills < 5 {
            let (reported, during) = try Self.runAndKill(store, random: &random)
            kills += 1
            if during { inSave += 1 }
            #expect(reported >= lastReported, "a reported save was lost")
            lastReported = max(lastReported, reported)
            try Self.check(store, reported: lastReported)
        }
        #expect(lastReported >= 3)
        print("SQLiteCrashTests: \(kills) kills (\(inSave) inside save()), \(lastReported) saves of \(Self.perSave) objects each survived")
    }

    /// The store opens with the model, is intact, and its batches are whole:
    /// each present batch has every Node and Item, the save after it touched
    /// all of it, and batches three saves old are gone.
    static func check(_ url: URL, reported: Int64) throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try CrashModelForTests.make())
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let queue = try DatabaseQueue(path: url.path)
        try queue.read { (db: Database) throws in
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
            let batches = try Row.fetchAll(db, sql: "SELECT ZBATCH, COUNT(*), MIN(ZTOUCHED), MAX(ZTOUCHED) FROM ZNODE GROUP BY ZBATCH ORDER BY ZBATCH")
            let newest: Int64 = batches.last?[0] ?? 0
            #expect(newest >= reported && newest <= reported + 1, "saves beyond the reported one: \(newest) vs \(reported)")
            for row in batches {
                let batch: Int64 = row[0]
                #expect(row[1] as Int == perSave, "batch \(batch) is partial")
                if batch < newest {
                    #expect(row[2] as Int64? == batch + 1 && row[3] as Int64? == batch + 1, "batch \(batch) partly updated")
                }
                #expect(batch > newest - 3, "batch \(batch) should have been deleted")
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZITEM") == batches.count * perSave)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZITEM i LEFT JOIN ZNODE n ON n.Z_PK = i.ZOWNER WHERE n.Z_PK IS NULL OR n.ZBATCH != i.ZBATCH") == 0)
            let maxKey = try Int.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM ZNODE") ?? 0
            #expect(try Int.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Node'")! >= maxKey)
        }
    }
}

/// The model StoreCrashWriter saves with: one model file that both read.
enum CrashModelForTests {
    static let url: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() } // …/Tests/OpenCoreDataTests/Store/X.swift → Tests
        return url.appendingPathComponent("Fixtures/CrashModel.xcdatamodel")
    }()

    static func make() throws -> NSManagedObjectModel { try NSManagedObjectModel.load(contentsOf: url) }
}
