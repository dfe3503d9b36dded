/// Where each property of an entity lives in its objects' value storage:
/// one slot per property, in the order of the entity's `properties`
/// (inherited properties first, so an inherited property has the same slot
/// in the superentity and in every sub-entity).
///
/// Made once per entity when its model is frozen; a key resolves to its
/// slot with one lookup, and a property of a frozen model knows its slot
/// without any lookup.
final class PropertySlotLayout: @unchecked Sendable {
    /// The entity's properties, by slot.
    let properties: [NSPropertyDescription]
    /// The slot of each property name (a property redeclared by a sub-entity
    /// names the sub-entity's slot, as `propertiesByName` names its property).
    let slotsByName: [String: Int]

    /// The slots a record stores in its own row: persistent attributes and
    /// to-one relationships.
    let columnSlots: SlotSet
    /// The slots of fetched properties: each holds its results once fetched,
    /// a cache that is never a change, never saved and never handed to
    /// another context.
    let fetchedSlots: SlotSet
    /// The slots of transient properties, whose values stay in the object.
    let transientSlots: SlotSet
    /// What each slot holds, by slot: how key-value access reads it without
    /// casting the property.
    let kinds: [Kind]
    /// Each to-one relationship's place among the entity's to-one
    /// relationships, by slot (-1 for other slots): where an object keeps
    /// the destination it resolved (`PropertyValues.resolvedDestination`).
    let toOneOrdinals: [Int]
    /// How many to-one relationships the entity has.
    let toOneCount: Int
    /// Each attribute's type, by slot (nil for the other properties): what a
    /// set through key-value coding checks its value against without
    /// retaining and casting the attribute.
    let attributeTypes: [NSAttributeType?]
    /// How many slots an object of the entity has: one per property.
    let count: Int
    private let keyTable: PropertyKeyTable

    /// What a slot holds, as key-value access presents it.
    enum Kind {
        case attribute, toOne, toMany, orderedToMany, fetched
    }

    init(_ properties: [NSPropertyDescription]) {
        self.properties = properties
        count = properties.count
        slotsByName = Dictionary(properties.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { _, own in own })
        columnSlots = SlotSet(properties.indices.filter { slot in
            let property = properties[slot]
            guard !property.isTransient else { return false }
            if let relationship = property as? NSRelationshipDescription { return !relationship.isToMany }
            return property is NSAttributeDescription
        })
        fetchedSlots = SlotSet(properties.indices.filter { properties[$0] is NSFetchedPropertyDescription })
        transientSlots = SlotSet(properties.indices.filter { properties[$0].isTransient })
        kinds = properties.map { property in
            switch property {
            case let relationship as NSRelationshipDescription:
                relationship.isToMany ? (relationship.isOrdered ? .orderedToMany : .toMany) : .toOne
            case is NSFetchedPropertyDescription: .fetched
            default: .attribute
            }
        }
        var ordinals = [Int](repeating: -1, count: properties.count), toOnes = 0
        for (slot, kind) in kinds.enumerated() where kind == .toOne {
            ordinals[slot] = toOnes
            toOnes += 1
        }
        toOneOrdinals = ordinals
        toOneCount = toOnes
        attributeTypes = properties.map { ($0 as? NSAttributeDescription)?.attributeType }
        keyTable = PropertyKeyTable(properties.map(\.name), slotsByName: slotsByName)
    }

    /// The slot of the property named `key`, nil when the entity has none.
    /// A key spelled as in code costs no hashing (`PropertyKeyTable`).
    @inline(__always)
    func slot(forKey key: String) -> Int? {
        keyTable.slot(forKey: key) ?? slotsByName[key]
    }

    /// The slot of `key` if `PropertyKeyTable` resolves it without hashing:
    /// the part of `slot(forKey:)` that key-value access inlines.
    func tableSlot(forKey key: String) -> Int? { keyTable.slot(forKey: key) }

    /// The slot of `property`, which must be one of the entity's.
    func slot(of property: NSPropertyDescription) -> Int {
        if property.slot >= 0, property.slot < properties.count, properties[property.slot] === property {
            return property.slot
        }
        guard let slot = properties.firstIndex(where: { $0 === property }) else {
            preconditionFailure("\(property) is not a property of this entity")
        }
        return slot
    }
}
