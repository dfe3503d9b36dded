import Foundation

// ocd-bench: OpenCoreData beside hand-written SQLite and GRDB, in one run.
//   ocd-bench            every workload at every size
//   ocd-bench --quick    the small sizes only (under two minutes)
//   ocd-bench --json     one JSON array of measurements instead of tables

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
    Workload(name: "fetch-items (GRDB's 10 integers)", sizes: [200_000],
             systems: [.opencoredata: OCDItemWorkloads.fetchItems, .raw: RawWorkloads.fetchItems, .grdb: GRDBWorkloads.fetchItems],
             prepare: { try OCDPreparation.items(rows: $0, at: $1) }),
    Workload(name: "fetch-graph", sizes: graphSizes,
             systems: [.opencoredata: OCDWorkloads.fetchGraph, .raw: RawWorkloads.fetchGraph, .grdb: GRDBWorkloads.fetchGraph],
             prepare: graphForAll),
    Workload(name: "predicate-fetch", sizes: graphSizes,
             systems: [.opencoredata: OCDWorkloads.predicateFetch, .raw: RawWorkloads.predicateFetch, .grdb: GRDBWorkloads.predicateFetch],
             prepare: graphForAll),
    Workload(name: "cascade-delete", sizes: graphSizes,
             systems: [.opencoredata: OCDWorkloads.cascadeDelete, .raw: RawWorkloads.cascadeDelete, .grdb: GRDBWorkloads.cascadeDelete],
             prepare: graphForAll),
    Workload(name: "update-all", sizes: graphSizes,
             systems: [.opencoredata: OCDWorkloads.updateAll, .raw: RawWorkloads.updateAll, .grdb: GRDBWorkloads.updateAll],
             prepare: graphForAll),
    Workload(name: "batch-update (one attribute of every row, NSBatchUpdateRequest)", sizes: graphSizes,
             systems: [.opencoredata: OCDWorkloads.batchUpdate, .raw: RawWorkloads.batchUpdate, .grdb: GRDBWorkloads.batchUpdate],
             prepare: graphForAll),
    Workload(name: "fetched-results change event (per event; 26 sections)", sizes: graphSizes,
             systems: [:], selfTimed: [.opencoredata: FetchedResultsWorkloads.changeEvent],
             note: "OpenCoreData only: raw SQLite and GRDB have no equivalent of a tracking NSFetchedResultsController."),
    Workload(name: "batched-walk", sizes: [1_000_000],
             systems: [.opencoredata: OCDWorkloads.batchedWalk, .raw: RawWorkloads.batchedWalk, .grdb: GRDBWorkloads.batchedWalk],
             prepare: graphForAll, isAboutMemory: true, peakBound: 100 * 1_048_576,
             note: "Issue 9's bound: every system's peak must stay under 100 MB (the child fails otherwise)."),
]

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    if arguments.first == "--child" {
        guard arguments.count == 4, let workload = workloads.first(where: { $0.name == arguments[1] }),
              let size = Int(arguments[2]), let system = System(rawValue: arguments[3]) else {
            throw BenchmarkError("usage: --child WORKLOAD SIZE SYSTEM, with a workload named as in the tables: "
                                 + workloads.map(\.name).joined(separator: ", "))
        }
        try Harness.child(workload, size: size, system: system)
        exit(0)
    }
    let quick = arguments.contains("--quick"), json = arguments.contains("--json")
    var all: [Measurement] = []
    for workload in workloads {
        let sizes = quick ? [workload.sizes.min()!].map { min($0, 10_000) } : workload.sizes
        let results = try Harness.measure(workload, sizes: sizes)
        all += results
        if !json { print(Report.table(workload, results)) }
    }
    if json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        print(String(decoding: try encoder.encode(all), as: UTF8.self))
    }
} catch {
    FileHandle.standardError.write(Data("ocd-bench: \(error)\n".utf8))
    exit(1)
}
