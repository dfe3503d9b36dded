/// What a store needs to run an `NSBatchDeleteRequest`: which records (a
/// fetch's selection, or known IDs), and whether the caller wants their IDs.
public struct StoreBatchDelete: @unchecked Sendable {
    /// Who writes (the context's `transactionAuthor` and `name`), for persistent history.
    var author: String?, contextName: String?
    var entity: NSEntityDescription
    /// The selection: entity, predicate, sub-entities and window.
    var request: NSFetchRequest<NSFetchRequestResult>
    /// The records named by ID, instead of `request`'s predicate.
    var objectIDs: [NSManagedObjectID]?
    /// Whether the result must list the deleted records' IDs.
    var wantsIDs: Bool

    /// The selection as the stores' fetch machinery takes it.
    var fetch: StoreFetch { StoreFetch(entity: entity, request: request, appliesWindow: true) }
}

/// What a store's batch delete did: how many of the selected records it
/// deleted and, when asked for, their IDs. Records deleted by a cascade are
/// not counted, as Core Data's store deletes them in SQL triggers that
/// report nothing back.
public struct StoreBatchDeleteResult: @unchecked Sendable {
    var count: Int
    var ids: [NSManagedObjectID]?
}
