/// One object's record as a store keeps it: what the store layer knows of a
/// managed object (DESIGN: stores never see NSManagedObject).
///
/// Values sit in the entity's property slots (`PropertySlotLayout`), the
/// layout objects use, so an object loads its record by sharing the slots:
/// attributes as Swift value types, to-one relationships as the destination's
/// ID, to-many as IDs (in order for ordered ones); transient properties and
/// absent values are none, an absent to-many is empty (see `SlotValue`).
public struct StoreSnapshot: @unchecked Sendable {
    /// The record's permanent ID. A record a fetch read makes its ID here,
    /// anew at each call (see `identity`).
    public var objectID: NSManagedObjectID {
        get { identity.objectID }
        set { identity = .id(newValue) }
    }
    /// Which record this is: its ID, or for a record a fetch read, the
    /// family and key its ID is made from.
    var identity: RecordIdentity
    /// The record's version (`Z_OPT`), raised by each save that changes it.
    public var version: Int64
    /// Where each property's value is in `values`.
    let layout: PropertySlotLayout
    /// The values by slot: one per property of the entity.
    var values: SlotValues
    /// For a record a save updates: the slots whose values may differ from
    /// the stored ones (the others are as stored); nil when any may.
    var changedSlots: SlotSet?

    /// A record of `objectID` whose values are all none.
    init(objectID: NSManagedObjectID, version: Int64, layout: PropertySlotLayout) {
        self.init(identity: .id(objectID), version: version, layout: layout, values: .empty(layout: layout))
    }

    /// A record of `objectID` with `values`, one per slot of `layout`.
    init(objectID: NSManagedObjectID, version: Int64, layout: PropertySlotLayout, values: SlotValues) {
        self.init(identity: .id(objectID), version: version, layout: layout, values: values)
    }

    /// The record `identity` with `values`, one per slot of `layout`.
    init(identity: RecordIdentity, version: Int64, layout: PropertySlotLayout, values: SlotValues) {
        self.identity = identity
        self.version = version
        self.layout = layout
        self.values = values
    }

    /// A record of `objectID` with the given values by property name.
    public init(objectID: NSManagedObjectID, version: Int64 = 1, attributes: [String: Any] = [:],
                toOne: [String: NSManagedObjectID] = [:], toMany: [String: [NSManagedObjectID]] = [:]) {
        self.init(objectID: objectID, version: version, layout: objectID.entity.slotLayout)
        for (name, value) in attributes { values[slot(name)] = SlotValue(attribute: value) }
        for (name, id) in toOne { values[slot(name)] = .record(.id(id)) }
        for (name, ids) in toMany { values[slot(name)] = ids.isEmpty ? .none : .ids(ids) }
    }

    private func slot(_ name: String) -> Int {
        guard let slot = layout.slotsByName[name] else {
            preconditionFailure("Entity \(identity.entity.name ?? "") has no property named '\(name)'")
        }
        return slot
    }

    /// The value in `slot`.
    subscript(slot: Int) -> SlotValue {
        get { values[slot] }
        set { values[slot] = newValue }
    }

    /// The value of the property `name` as `Any` (relationships as IDs); nil
    /// for a name the entity lacks.
    subscript(name: String) -> Any? {
        layout.slotsByName[name].flatMap { values[$0].any }
    }

    /// Attribute values by attribute name (nil ones left out).
    public var attributes: [String: Any] {
        var result: [String: Any] = [:]
        for (slot, property) in layout.properties.enumerated() where property is NSAttributeDescription {
            if let value = values[slot].any { result[property.name] = value }
        }
        return result
    }

    /// Destination IDs of to-one relationships by relationship name.
    public var toOne: [String: NSManagedObjectID] {
        var result: [String: NSManagedObjectID] = [:]
        for (slot, property) in layout.properties.enumerated() {
            if case .record(let record) = values[slot], property is NSRelationshipDescription {
                result[property.name] = record.objectID
            }
        }
        return result
    }

    /// Destination IDs of to-many relationships by name (empty ones left out).
    public var toMany: [String: [NSManagedObjectID]] {
        var result: [String: [NSManagedObjectID]] = [:]
        for (slot, property) in layout.properties.enumerated() {
            if case .ids(let ids) = values[slot] { result[property.name] = ids }
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
    /// The version the context last read of each record of `deleted`, by
    /// position (`appendDeleted(_:version:)`); 0, or no entry, for none.
    private(set) var versionsOfDeleted: [Int64] = []
    /// Records the save does not change but checks, with the version the
    /// context read (`detectConflicts(for:)`).
    var lockedVersions: [(id: NSManagedObjectID, version: Int64)] = []
    /// Who saved, for the transaction persistent history records (`transactionAuthor` and `name` of the context).
    var author: String?, contextName: String?

    /// An empty change set.
    public init() {}

    /// Whether the save changes nothing.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }

    /// Adds `id` to the deleted records, to be deleted at `version` (0 for any).
    mutating func appendDeleted(_ id: NSManagedObjectID, version: Int64) {
        if versionsOfDeleted.count < deleted.count {
            versionsOfDeleted += repeatElement(0, count: deleted.count - versionsOfDeleted.count)
        }
        deleted.append(id)
        versionsOfDeleted.append(max(version, 0))
    }

    /// The deleted records the context read a version of, with that version.
    var deletedVersions: [(id: NSManagedObjectID, version: Int64)] {
        zip(deleted, versionsOfDeleted).filter { $0.1 > 0 }.map { ($0.0, $0.1) }
    }

    /// `versionsOfDeleted`, one for every record of `deleted`.
    func versionsOfEveryDeleted() -> [Int64] {
        versionsOfDeleted.count >= deleted.count ? Array(versionsOfDeleted.prefix(deleted.count))
            : versionsOfDeleted + repeatElement(0, count: deleted.count - versionsOfDeleted.count)
    }
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
