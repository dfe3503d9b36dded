/// One object's record as a store keeps it: what the store layer knows of a
/// managed object (DESIGN: stores never see NSManagedObject).
///
/// Attributes hold Swift value types; relationships hold object IDs. An absent
/// attribute or to-one key means nil; an absent to-many key means empty.
public struct StoreSnapshot: @unchecked Sendable {
    /// The record's permanent ID.
    public var objectID: NSManagedObjectID
    /// The record's version (`Z_OPT`), raised by each save that changes it.
    public var version: Int64
    /// Attribute values by attribute name (transient attributes excluded).
    public var attributes: [String: Any]
    /// Destination IDs of to-one relationships by relationship name.
    public var toOne: [String: NSManagedObjectID]
    /// Destination IDs of to-many relationships by name, in order for ordered ones.
    public var toMany: [String: [NSManagedObjectID]]

    /// A record of `objectID` with the given values.
    public init(objectID: NSManagedObjectID, version: Int64 = 1, attributes: [String: Any] = [:],
                toOne: [String: NSManagedObjectID] = [:], toMany: [String: [NSManagedObjectID]] = [:]) {
        self.objectID = objectID
        self.version = version
        self.attributes = attributes
        self.toOne = toOne
        self.toMany = toMany
    }

    /// The snapshot with every relationship destination passed through `map`
    /// (used to replace temporary IDs by permanent ones).
    func mappingIDs(_ map: (NSManagedObjectID) -> NSManagedObjectID) -> StoreSnapshot {
        var copy = self
        copy.objectID = map(objectID)
        copy.toOne = toOne.mapValues(map)
        copy.toMany = toMany.mapValues { $0.map(map) }
        return copy
    }
}

/// The changes of one save, as a store applies them: all or nothing.
public struct StoreChangeSet: Sendable {
    /// Records to create; every ID is permanent and was handed out by the store.
    public var inserted: [StoreSnapshot] = []
    /// Records to replace; `version` is the version the context last read.
    public var updated: [StoreSnapshot] = []
    /// Records to remove.
    public var deleted: [NSManagedObjectID] = []

    /// An empty change set.
    public init() {}

    /// Whether the save changes nothing.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}

/// What a store needs to answer a fetch: the entity and the request's
/// store-side settings.
///
/// The fetch request is passed along whole so that predicates and sort
/// descriptors reach the store without changing this type.
public struct StoreFetch: @unchecked Sendable {
    /// The entity to fetch.
    public var entity: NSEntityDescription
    /// The request, for its predicate, sort, offset and limit.
    public var request: NSFetchRequest<NSFetchRequestResult>
    /// Whether the store applies `fetchOffset` and `fetchLimit`; false when the
    /// context merges unsaved objects and applies them itself.
    public var appliesWindow: Bool
}
