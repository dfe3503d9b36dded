// Inverse maintenance: every change to one side of a relationship changes
// the other side at once, as Core Data does when a relationship is set
// through its accessors. Each step fires the faults of the objects it
// touches and records their change, so rollback and save see both sides.

extension NSManagedObject {
    /// Makes `new` the destination of the to-one `relationship`, detaching
    /// this object from its old destination and `new` from its old owner;
    /// false, changing nothing, when `new` is the destination already.
    @discardableResult
    func setDestination(_ new: NSManagedObject?, of relationship: NSRelationshipDescription) -> Bool {
        fireFaultIfNeeded()
        let slot = values.layout.slot(of: relationship)
        let old = destination(slot)
        guard old !== new else { return false }
        storeChange(new.map(SlotValue.object) ?? .none, slot: slot)
        guard let inverse = relationship.inverseRelationship else { return true }
        old?.unlink(self, via: inverse)
        new?.link(self, via: inverse)
        return true
    }

    /// Adds `object` to the to-many `relationship` (at `index` when ordered),
    /// moving it away from its previous owner when the inverse is to-one.
    func addDestination(_ object: NSManagedObject, of relationship: NSRelationshipDescription, at index: Int? = nil) {
        fireFaultIfNeeded()
        let added = changeRelated(relationship) { related in
            index.map { related.insert(object, at: $0) } ?? related.append(object)
        }
        guard added else { return }
        if let inverse = relationship.inverseRelationship { object.link(self, via: inverse) }
    }

    /// Removes `object` from the to-many `relationship` and this object from
    /// `object`'s inverse.
    func removeDestination(_ object: NSManagedObject, of relationship: NSRelationshipDescription) {
        fireFaultIfNeeded()
        guard changeRelated(relationship, { $0.remove(object) }) else { return }
        if let inverse = relationship.inverseRelationship { object.unlink(self, via: inverse) }
    }

    /// Removes `objects` from the to-many `relationship` on this side only:
    /// their own side is left to their deferred deletes
    /// (`NSManagedObjectContext.finishDeferredDelete(of:)`).
    func removeDestinations(_ objects: [NSManagedObject], ofOneSide relationship: NSRelationshipDescription) {
        fireFaultIfNeeded()
        changeRelated(relationship) { $0.remove(contentsOf: objects) }
    }

    /// Makes `objects` the destinations of the to-many `relationship`, in
    /// their order when it is ordered; costs one step per added or removed object.
    func replaceDestinations(of relationship: NSRelationshipDescription, with objects: [NSManagedObject]) {
        fireFaultIfNeeded()
        let wanted = Set(objects.map(ObjectIdentifier.init))
        for old in related(relationship.name).objects where !wanted.contains(ObjectIdentifier(old)) {
            removeDestination(old, of: relationship)
        }
        for object in objects { addDestination(object, of: relationship) }
        if relationship.isOrdered {
            var related = related(relationship.name)
            let unique = ManagedObjectSet(objects).objects
            if related.objects.map(ObjectIdentifier.init) != unique.map(ObjectIdentifier.init) {
                related.reorder(unique)
                storeChange(.objects(related), forKey: relationship.name)
            }
        }
    }

    /// Removes every destination of `relationship`, inverse sides included
    /// (Nullify's effect).
    func clearDestinations(of relationship: NSRelationshipDescription) {
        if relationship.isToMany {
            for object in related(relationship.name).objects { removeDestination(object, of: relationship) }
        } else {
            setDestination(nil, of: relationship)
        }
    }

    /// All current destinations of `relationship`.
    func destinations(of relationship: NSRelationshipDescription) -> [NSManagedObject] {
        fireFaultIfNeeded()
        if relationship.isToMany { return related(relationship.name).objects }
        return destination(relationship.name).map { [$0] } ?? []
    }

    /// One side only: drops `object` from this object's `relationship`.
    private func unlink(_ object: NSManagedObject, via relationship: NSRelationshipDescription) {
        fireFaultIfNeeded()
        if relationship.isToMany {
            changeRelated(relationship) { $0.remove(object) }
        } else if destination(relationship.name) === object {
            storeChange(.none, forKey: relationship.name)
        }
    }

    /// One side, plus the consequence on a to-one: adds `object` to this
    /// object's `relationship`; a to-one's previous destination loses this object.
    private func link(_ object: NSManagedObject, via relationship: NSRelationshipDescription) {
        fireFaultIfNeeded()
        if relationship.isToMany {
            changeRelated(relationship) { $0.append(object) }
            return
        }
        let previous = destination(relationship.name)
        guard previous !== object else { return }
        storeChange(.object(object), forKey: relationship.name)
        if let previous, let back = relationship.inverseRelationship { previous.unlink(self, via: back) }
    }

    /// Changes the destinations of the to-many `key` through `change` and
    /// records it as a change when `change` reports one. Once the object has
    /// its event baseline (which keeps the set as it was), the set is taken
    /// out of `values` while it changes, so that it is changed in place:
    /// copying it for every added object made filling a relationship
    /// one object at a time quadratic.
    @discardableResult
    private func changeRelated(_ relationship: NSRelationshipDescription,
                               _ change: (inout ManagedObjectSet) -> Bool) -> Bool {
        // By the relationship's own slot, not its name: no key lookup.
        let slot = values.layout.slot(of: relationship)
        if eventBaseline != nil {
            // The set is moved out of its slot, not copied: a copy retained and released its two buffers
            // (~130 instructions a change). One not resolved yet is resolved in its slot first.
            var taken = values.take(slot)
            if case .objects = taken {} else {
                values.resolve(slot, to: taken)
                taken = .objects(resolvedToMany(slot))
                _ = values.take(slot)
            }
            guard case .objects(var related) = consume taken else { preconditionFailure("A to-many slot's set") }
            let changed = change(&related)
            // Consumed: the set moves back into the slot, without a retain and release of its buffers.
            if changed {
                storeChange(.objects(consume related), slot: slot)
            } else {
                values.resolve(slot, to: .objects(consume related))
            }
            return changed
        }
        var related = resolvedToMany(slot)
        guard change(&related) else { return false }
        storeChange(.objects(consume related), slot: slot)
        return true
    }
}
