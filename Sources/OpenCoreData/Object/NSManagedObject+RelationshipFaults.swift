// Relationships of a loaded object hold their destinations' IDs until first
// used (Core Data's relationship faults): loading an object makes no
// destination objects, so a fetch creates no reference from an owner to its
// destinations and no owner ⇄ destination cycle. The first read or change of
// a relationship turns the IDs into the context's objects (registered ones,
// or new faults), once.

extension NSManagedObject {
    /// Whether the relationship `key` is a fault: for a to-many, whether its
    /// destinations have not been made yet; for a to-one, whether the
    /// destination is a fault or not made yet. True for every relationship
    /// while the object itself is a fault. Never fires a fault.
    public func hasFault(forRelationshipNamed key: String) -> Bool {
        guard let relationship = property(named: key) as? NSRelationshipDescription else {
            preconditionFailure("\(key) of entity \(entity.name ?? "") is not a relationship")
        }
        if isFaultStorage { return true }
        switch values[values.layout.slot(of: relationship)] {
        case .ids, .record, .unread: return true
        case .object(let object): return object.isFault
        default: return false
        }
    }

    /// The destinations of the to-many relationship in `slot`, made from
    /// their IDs at first use (without recording a change); empty without a context.
    func resolvedToMany(_ slot: Int) -> ManagedObjectSet {
        // The slot read once on the common path (~120 instructions a read and its copy's release).
        if case .objects(let set) = values[slot] { return set }
        return resolveToMany(slot)
    }

    /// `resolvedToMany(_:)` for a relationship not resolved yet: reads it when unread, makes its objects.
    @inline(never)
    private func resolveToMany(_ slot: Int) -> ManagedObjectSet {
        if values[slot].isUnread, let context = managedObjectContext,
           let relationship = values.layout.properties[slot] as? NSRelationshipDescription {
            context.readToManyFaults(of: [self], only: relationship)
        }
        switch values[slot] {
        case .objects(let set): return set
        case .ids(let ids):
            guard let context = managedObjectContext else { return ManagedObjectSet() }
            let set = ManagedObjectSet(ids.map(context.object(with:)))
            values.resolve(slot, to: .objects(set))
            return set
        default: return ManagedObjectSet()
        }
    }

    /// The destination of the to-one relationship in `slot`, made from its
    /// ID at first use (without recording a change); nil without a context.
    func destination(_ slot: Int) -> NSManagedObject? {
        // Read in place: switching over `values[slot]` copied the slot's value (a retain and a release).
        let (object, record) = values.toOne(at: slot)
        if let object { return object }
        guard let record else { return nil }
        if let object = values.resolvedDestination(slot, record: record) { return object }
        guard let context = managedObjectContext else { return nil }
        let resolved = context.object(for: record)
        values.resolveDestination(slot, to: resolved)
        return resolved
    }

    /// Puts the destinations read from the store into the unread to-many
    /// `slot`, and into the committed record and the event's starting values
    /// where those hold it unread too, so that changes compare against what
    /// the store held.
    func fillUnreadToMany(_ slot: Int, with ids: [NSManagedObjectID]) {
        let value: SlotValue = ids.isEmpty ? .none : .ids(ids)
        guard values[slot].isUnread else { return }
        values.resolve(slot, to: value)
        if var baseline = eventBaseline, slot < baseline.count, baseline[slot].isUnread {
            baseline[slot] = value
            eventBaseline = baseline
        }
        if let row = committedRow, row.values[slot].isUnread {
            var snapshot = row.snapshot
            snapshot[slot] = value
            // The object's own copy: the cached row stays as the store read it.
            committedRow = StoreRowCache.Row.make(from: consume snapshot)
        }
    }
}
