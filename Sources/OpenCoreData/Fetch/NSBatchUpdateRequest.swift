/// What an executed batch update returns, with Apple's raw values.
public enum NSBatchUpdateRequestResultType: UInt, Sendable {
    /// `result` is `true`.
    case statusOnlyResultType = 0
    /// `result` is the `[NSManagedObjectID]` of the updated records.
    case updatedObjectIDsResultType = 1
    /// `result` is the number of updated records.
    case updatedObjectsCountResultType = 2
}

/// Sets attributes of every record that matches a predicate, in the store,
/// without loading objects (Apple's NSBatchUpdateRequest; reference §4.4).
///
/// As in Core Data: validation rules are not applied, relationships cannot be
/// set, objects already in contexts keep their values (merge the result's
/// IDs with `NSManagedObjectContext.mergeChanges(fromRemoteContextSave:into:)`),
/// and each record's version (`Z_OPT`) is raised. On SQLite an update of
/// constant values whose predicate compiles to SQL is one `UPDATE` statement.
open class NSBatchUpdateRequest: NSPersistentStoreRequest {
    /// The name of the entity whose records are updated.
    public let entityName: String
    /// The entity, when the request was made with one; otherwise the context
    /// looks `entityName` up in its model when executing.
    public private(set) var entity: NSEntityDescription?
    /// Which records to update; nil for all.
    open var predicate: NSPredicate?
    /// Whether records of sub-entities are updated too (true by default).
    open var includesSubentities = true
    /// What `execute(_:)` returns in the result.
    open var resultType = NSBatchUpdateRequestResultType.statusOnlyResultType
    /// New values by attribute (its name or its `NSAttributeDescription`):
    /// constants of the attribute's type (`NSNull` clears), or `NSExpression`s
    /// evaluated on each record (`NSExpression(forKeyPath: "other")` copies a
    /// value; functions compute one).
    open var propertiesToUpdate: [AnyHashable: Any]?

    /// A request for the records of the entity named `entityName`.
    public init(entityName: String) {
        self.entityName = entityName
        super.init()
    }

    /// A request for the records of `entity`.
    public init(entity: NSEntityDescription) {
        self.entityName = entity.name ?? ""
        self.entity = entity
        super.init()
    }

    /// `.batchUpdateRequestType`.
    open override var requestType: NSPersistentStoreRequestType { .batchUpdateRequestType }
}

/// The result of an executed NSBatchUpdateRequest.
open class NSBatchUpdateResult: NSPersistentStoreResult {
    /// `true`, the updated IDs or their count, as `resultType` says.
    public let result: Any?
    /// The request's result type.
    public let resultType: NSBatchUpdateRequestResultType

    init(result: Any?, resultType: NSBatchUpdateRequestResultType) {
        self.result = result
        self.resultType = resultType
    }
}
