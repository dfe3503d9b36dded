/// A description of objects to fetch from a context (Apple's NSFetchRequest).
///
/// `ResultType` is what `fetch(_:)` returns: a managed object class,
/// `NSManagedObjectID`, `NSDictionary`, `NSNumber`, or `NSFetchRequestResult`
/// for any of them. Creating one is cheap; the work happens in `fetch(_:)`.
open class NSFetchRequest<ResultType>: NSPersistentStoreRequest, NSCopying, @unchecked Sendable {
    private var entityStorage: NSEntityDescription?
    private var entityNameStorage: String?

    /// The entity to fetch; set by name or resolved from the context's model.
    public var entity: NSEntityDescription? {
        get { entityStorage }
        set { entityStorage = newValue; entityNameStorage = newValue?.name }
    }

    /// The name of the entity to fetch.
    public var entityName: String? {
        get { entityNameStorage ?? entityStorage?.name }
        set { entityNameStorage = newValue; if entityStorage?.name != newValue { entityStorage = nil } }
    }

    /// The most objects to return; 0 for no limit.
    public var fetchLimit: Int = 0
    /// How many matching objects to skip first.
    public var fetchOffset: Int = 0
    /// Objects to load at a time; 0 for all. `fetchBatched(_:)` returns a lazy
    /// result that keeps one batch in memory; `fetch(_:)` returns one fault
    /// per row, the first of a batch to fire loading its batch.
    public var fetchBatchSize: Int = 0
    /// What the fetch returns.
    public var resultType: NSFetchRequestResultType = .managedObjectResultType
    /// Whether objects of sub-entities match too (default true).
    public var includesSubentities: Bool = true
    /// Whether unsaved changes of the context count (default true). Not for
    /// dictionary results, which reflect the store only, as in Core Data.
    public var includesPendingChanges: Bool = true
    /// Whether returned objects stay faults until first used (default true).
    public var returnsObjectsAsFaults: Bool = true
    /// Whether property values are loaded with the objects (default true).
    public var includesPropertyValues: Bool = true
    /// The properties (names or descriptions) dictionary results hold; nil for all attributes.
    public var propertiesToFetch: [Any]?

    /// Which objects to fetch; nil fetches every object of the entity.
    public var predicate: NSPredicate?

    /// The order of the results; key paths may go through to-one relationships.
    public var sortDescriptors: [NSSortDescriptor]?

    /// Dictionary results: the properties (names, key paths or descriptions)
    /// whose equal values make one result, with aggregates computed per group.
    public var propertiesToGroupBy: [Any]?
    /// Dictionary results with groups: which groups to keep, read against each result dictionary.
    public var havingPredicate: NSPredicate?
    /// Dictionary results: whether equal dictionaries are returned once (default false).
    public var returnsDistinctResults: Bool = false
    /// Relationship key paths whose destinations to load with the results.
    /// Managed-object results only: each step of each path (to-one or to-many,
    /// e.g. "album.photos") loads its destinations in one batch per store, so
    /// touching them fires no fault per object. Unknown paths make the fetch throw.
    public var relationshipKeyPathsForPrefetching: [String]?
    /// Whether the fetch reloads objects already loaded in the context from
    /// the store, keeping their unsaved changes on top (default false: they
    /// keep the values they have).
    public var shouldRefreshRefetchedObjects: Bool = false

    /// A request without an entity: set ``entity`` before fetching, or use ``init(entityName:)``.
    public override init() { super.init() }

    /// `.fetchRequestType`.
    open override var requestType: NSPersistentStoreRequestType { .fetchRequestType }

    /// A request for objects of the entity named `entityName`.
    public convenience init(entityName: String) {
        self.init()
        self.entityName = entityName
    }

    /// A copy with the same settings.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSFetchRequest<ResultType>()
        copy.copySettings(from: self)
        return copy
    }

    func copySettings<Other>(from other: NSFetchRequest<Other>) {
        affectedStores = other.affectedStores
        entityStorage = other.entity
        entityNameStorage = other.entityName
        fetchLimit = other.fetchLimit
        fetchOffset = other.fetchOffset
        fetchBatchSize = other.fetchBatchSize
        resultType = other.resultType
        includesSubentities = other.includesSubentities
        includesPendingChanges = other.includesPendingChanges
        returnsObjectsAsFaults = other.returnsObjectsAsFaults
        includesPropertyValues = other.includesPropertyValues
        propertiesToFetch = other.propertiesToFetch
        predicate = other.predicate
        sortDescriptors = other.sortDescriptors
        propertiesToGroupBy = other.propertiesToGroupBy
        havingPredicate = other.havingPredicate
        returnsDistinctResults = other.returnsDistinctResults
        relationshipKeyPathsForPrefetching = other.relationshipKeyPathsForPrefetching
        shouldRefreshRefetchedObjects = other.shouldRefreshRefetchedObjects
    }

    /// The same request, typed for any result (what stores receive).
    var untyped: NSFetchRequest<NSFetchRequestResult> {
        if let same = self as? NSFetchRequest<NSFetchRequestResult> { return same }
        let copy = NSFetchRequest<NSFetchRequestResult>()
        copy.copySettings(from: self)
        return copy
    }

    /// The entity name, limit and offset, for logs.
    open override var description: String {
        "<NSFetchRequest entity: \(entityName ?? "nil") limit: \(fetchLimit) offset: \(fetchOffset)>"
    }
}
