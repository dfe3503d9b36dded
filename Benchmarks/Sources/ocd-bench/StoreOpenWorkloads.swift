import Foundation
import GRDB
import OpenCoreData

/// The opening of an existing store, which every other workload pays once at
/// its start: OpenCoreData's coordinator adding the SQLite store (it reads
/// and checks the metadata) with a private-queue context on it, raw SQLite's
/// `sqlite3_open_v2` with the WAL pragma (RawConnection, as every raw workload
/// opens), GRDB's DatabasePool. What each run opened stays open until the
/// child ends, so that only the opening is measured, not the closing.
///
/// `store-open` is the first open in a process, so it also pays what the
/// Swift runtime, Foundation and SQLite do once per process (type metadata,
/// protocol conformance lookups, SQLite's initialization); `store-reopen`
/// opens a copy of the store untimed first, so it counts what every further
/// open costs (another store, a test, a fuzz input, a document).
enum StoreOpenWorkloads {
    /// What the runs opened; written by the child's one thread only.
    nonisolated(unsafe) private static var opened: [AnyObject] = []

    static func openOCD(_ photos: Int, _ url: URL) throws {
        opened.append(try OCDModels.context(OCDModels.graph, url))
    }

    static func openRaw(_ photos: Int, _ url: URL) throws {
        opened.append(try RawConnection(url))
    }

    static func openGRDB(_ photos: Int, _ url: URL) throws {
        opened.append(try GRDBWorkloads.open(url))
    }

    /// `open` as a second open: a copy of the store opened untimed, then the store itself timed.
    static func reopen(_ open: @escaping (Int, URL) throws -> Void) -> (Int, URL) throws -> Double {
        { photos, url in
            let first = url.deletingPathExtension().appendingPathExtension("first.sqlite")
            try FileManager.default.copyItem(at: url, to: first)
            try open(photos, first)
            let start = DispatchTime.now().uptimeNanoseconds
            try ocdBenchTimedRegion { try open(photos, url) }
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
    }
}
