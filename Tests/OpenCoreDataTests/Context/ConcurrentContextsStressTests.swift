import Foundation
import Testing
import GRDB
@testable import OpenCoreDataCore

/// Several private-queue contexts on one coordinator and one SQLite file
/// insert, move and delete albums and photos from seeded generators and save
/// over and over, each from its own `DispatchQueue.global()` job, while a
/// reader merges their DidSave notifications and refetches. Saves fail with
/// NSManagedObjectMergeError (133020) when another writer saved or deleted one
/// of their objects first; the writer rolls back and goes on. Afterwards the file must pass
/// `PRAGMA integrity_check`, every inverse must agree (through a fresh context
/// and in SQL) and every object saved and not deleted since must be there.
///
/// The test runs for about 3 s; `OCD_STRESS_SECONDS=<n>` runs a second,
/// longer test for n seconds, for runs outside CI.
///
/// A writer that moves or inserts a photo into an album another writer just
/// deleted changes that album too (its inverse to-many), so optimistic
/// locking fails its save with 133020 (the default merge policy) instead of
/// leaving the photo pointing at a deleted album, as happened before.
@Suite(.serialized) struct ConcurrentContextsStressTests {

    @Test func writersAndAReaderOnOneFile() async throws {
        let figures = try await Self.run(seconds: 3, writers: 3, seed: 19_000)
        print("ConcurrentContextsStressTests: \(figures)")
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["OCD_STRESS_SECONDS"] != nil))
    func longRun() async throws {
        let seconds = Double(ProcessInfo.processInfo.environment["OCD_STRESS_SECONDS"] ?? "") ?? 60
        let figures = try await Self.run(seconds: seconds, writers: 3, seed: 19_001)
        print("ConcurrentContextsStressTests (long): \(figures)")
    }

    /// Runs `writers` writers and one reader for `seconds`, then checks the file.
    static func run(seconds: Double, writers: Int, seed: UInt64) async throws -> StressTally.Figures {
        let first = try TestStack.context(TestStack.albumsModel(), .sqlite)
        let contexts = [first] + (1..<writers).map { _ in TestStack.sibling(of: first) }
        let reader = TestStack.sibling(of: first)
        let tally = StressTally()
        let observers = contexts.map { writer in
            NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: writer,
                                                   queue: nil) { note in
                // Runs inside the writer's save, on its queue: the objects are read there and only
                // their IDs, which may cross threads, go to the tally and the reader.
                let ids = StressTally.SavedIDs(note)
                tally.record(ids)
                reader.perform { reader.mergeChanges(fromContextDidSave: ids.notification) }
            }
        }
        defer { observers.forEach(NotificationCenter.default.removeObserver) }

        let deadline = Date().addingTimeInterval(seconds)
        let start = Date()
        let group = DispatchGroup()
        for (index, writer) in contexts.enumerated() {
            DispatchQueue.global().async(group: group) {
                var random = SeededGenerator(seed: seed &+ UInt64(index))
                var serial = 0, rounds = 0
                // At least 20 rounds: a writer whose job starts late (the global queue's threads are
                // busy) still saves.
                while Date() < deadline || rounds < 20 {
                    rounds += 1
                    writer.performAndWait {
                        StressWriter.round(writer, index: index, serial: &serial, random: &random, tally: tally)
                    }
                }
            }
        }
        // The reader loops on a thread of its own: with as many writer jobs as cores, a fourth
        // global-queue job may not start before the writers finish.
        group.enter()
        Thread {
            while Date() < deadline {
                reader.performAndWait { StressWriter.read(reader, tally: tally) }
                usleep(2_000)
            }
            group.leave()
        }.start()
        await withCheckedContinuation { continuation in group.notify(queue: .global()) { continuation.resume() } }
        // Merges still queued on the reader finish before the checks.
        reader.performAndWait {}
        var figures = tally.figures
        figures.seconds = Date().timeIntervalSince(start)

        #expect(figures.saves > 0, "nothing saved: the checks below would be empty")
        let url = try #require(first.persistentStoreCoordinator?.persistentStores.first?.url)
        try checkFile(url, tally: tally)
        try checkThroughFreshContext(first, tally: tally)
        return figures
    }

    /// SQLite's integrity check, inverses as the file holds them, and every
    /// committed row present.
    static func checkFile(_ url: URL, tally: StressTally) throws {
        let queue = try DatabaseQueue(path: url.path)
        try queue.read { (db: Database) throws in
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
            let dangling = try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM ZPHOTO p LEFT JOIN ZALBUM a ON a.Z_PK = p.ZALBUM
                WHERE p.ZALBUM IS NOT NULL AND a.Z_PK IS NULL
                """)
            #expect(dangling == 0, "photos whose ZALBUM names no album row")
            for (entity, keys) in tally.expectedPresent {
                let present = Set(try Int64.fetchAll(db, sql: "SELECT Z_PK FROM Z\(entity.uppercased())"))
                let missing = keys.subtracting(present)
                #expect(missing.isEmpty,
                        "\(missing.count) committed \(entity) rows missing: \(missing.sorted().prefix(10))")
            }
        }
    }

    /// Through a context on a new coordinator: both sides of Album.photos ⟷
    /// Photo.album agree, and the committed objects are found.
    static func checkThroughFreshContext(_ context: NSManagedObjectContext, tally: StressTally) throws {
        let fresh = try TestStack.reader(of: context)
        try fresh.performAndWait { () throws in
            let albums = try fresh.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album"))
            let photos = try fresh.fetch(NSFetchRequest<NSManagedObject>(entityName: "Photo"))
            let fetchedAlbums = Set(albums.map(\.objectID))
            for photo in photos {
                guard let album = photo.value(forKey: "album") as? NSManagedObject else { continue }
                guard fetchedAlbums.contains(album.objectID) else {
                    Issue.record("photo \(photo.objectID) points at album \(album.objectID), which is gone")
                    continue
                }
                #expect(TestStack.set(album, "photos").contains(photo), "photo not in its album's photos")
            }
            for album in albums {
                for photo in TestStack.set(album, "photos") {
                    #expect(photo.value(forKey: "album") as? NSManagedObject === album,
                            "album's photo points elsewhere")
                }
            }
            let found = ["Album": albums, "Photo": photos].mapValues { Set($0.compactMap(\.objectID.primaryKey)) }
            for (entity, keys) in tally.expectedPresent {
                #expect(keys.isSubset(of: found[entity] ?? []), "committed \(entity) objects not fetched")
            }
        }
    }
}
