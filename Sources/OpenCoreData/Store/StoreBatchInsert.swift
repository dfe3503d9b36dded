/// What a store needs to run an `NSBatchInsertRequest`: the entity, its
/// records one at a time, and what to do with a record whose uniquely
/// constrained values a stored record already has.
public struct StoreBatchInsert: @unchecked Sendable {
    /// Who writes (the context's `transactionAuthor` and `name`), for persistent history.
    var author: String?, contextName: String?
    /// What a record colliding with a stored one on a uniqueness constraint does.
    enum Conflicts {
        /// Fails the request with NSManagedObjectConstraintMergeError (133021).
        case fail
        /// Replaces the stored record's attribute values (relationships stay).
        case update
        /// Leaves the stored record as it is.
        case keep
    }

    var entity: NSEntityDescription
    /// Hands each attribute name and value of the next record to `field`;
    /// false, calling nothing, when there is no record left. A visitor
    /// rather than a returned dictionary: no collection is made per record.
    var nextRecord: (_ field: (String, Any) throws -> Void) throws -> Bool
    var conflicts: Conflicts
    /// Whether the result must list the records' IDs.
    var wantsIDs: Bool
}

/// What a store's batch insert did: how many records it inserted or
/// updated and, when asked for, their IDs.
public struct StoreBatchInsertResult: @unchecked Sendable {
    var count: Int
    var ids: [NSManagedObjectID]?
}
