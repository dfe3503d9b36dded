import Foundation
import GRDB
import OpenCoreData

/// The opening of an existing store, which every other workload pays once at
/// its start: OpenCoreData's coordinator adding the SQLite store (it reads
/// and checks the metadata) with a private-queue context on it, raw SQLite's
/// `sqlite3_open_v2` with the WAL pragma (RawConnection, as every raw workload
/// opens), GRDB's DatabasePool. What each run opened stays open until the
/// child ends, so that only the opening is measured, not the closing.
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
}
