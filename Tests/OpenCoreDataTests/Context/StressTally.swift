import Foundation
@testable import OpenCoreDataCore

/// What the writers of ConcurrentContextsStressTests did, shared between
/// their threads under a lock: saves made and failed (by error code), and the
/// rows saves inserted and deleted, as entity name → primary keys.
final class StressTally: @unchecked Sendable {
    struct Figures: CustomStringConvertible {
        var saves = 0, failed = 0, reads = 0
        var failures: [Int: Int] = [:]
        var seconds = 0.0
        var description: String {
            let codes = failures.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }.joined(separator: " ")
            return String(format: "%.1f s, %d saves made (%.0f/s), %d failed [%@], %d reader fetches",
                          seconds, saves, Double(saves) / max(seconds, 0.001), failed, codes, reads)
        }
    }

    /// The IDs of one DidSave notification, read on the saving context's queue.
    struct SavedIDs: @unchecked Sendable {
        let inserted: Set<NSManagedObjectID>, updated: Set<NSManagedObjectID>, deleted: Set<NSManagedObjectID>

        init(_ note: Notification) {
            func ids(_ key: String) -> Set<NSManagedObjectID> {
                Set((note.userInfo?[key] as? Set<NSManagedObject> ?? []).map(\.objectID))
            }
            inserted = ids(NSInsertedObjectsKey)
            updated = ids(NSUpdatedObjectsKey)
            deleted = ids(NSDeletedObjectsKey)
        }

        /// A DidSave notification that carries only the IDs, for merging on another queue.
        var notification: Notification {
            Notification(name: .NSManagedObjectContextDidSave, object: nil, userInfo: [
                NSInsertedObjectIDsKey: inserted, NSUpdatedObjectIDsKey: updated, NSDeletedObjectIDsKey: deleted,
            ])
        }
    }

    private let lock = NSLock()
    private var current = Figures()
    private var committed: [String: Set<Int64>] = [:]
    private var deleted: [String: Set<Int64>] = [:]

    func saved() { lock.withLock { current.saves += 1 } }
    func read() { lock.withLock { current.reads += 1 } }
    func failed(_ error: Error) {
        lock.withLock {
            current.failed += 1
            current.failures[(error as NSError).code, default: 0] += 1
        }
    }

    func record(_ ids: SavedIDs) {
        lock.withLock {
            for id in ids.inserted { committed[id.entity.name ?? "", default: []].insert(id.primaryKey ?? -1) }
            for id in ids.deleted { deleted[id.entity.name ?? "", default: []].insert(id.primaryKey ?? -1) }
        }
    }

    var figures: Figures { lock.withLock { current } }

    /// Rows some save inserted and no save deleted.
    var expectedPresent: [String: Set<Int64>] {
        lock.withLock {
            committed.reduce(into: [:]) { result, entry in
                result[entry.key] = entry.value.subtracting(deleted[entry.key] ?? [])
            }
        }
    }
}
