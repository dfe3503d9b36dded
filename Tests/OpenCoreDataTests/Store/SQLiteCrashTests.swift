import Testing
import GRDB
@testable import OpenCoreDataCore

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

    /// Kills the writer 5 times, or `OCD_KILLS` times (scripts/kill-saves.sh runs it
    /// 1000 times), and checks the store after each kill.
    @Test func killedSavesAreAllOrNothing() throws {
        let environment = ProcessInfo.processInfo.environment
        let runs = environment["OCD_KILLS"].flatMap { Int($0) } ?? 5
        var random = SeededGenerator(seed: environment["OCD_KILL_SEED"].flatMap { UInt64($0) } ?? 134_100)
        let store = TestStack.temporaryStoreURL("Crash.sqlite")
        var lastReported: Int64 = 0
        var kills = 0, inSave = 0, failed = 0
        while kills < runs {
            let (reported, during) = try Self.runAndKill(store, random: &random)
            kills += 1
            if during { inSave += 1 }
            var problems = try Self.problems(store, reported: max(lastReported, reported))
            if reported < lastReported { problems.append("a reported save was lost: \(reported) < \(lastReported)") }
            lastReported = max(lastReported, reported)
            if !problems.isEmpty { failed += 1 }
            #expect(problems.isEmpty, "kill \(kills): \(problems.joined(separator: "; "))")
        }
        #expect(lastReported >= 3)
        print("SQLiteCrashTests: \(kills) kills (\(inSave) inside save()), \(lastReported) saves of \(Self.perSave) objects each survived")
        print("SQLiteCrashTests: \(kills - failed) passed, \(failed) failed")
    }

    /// What is wrong with the store after a kill, empty when nothing is: it
    /// opens with the model, is intact, and its batches are whole: each present
    /// batch has every Node and Item, the save after it touched all of it, and
    /// batches three saves old are gone.
    static func problems(_ url: URL, reported: Int64) throws -> [String] {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try CrashModelForTests.make())
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let queue = try DatabaseQueue(path: url.path)
        return try queue.read { (db: Database) throws -> [String] in
            var problems: [String] = []
            let integrity = try String.fetchOne(db, sql: "PRAGMA integrity_check")
            if integrity != "ok" { problems.append("integrity check: \(integrity ?? "nil")") }
            let batches = try Row.fetchAll(db, sql: "SELECT ZBATCH, COUNT(*), MIN(ZTOUCHED), MAX(ZTOUCHED) FROM ZNODE GROUP BY ZBATCH ORDER BY ZBATCH")
            let newest: Int64 = batches.last?[0] ?? 0
            if newest < reported || newest > reported + 1 {
                problems.append("newest batch \(newest), reported \(reported)")
            }
            for row in batches {
                let batch: Int64 = row[0]
                let count: Int = row[1], touchedLow: Int64? = row[2], touchedHigh: Int64? = row[3]
                if count != perSave { problems.append("batch \(batch) is partial") }
                if batch < newest, touchedLow != batch + 1 || touchedHigh != batch + 1 {
                    problems.append("batch \(batch) partly updated")
                }
                if batch <= newest - 3 { problems.append("batch \(batch) should have been deleted") }
            }
            if try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZITEM") != batches.count * perSave {
                problems.append("Items and Nodes differ in number")
            }
            let orphans = """
                SELECT COUNT(*) FROM ZITEM i LEFT JOIN ZNODE n ON n.Z_PK = i.ZOWNER
                WHERE n.Z_PK IS NULL OR n.ZBATCH != i.ZBATCH
                """
            if try Int.fetchOne(db, sql: orphans) != 0 {
                problems.append("Items without their Node")
            }
            let maxKey = try Int.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM ZNODE") ?? 0
            let recordedMax = try Int.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Node'") ?? 0
            if recordedMax < maxKey {
                problems.append("Z_MAX below the highest Node key")
            }
            return problems
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
