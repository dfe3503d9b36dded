import Foundation

// ocd-bench: OpenCoreData beside hand-written SQLite and GRDB, in one run.
//   ocd-bench                  every workload at every size
//   ocd-bench --quick          the small sizes only (under two minutes)
//   ocd-bench --json           one JSON array of measurements instead of tables
//   ocd-bench --instructions   instructions per object instead of times: each child once under callgrind,
//                              counting only ocdBenchTimedRegion, every workload at 10k (needs valgrind)
//   --workload NAME            only this workload (its name's first word will do: fetch-graph); repeatable
//   --size N                   only this size

let graphSizes = [10_000, 100_000, 1_000_000]
/// The graph, plus the bookkeeping tables OpenCoreData needs to open it (ignored by the others).
let graphForAll: (Int, URL) throws -> Void = { photos, url in
    try GraphData.populate(photos: photos, at: url)
    try OCDPreparation.adoptGraph(url)
}
let workloads: [Workload] = [
    Workload(name: "insert-items (GRDB's 10 integers)", sizes: [50_000],
             systems: [.opencoredata: OCDItemWorkloads.insertItems, .raw: RawWorkloads.insertItems, .grdb: GRDBWorkloads.insertItems]),
    Workload(name: "insert-graph", sizes: graphSizes,
             systems: [.opencoredata: OCDWorkloads.insertGraph, .raw: RawWorkloads.insertGraph, .grdb: GRDBWorkloads.insertGraph]),
    Workload(name: "insert-graph-history (insert-graph with NSPersistentHistoryTrackingKey)", sizes: graphSizes,
             systems: [.opencoredata: OCDWorkloads.insertGraphTracked, .raw: RawWorkloads.insertGraph,
                       .grdb: GRDBWorkloads.insertGraph],
             note: "Issue 16's target: OpenCoreData here at most 1.3 times its insert-graph of the same run "
                 + "(raw and GRDB record no history)."),
    Workload(name: "insert-graph-classes (insert-graph with NSManagedObject subclasses, made by init(context:))",
             sizes: graphSizes,
             systems: [.opencoredata: OCDWorkloads.insertGraphWithClasses, .raw: RawWorkloads.insertGraph,
                       .grdb: GRDBWorkloads.insertGraph],
             note: "Objects of their own classes should cost what NSManagedObjects do: OpenCoreData here at most "
                 + "its insert-graph of the same run, give or take 5%."),
    Workload(name: "fetch-items (GRDB's 10 integers)", sizes: [200_000],
             systems: [.opencoredata: OCDItemWorkloads.fetchItems, .raw: RawWorkloads.fetchItems, .grdb: GRDBWorkloads.fetchItems],
             prepare: { try OCDPreparation.items(rows: $0, at: $1) }),
    Workload(name: "fetch-graph", sizes: graphSizes,
             systems: [.opencoredata: OCDWorkloads.fetchGraph, .raw: RawWorkloads.fetchGraph, .grdb: GRDBWorkloads.fetchGraph],
             prepare: graphForAll),
    Workload(name: "fetch-graph-classes (fetch-graph with NSManagedObject subclasses)", sizes: graphSizes,
             systems: [.opencoredata: OCDWorkloads.fetchGraphWithClasses, .raw: RawWorkloads.fetchGraph,
                       .grdb: GRDBWorkloads.fetchGraph],
             prepare: graphForAll,
             note: "OpenCoreData here at most its fetch-graph of the same run, give or take 5%."),
    Workload(name: "predicate-fetch", sizes: graphSizes,
             systems: [.opencoredata: OCDWorkloads.predicateFetch, .raw: RawWorkloads.predicateFetch, .grdb: GRDBWorkloads.predicateFetch],
             prepare: graphForAll),
    Workload(name: "cascade-delete", sizes: graphSizes,
             systems: [.opencoredata: OCDWorkloads.cascadeDelete, .raw: RawWorkloads.cascadeDelete, .grdb: GRDBWorkloads.cascadeDelete],
             prepare: graphForAll, unit: CountedUnit(name: "deleted photo") { $0 / 10 }),
    Workload(name: "cascade-delete-classes (cascade-delete with NSManagedObject subclasses)", sizes: graphSizes,
             systems: [.opencoredata: OCDWorkloads.cascadeDeleteWithClasses, .raw: RawWorkloads.cascadeDelete,
                       .grdb: GRDBWorkloads.cascadeDelete],
             prepare: graphForAll,
             note: "OpenCoreData here at most its cascade-delete of the same run, give or take 5%.",
             unit: CountedUnit(name: "deleted photo") { $0 / 10 }),
    Workload(name: "update-all", sizes: graphSizes,
             systems: [.opencoredata: OCDWorkloads.updateAll, .raw: RawWorkloads.updateAll, .grdb: GRDBWorkloads.updateAll],
             prepare: graphForAll),
    Workload(name: "update-all-nested (through a child context)", sizes: graphSizes,
             systems: [.opencoredata: NestedWorkloads.updateAllThroughChild, .raw: RawWorkloads.updateAll,
                       .grdb: GRDBWorkloads.updateAll],
             prepare: graphForAll,
             note: "update-all's changes made in a child context, saved into its parent, then to the store. "
                 + "Issue 14's target: OpenCoreData here at most 1.3 times its update-all of the same run."),
    Workload(name: "merge-save (10k saved photos merged into a context holding SIZE loaded photos)",
             sizes: [10_000, 100_000], systems: [:], prepare: graphForAll,
             selfTimed: [.opencoredata: NestedWorkloads.mergeSave],
             note: "OpenCoreData only: mergeChanges(fromContextDidSave:). Issue 14's target: the time per merged "
                 + "photo does not grow with the objects the context holds.",
             unit: CountedUnit(name: "merged photo") { min($0, NestedWorkloads.savedObjects) }),
    Workload(name: "batch-update (one attribute of every row, NSBatchUpdateRequest)", sizes: graphSizes,
             systems: [.opencoredata: OCDWorkloads.batchUpdate, .raw: RawWorkloads.batchUpdate, .grdb: GRDBWorkloads.batchUpdate],
             prepare: graphForAll),
    Workload(name: "batch-insert (photos without albums, NSBatchInsertRequest)", sizes: graphSizes,
             systems: [.opencoredata: OCDWorkloads.batchInsert, .raw: RawWorkloads.batchInsert],
             note: "Issue 16's target: OpenCoreData at most 1.5 times raw SQLite."),
    Workload(name: "batch-delete (every photo, by a predicate, NSBatchDeleteRequest)", sizes: graphSizes,
             systems: [.opencoredata: OCDWorkloads.batchDelete, .raw: RawWorkloads.batchDelete],
             prepare: graphForAll, note: "Issue 16's target: OpenCoreData at most 1.5 times raw SQLite."),
    Workload(name: "fetched-results change event (per event; 26 sections)", sizes: graphSizes,
             systems: [:], selfTimed: [.opencoredata: FetchedResultsWorkloads.changeEvent],
             note: "OpenCoreData only: raw SQLite and GRDB have no equivalent of a tracking "
                 + "NSFetchedResultsController.",
             unit: CountedUnit(name: "event") { _ in FetchedResultsWorkloads.events }),
    Workload(name: "fetch-faults (every photo as a fault, includesPropertyValues = false)", sizes: graphSizes,
             systems: [.opencoredata: OCDWorkloads.fetchFaults, .raw: RawWorkloads.fetchFaults,
                       .grdb: GRDBWorkloads.fetchFaults],
             prepare: graphForAll, isAboutMemory: true,
             note: "Issue 13's target: at most 150 bytes per fault above raw SQLite's keys."),
    Workload(name: "fire-faults (each photo's fault fired alone: one record read per object)", sizes: graphSizes,
             systems: [.opencoredata: OCDWorkloads.fireFaults, .raw: RawWorkloads.fireFaults,
                       .grdb: GRDBWorkloads.fireFaults],
             prepare: graphForAll,
             note: "Raw SQLite reuses one prepared statement; GRDB reads each record in a read of its own, "
                 + "as a context's fault does."),
    Workload(name: "batched-walk", sizes: [1_000_000],
             systems: [.opencoredata: OCDWorkloads.batchedWalk, .raw: RawWorkloads.batchedWalk, .grdb: GRDBWorkloads.batchedWalk],
             prepare: graphForAll, isAboutMemory: true, peakBound: 100 * 1_048_576,
             note: "Issue 9's bound: every system's peak must stay under 100 MB (the child fails otherwise)."),
    Workload(name: "migrate (Photo gains a column and renames one; lightweight, in place)", sizes: graphSizes,
             systems: [.opencoredata: MigrationWorkloads.migrateOCD, .raw: MigrationWorkloads.migrateRaw],
             prepare: MigrationWorkloads.prepare, isAboutMemory: true, peakBound: 50 * 1_048_576,
             note: "OpenCoreData: adding the store with both migration options to version 2 of the model (the "
                 + "version that wrote it found by its hashes, the mapping inferred, ALTER TABLE in one "
                 + "transaction, metadata rewritten); raw: the two ALTER TABLE statements in one transaction. "
                 + "Issue 15's targets: at most 1.5 times raw, a peak under 50 MB (the child fails above it).",
             unit: CountedUnit(name: "migration") { _ in 1 }),
    Workload(name: "store-open (an existing store, per open)", sizes: [10_000],
             systems: [.opencoredata: StoreOpenWorkloads.openOCD, .raw: StoreOpenWorkloads.openRaw,
                       .grdb: StoreOpenWorkloads.openGRDB],
             prepare: graphForAll,
             note: "One open of a store of SIZE photos: OpenCoreData's coordinator and context, raw "
                 + "sqlite3_open_v2 with the WAL pragma, GRDB's DatabasePool; each stays open "
                 + "(closing is not measured).",
             unit: CountedUnit(name: "open") { _ in 1 }),
    Workload(name: "store-reopen (store-open after an untimed open of another copy)", sizes: [10_000],
             systems: [:],
             prepare: graphForAll,
             selfTimed: [.opencoredata: StoreOpenWorkloads.reopen(StoreOpenWorkloads.openOCD),
                         .raw: StoreOpenWorkloads.reopen(StoreOpenWorkloads.openRaw),
                         .grdb: StoreOpenWorkloads.reopen(StoreOpenWorkloads.openGRDB)],
             note: "store-open's opens, each the second of its process: what the runtime, Foundation and SQLite "
                 + "do once per process is paid by the untimed first open of a copy.",
             unit: CountedUnit(name: "open") { _ in 1 }),
]

/// Writes `text` and a newline to standard output at once (progress under a pipe).
func say(_ text: String) { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    if arguments.first == "--child" {
        let underCallgrind = arguments.count == 5 && arguments[4] == "--under-callgrind"
        guard arguments.count == 4 || underCallgrind,
              let workload = workloads.first(where: { $0.name == arguments[1] }),
              let size = Int(arguments[2]), let system = System(rawValue: arguments[3]) else {
            throw BenchmarkError("usage: --child WORKLOAD SIZE SYSTEM [--under-callgrind], with a workload named "
                                 + "as in the tables: " + workloads.map(\.name).joined(separator: ", "))
        }
        try Harness.child(workload, size: size, system: system, underCallgrind: underCallgrind)
        exit(0)
    }
    let options = try Options(arguments)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    if options.instructions {
        var all: [InstructionMeasurement] = []
        for workload in try options.selected(workloads) {
            let results = try Callgrind.measure(workload, sizes: options.sizes(workload)) { command in
                if options.json { FileHandle.standardError.write(Data((command + "\n").utf8)) } else { say(command) }
            }
            all += results
            if !options.json { say(InstructionReport.table(workload, results) + "\n") }
        }
        if options.json {
            say(String(decoding: try encoder.encode(all), as: UTF8.self))
        } else {
            say(InstructionReport.markdown(all))
            say("callgrind's files (for callgrind_annotate) are in \(Callgrind.outputDirectory.path)")
        }
        exit(0)
    }
    var all: [Measurement] = []
    for workload in try options.selected(workloads) {
        let results = try Harness.measure(workload, sizes: options.sizes(workload))
        all += results
        if !options.json { print(Report.table(workload, results)) }
    }
    if options.json { print(String(decoding: try encoder.encode(all), as: UTF8.self)) }
} catch {
    FileHandle.standardError.write(Data("ocd-bench: \(error)\n".utf8))
    exit(1)
}
