/// One object's record as a store keeps it: what the store layer knows of a
/// managed object (DESIGN: stores never see NSManagedObject).
///
/// Values sit in the entity's property slots (`PropertySlotLayout`), the
/// layout objects use, so an object loads its record by sharing the slots:
/// attributes as Swift value types, to-one relationships as the destination's
/// ID, to-many as `[NSManagedObjectID]` (in order for ordered ones); transient
/// properties and absent values are nil, an absent to-many is empty.
public struct StoreSnapshot: @unchecked Sendable {
    /// The record's permanent ID.
    public var objectID: NSManagedObjectID
    /// The record's version (`Z_OPT`), raised by each save that changes it.
    public var version: Int64
    /// Where each property's value is in `values`.
    let layout: PropertySlotLayout
    /// The values by slot: empty, or one per property of the entity.
    var values: ContiguousArray<Any?>

    /// A record of `objectID` whose values are all nil.
    init(objectID: NSManagedObjectID, version: Int64, layout: PropertySlotLayout) {
        self.objectID = objectID
        self.version = version
        self.layout = layout
        values = ContiguousArray(repeating: nil, count: layout.count)
    }

    /// A record of `objectID` with the given values by property name.
    public init(objectID: NSManagedObjectID, version: Int64 = 1, attributes: [String: Any] = [:],
                toOne: [String: NSManagedObjectID] = [:], toMany: [String: [NSManagedObjectID]] = [:]) {
        self.init(objectID: objectID, version: version, layout: objectID.entity.slotLayout)
        for (name, value) in attributes { self[name] = value }
        for (name, id) in toOne { self[name] = id }
        for (name, ids) in toMany { self[name] = ids }
    }

    /// The value in `slot`.
    subscript(slot: Int) -> Any? {
        get { values[slot] }
        set { values[slot] = newValue }
    }

    /// The value of the property `name`; nil for a name the entity lacks.
    subscript(name: String) -> Any? {
        get { layout.slotsByName[name].flatMap { values[$0] } }
        set {
            guard let slot = layout.slotsByName[name] else {
                preconditionFailure("Entity \(objectID.entity.name ?? "") has no property named '\(name)'")
            }
            values[slot] = newValue
        }
    }

    /// Attribute values by attribute name (nil ones left out).
    public var attributes: [String: Any] {
        named { $0 is NSAttributeDescription }
    }

    /// Destination IDs of to-one relationships by relationship name.
    public var toOne: [String: NSManagedObjectID] {
        named { ($0 as? NSRelationshipDescription)?.isToMany == false }.compactMapValues { $0 as? NSManagedObjectID }
    }

    /// Destination IDs of to-many relationships by name (empty ones left out).
    public var toMany: [String: [NSManagedObjectID]] {
        named { ($0 as? NSRelationshipDescription)?.isToMany == true }.compactMapValues { $0 as? [NSManagedObjectID] }
    }

    private func named(_ include: (NSPropertyDescription) -> Bool) -> [String: Any] {
        var result: [String: Any] = [:]
        for (slot, property) in layout.properties.enumerated() where include(property) {
            if let value = values[slot] { result[property.name] = value }
        }
        return result
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
