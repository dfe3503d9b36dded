import Foundation
import GRDB
import Testing
@testable import OpenCoreDataCore

/// `ocd migrate`, run as a subprocess on copies of Apple-written stores with
/// their model versions gathered into a `.xcdatamodeld` (CorpusVersions).
@Suite(.enabled(if: Corpus.stores != nil && Corpus.models != nil, "shared/corpus is absent"))
struct OCDMigrateCommandTests {
    static let moodyPrefix = "objcio__core-data__Moody__"

    /// objc.io's Moody 3 store to Moody 5: the dry run prints the mapping and
    /// changes nothing; the migration then reads with Moody 5.
    @Test func dryRunPrintsTheMappingThenMigrationMigrates() throws {
        let store = try OCDStoreCommandTests.moody()
        let bundle = try CorpusVersions.bundle(Self.moodyPrefix)
        let before = try MigrationErrorTests.dump(store)
        let dry = try OCDModelCommandTests.ocd("migrate", store.path, "--model", bundle.url.path,
                                                "--to", "Moody_5", "--dry-run")
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("written by: Moody_3 (found by its schema)"))
        #expect(dry.stdout.contains("migrating to: Moody_5"))
        #expect(dry.stdout.contains("inferred mapping (lightweight, in place):"))
        #expect(dry.stdout.contains("transform  Country"))
        #expect(try MigrationErrorTests.dump(store) == before)

        let run = try OCDModelCommandTests.ocd("migrate", store.path, "--model", bundle.url.path, "--to", "Moody_5")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("migrated to Moody_5"))
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try bundle.model(named: "Moody_5"))
        try coordinator.addPersistentStore(type: .sqlite, at: store)
        var tally = SQLiteCorpusStoreTests.Tally(), failures: [String] = []
        try SQLiteCorpusStoreTests().read(coordinator, copy: store, store: "Moody_3", tally: &tally,
                                          failures: &failures)
        #expect(failures.isEmpty && tally.objects > 0, "\(failures)")
    }

    /// `--progress` (the default on a terminal) prints "migrated: n%" lines
    /// to stderr, only forward, ending at 100%; without it, on a pipe, none.
    @Test func progressLinesGoToStderr() throws {
        let bundle = try CorpusVersions.bundle(Self.moodyPrefix)
        let quiet = try OCDModelCommandTests.ocd("migrate", OCDStoreCommandTests.moody().path,
                                                 "--model", bundle.url.path, "--to", "Moody_5")
        #expect(quiet.status == 0 && !quiet.stderr.contains("migrated:"), "\(quiet.stderr)")
        let run = try OCDModelCommandTests.ocd("migrate", OCDStoreCommandTests.moody().path,
                                               "--model", bundle.url.path, "--to", "Moody_5", "--progress")
        #expect(run.status == 0, "\(run.stderr)")
        let percents = run.stderr.split(separator: "\n").compactMap { line -> Int? in
            guard line.hasPrefix("migrated: "), line.hasSuffix("%") else { return nil }
            return Int(line.dropFirst("migrated: ".count).dropLast())
        }
        #expect(percents.last == 100, "\(run.stderr)")
        #expect(zip(percents, percents.dropFirst()).allSatisfy { $0 < $1 })
        #expect(run.stdout.contains("migrated to Moody_5"))
    }

    /// A jump inference refuses: status 1, the reason on stderr, the store untouched.
    @Test func aRefusedMappingFailsWithItsReason() throws {
        let store = try SQLiteMetadataTests.copy(Corpus.stores!.appendingPathComponent(
            "objcio__core-data__Migrations_MigrationsTests_Moody_4.moody.sqlite"))
        let bundle = try CorpusVersions.bundle(Self.moodyPrefix)
        let before = try MigrationErrorTests.dump(store)
        let run = try OCDModelCommandTests.ocd("migrate", store.path, "--model", bundle.url.path)
        #expect(run.status == 1)
        #expect(run.stderr.contains("merging entity hierarchies is not inferable"), "\(run.stderr)")
        #expect(try MigrationErrorTests.dump(store) == before)
        let unknown = try OCDModelCommandTests.ocd("migrate", store.path, "--model", bundle.url.path, "--to", "V9")
        #expect(unknown.status == 1 && unknown.stderr.contains("no version named 'V9'"))
    }
}
