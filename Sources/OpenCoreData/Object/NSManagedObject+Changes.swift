// What changed in an object since it was last saved or loaded, and since
// the current event began. Each call compares every loaded property with
// the committed record, so it costs one comparison per property.

extension NSManagedObject {
    /// The properties whose values differ from the last saved ones, with
    /// their new values (to-many as sets). For a new object: every property set.
    public func changedValues() -> [String: Any] {
        // A value set with setPrimitiveValue alone is no change (Core Data tracks didChangeValue).
        guard !isFaultStorage, isInsertedFlag || isUpdatedFlag || isDeletedFlag else { return [:] }
        guard let committedRow else { return changes(since: nil) }
        // Only the slots written since the values were committed can differ.
        return changes(since: committedRow.values, among: values.changed.slots)
    }

    /// The properties changed since the last `processPendingChanges()`.
    public func changedValuesForCurrentEvent() -> [String: Any] {
        guard !isFaultStorage, let baseline = eventBaseline else { return [:] }
        return changes(since: baseline)
    }

    /// Whether any persistent (non-transient) property differs from its saved value.
    public var hasPersistentChangedValues: Bool {
        changedValues().keys.contains { entity.propertiesByName[$0]?.isTransient == false }
    }

    /// The last saved values of `keys` (every property for nil), relationship
    /// destinations as objects of this context. Costs one store read if the
    /// object's record is not cached.
    public func committedValues(forKeys keys: [String]?) -> [String: Any] {
        guard let committed = committed ?? (isFaultStorage ? (try? managedObjectContext?.loadRow(for: objectID))??.snapshot : nil),
              let context = managedObjectContext else { return [:] }
        var result: [String: Any] = [:]
        for key in keys ?? entity.properties.map(\.name) {
            guard let property = entity.propertiesByName[key] else { continue }
            var value = committed[committed.layout.slot(of: property)]
            if value.isUnread, let relationship = property as? NSRelationshipDescription {
                let read = context.readDestinations(of: [objectID], via: relationship)
                value = read[objectID].map(SlotValue.ids) ?? .none
            }
            if let relationship = property as? NSRelationshipDescription {
                let objects = value.destinationIDs.map(context.object(with:))
                if relationship.isToMany {
                    result[key] = relationship.isOrdered ? objects.asNSOrderedSet : objects.asNSSet
                } else if let object = objects.first {
                    result[key] = object
                }
            } else if let value = value.any {
                result[key] = value
            }
        }
        return result
    }

    /// The properties whose current value differs from `baseline`'s (slots
    /// of the same layout; a record's or an earlier copy of `values`), or,
    /// without a baseline, every property that has a value; only `slots`
    /// are looked at when given.
    private func changes(since baseline: SlotValues?, among slots: [Int]? = nil) -> [String: Any] {
        var result: [String: Any] = [:]
        for slot in slots ?? Array(values.layout.properties.indices) where !values.layout.fetchedSlots.contains(slot) {
            let property = values.layout.properties[slot], current = values[slot]
            let changed: Bool
            if let baseline {
                changed = !same(current, slot < baseline.count ? baseline[slot] : .none, property)
            } else {
                changed = !isEmpty(current)
            }
            if changed { result[property.name] = publicValue(at: slot) ?? NSNull() }
        }
        return result
    }

    /// Whether two values of `property` are the same: attributes by value,
    /// relationships by destination IDs (in order only for ordered ones).
    private func same(_ lhs: SlotValue, _ rhs: SlotValue, _ property: NSPropertyDescription) -> Bool {
        guard let relationship = property as? NSRelationshipDescription else {
            return lhs.isSameAttributeValue(as: rhs)
        }
        // A to-many relationship never read was never changed.
        if lhs.isUnread || rhs.isUnread { return true }
        let l = lhs.destinationIDs, r = rhs.destinationIDs
        return relationship.isOrdered ? l == r : Set(l) == Set(r)
    }

    private func isEmpty(_ value: SlotValue) -> Bool {
        switch value {
        case .none: true
        case .objects(let set): set.isEmpty
        case .ids(let ids): ids.isEmpty
        default: false
        }
    }
}
