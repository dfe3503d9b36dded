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
    public var fetchLimit: Int?
    public var fetchBatchSize: Int?
    public var includesSubentities: Bool?
    public var includesPropertyValues: Bool?
    public var includesPendingChanges: Bool?
    public var returnsObjectsAsFaults: Bool?
    public var returnsDistinctResults: Bool?

    public init(entityName: String, predicateFormat: String? = nil) {
        self.entityName = entityName
        self.predicateFormat = predicateFormat
    }
}
