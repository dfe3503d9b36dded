/// What a store needs to run an `NSBatchInsertRequest`: the entity, its
/// records one at a time, and what to do with a record whose uniquely
/// constrained values a stored record already has.
public struct StoreBatchInsert: @unchecked Sendable {
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
    /// The next record's attribute values by name; nil after the last.
    var nextRecord: () throws -> [String: Any]?
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
