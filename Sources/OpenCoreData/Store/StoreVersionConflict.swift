/// Thrown by a store's `save(_:)`, which then has written nothing, when a
/// record the save updates or deletes is no longer at the version the
/// context last read (Core Data's optimistic locking: another context or
/// program saved or deleted it since). The SQLite store finds them as Core
/// Data does, by `… WHERE Z_PK = ? AND Z_OPT = ?` matching no row, and rolls
/// the transaction back; the in-memory store compares versions first. The
/// context hands the conflicts to its merge policy and, if the policy
/// resolves them, saves again.
struct StoreVersionConflict: Error {
    struct Record {
        let objectID: NSManagedObjectID
        /// The record as the store holds it now; nil when it was deleted.
        let persisted: StoreSnapshot?
    }

    let records: [Record]
}

extension StoreChangeSet {
    /// The version (`Z_OPT`) the context last read of each record the save
    /// updates or deletes, where it knows one: the store compares them with
    /// its own before writing.
    var expectedVersions: [(id: NSManagedObjectID, version: Int64)] {
        updated.lazy.filter { $0.version > 0 }.map { ($0.objectID, $0.version) } + deletedVersions + lockedVersions
    }
}
