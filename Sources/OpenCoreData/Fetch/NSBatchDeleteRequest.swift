/// What an executed batch delete returns, with Apple's raw values.
public enum NSBatchDeleteRequestResultType: UInt, Sendable {
    /// `result` is `true`.
    case resultTypeStatusOnly = 0
    /// `result` is the `[NSManagedObjectID]` of the deleted records.
    case resultTypeObjectIDs = 1
    /// `result` is the number of deleted records.
    case resultTypeCount = 2
}

/// Deletes the records a fetch request selects, or the records of given
/// object IDs, in the store without loading objects (Apple's
/// NSBatchDeleteRequest; reference §4.4, wave 2 §4.6).
///
/// As in Core Data: SQLite stores only (other stores throw
/// NSPersistentStoreUnsupportedRequestTypeError, 134091); validation rules are
/// not applied; delete rules are (cascade deletes the destinations,
/// nullify clears inverse keys and join-table rows, a mandatory inverse or a
/// deny rule with a destination refuses the whole request); objects already
/// in contexts stay until the result's IDs are merged with
/// `NSManagedObjectContext.mergeChanges(fromRemoteContextSave:into:)`. A
/// selection SQL can express is deleted by SQL statements over the
/// selection, one `DELETE` for an entity without relationships to follow.
open class NSBatchDeleteRequest: NSPersistentStoreRequest {
    /// The records to delete: the request's entity, predicate, whether
    /// sub-entities count, and its window (`fetchOffset`, `fetchLimit`).
    public let fetchRequest: NSFetchRequest<NSFetchRequestResult>
    /// What `execute(_:)` returns in the result.
    open var resultType = NSBatchDeleteRequestResultType.resultTypeStatusOnly
    /// The IDs given to `init(objectIDs:)`; nil for a request made from a fetch request.
    let objectIDs: [NSManagedObjectID]?

    /// A request deleting what `fetchRequest` selects (a copy is kept).
    public init(fetchRequest: NSFetchRequest<NSFetchRequestResult>) {
        // Apple declares the property @NSCopying: later changes to the caller's request don't apply.
        self.fetchRequest = fetchRequest.copy() as! NSFetchRequest<NSFetchRequestResult>
        objectIDs = nil
        super.init()
    }

    /// A request deleting the records of `objectIDs`, which must all be of
    /// one entity (executing throws NSPersistentStoreOperationError, 134070,
    /// otherwise). Its `fetchRequest` selects them by `SELF IN %@`.
    public init(objectIDs: [NSManagedObjectID]) {
        let request = NSFetchRequest<NSFetchRequestResult>()
        request.entity = objectIDs.first?.entity
        request.predicate = NSPredicate(format: "SELF IN %@", argumentArray: [objectIDs])
        fetchRequest = request
        self.objectIDs = objectIDs
        super.init()
    }

    /// `.batchDeleteRequestType`.
    open override var requestType: NSPersistentStoreRequestType { .batchDeleteRequestType }
}

/// The result of an executed NSBatchDeleteRequest.
open class NSBatchDeleteResult: NSPersistentStoreResult {
    /// `true`, the deleted IDs or their count, as `resultType` says.
    public let result: Any?
    /// The request's result type.
    public let resultType: NSBatchDeleteRequestResultType

    init(result: Any?, resultType: NSBatchDeleteRequestResultType) {
        self.result = result
        self.resultType = resultType
    }
}
