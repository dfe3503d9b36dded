/// What an executed batch insert returns, with Apple's raw values.
public enum NSBatchInsertRequestResultType: UInt, Sendable {
    /// `result` is `true`.
    case statusOnly = 0
    /// `result` is the `[NSManagedObjectID]` of the inserted (or upserted) records.
    case objectIDs = 1
    /// `result` is the number of inserted (or upserted) records.
    case count = 2
}

/// Inserts records of one entity in the store without making managed
/// objects (Apple's NSBatchInsertRequest, iOS 13; reference §4.4).
///
/// The records come from `objectsToInsert` (one dictionary of attribute
/// values per record), from `dictionaryHandler` (called with an empty
/// dictionary to fill until it returns `true`; that last dictionary is not
/// inserted) or from `managedObjectHandler` (likewise with a fresh object
/// of the entity, in no context). As in Core Data: SQLite stores only,
/// attributes only (relationships are not set), validation rules not
/// applied, attributes left out take their default values, and contexts
/// see the records once they fetch or merge the result's IDs. Values are
/// converted to the attribute's type as a save would store them; a value
/// that does not fit or an unknown key fails the whole request, and
/// nothing of it is written (one transaction). On an entity with
/// uniqueness constraints a record whose constrained values a stored record
/// has updates that record, by the executing context's merge policy.
open class NSBatchInsertRequest: NSPersistentStoreRequest {
    /// The name of the entity whose records are inserted.
    public let entityName: String
    /// The entity, when the request was made with one; otherwise the context
    /// looks `entityName` up in its model when executing.
    public private(set) var entity: NSEntityDescription?
    /// The records to insert, as attribute values by attribute name.
    open var objectsToInsert: [[String: Any]]?
    /// Fills one record's values per call; returns `true` when there are no more.
    open var dictionaryHandler: ((NSMutableDictionary) -> Bool)?
    /// Sets one record's attributes on the object per call; returns `true`
    /// when there are no more.
    open var managedObjectHandler: ((NSManagedObject) -> Bool)?
    /// What `execute(_:)` returns in the result.
    open var resultType = NSBatchInsertRequestResultType.statusOnly

    /// A request for the entity named `entityName` with records `objects`.
    public init(entityName: String, objects: [[String: Any]]) {
        self.entityName = entityName
        objectsToInsert = objects
        super.init()
    }

    /// A request for `entity` with records `objects`.
    public init(entity: NSEntityDescription, objects: [[String: Any]]) {
        entityName = entity.name ?? ""
        self.entity = entity
        objectsToInsert = objects
        super.init()
    }

    /// A request for the entity named `entityName` whose records `handler` fills in.
    public init(entityName: String, dictionaryHandler handler: @escaping (NSMutableDictionary) -> Bool) {
        self.entityName = entityName
        dictionaryHandler = handler
        super.init()
    }

    /// A request for `entity` whose records `handler` fills in.
    public init(entity: NSEntityDescription, dictionaryHandler handler: @escaping (NSMutableDictionary) -> Bool) {
        entityName = entity.name ?? ""
        self.entity = entity
        dictionaryHandler = handler
        super.init()
    }

    /// A request for the entity named `entityName` whose records `handler` sets on an object.
    public init(entityName: String, managedObjectHandler handler: @escaping (NSManagedObject) -> Bool) {
        self.entityName = entityName
        managedObjectHandler = handler
        super.init()
    }

    /// A request for `entity` whose records `handler` sets on an object.
    public init(entity: NSEntityDescription, managedObjectHandler handler: @escaping (NSManagedObject) -> Bool) {
        entityName = entity.name ?? ""
        self.entity = entity
        managedObjectHandler = handler
        super.init()
    }

    /// `.batchInsertRequestType`.
    open override var requestType: NSPersistentStoreRequestType { .batchInsertRequestType }
}

/// The result of an executed NSBatchInsertRequest.
open class NSBatchInsertResult: NSPersistentStoreResult {
    /// `true`, the inserted IDs or their count, as `resultType` says.
    public let result: Any?
    /// The request's result type.
    public let resultType: NSBatchInsertRequestResultType

    init(result: Any?, resultType: NSBatchInsertRequestResultType) {
        self.result = result
        self.resultType = resultType
    }
}
