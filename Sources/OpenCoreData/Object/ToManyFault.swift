/// A to-many relationship whose destinations are known by ID only: what a
/// loaded object holds for each to-many relationship until the relationship
/// is first used (Core Data's to-many fault).
///
/// Loading an object therefore makes no destination objects; the first read
/// or change of the relationship turns the IDs into the context's objects
/// (registered ones, or new faults) once. A fetch thus creates no reference
/// from an owner to its destinations, and no owner ⇄ destination cycle.
struct ToManyFault {
    /// The destinations as the record lists them (in order for ordered relationships).
    let ids: [NSManagedObjectID]
}

extension NSManagedObject {
    /// Whether the relationship `key` is a fault: for a to-many, whether its
    /// destinations have not been made yet; for a to-one, whether the
    /// destination is a fault. True for every relationship while the object
    /// itself is a fault. Never fires a fault.
    public func hasFault(forRelationshipNamed key: String) -> Bool {
        guard let relationship = property(named: key) as? NSRelationshipDescription else {
            preconditionFailure("\(key) of entity \(entity.name ?? "") is not a relationship")
        }
        if isFaultStorage { return true }
        if relationship.isToMany { return values[key] is ToManyFault }
        return destination(key)?.isFault ?? false
    }

    /// The destinations of the to-many `key`, made from their IDs at first
    /// use (without recording a change); empty without a context.
    func resolvedToMany(_ key: String) -> ManagedObjectSet {
        switch values[key] {
        case let set as ManagedObjectSet: return set
        case let fault as ToManyFault:
            guard let context = managedObjectContext else { return ManagedObjectSet() }
            let set = ManagedObjectSet(fault.ids.map(context.object(with:)))
            values[key] = set
            return set
        default: return ManagedObjectSet()
        }
    }
}
