/// A fetch request as a model stores it: a template of `NSManagedObjectModel`
/// or the request of a fetched property.
///
/// The model layer sits below fetch requests; this value keeps what a model
/// file says (entity, predicate text, settings) and the fetch layer turns it
/// into an `NSFetchRequest`.
public struct FetchRequestDescription: Equatable, Sendable {
    /// The name of the entity to fetch.
    public var entityName: String
    /// The predicate in NSPredicate format syntax; nil fetches every object.
    public var predicateFormat: String?
    /// NSFetchRequestResultType raw value: 0 objects, 1 object IDs, 2 dictionaries, 4 count.
    public var resultType: UInt?
    /// At most this many results; nil as the model file leaves it out (no limit).
    public var fetchLimit: Int?
    /// The batch size for faulting results; nil when the model file does not set one.
    public var fetchBatchSize: Int?
    /// Whether objects of subentities match too; nil leaves `NSFetchRequest`'s default (true).
    public var includesSubentities: Bool?
    /// Whether results carry their values; nil leaves the default (true).
    public var includesPropertyValues: Bool?
    /// Whether unsaved changes of the context count; nil leaves the default (true).
    public var includesPendingChanges: Bool?
    /// Whether results come back as faults; nil leaves the default (true).
    public var returnsObjectsAsFaults: Bool?
    /// Whether dictionary results drop duplicates; nil leaves the default (false).
    public var returnsDistinctResults: Bool?

    /// A request for `entityName`, filtered by `predicateFormat` when given; every setting left to
    /// `NSFetchRequest`'s defaults. The predicate is parsed only when the request is built.
    public init(entityName: String, predicateFormat: String? = nil) {
        self.entityName = entityName
        self.predicateFormat = predicateFormat
    }
}
