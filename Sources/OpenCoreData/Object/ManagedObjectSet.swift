/// An ordered set of managed objects compared by identity: the destinations
/// of a to-many relationship, and a context's inserted/updated/deleted sets.
///
/// Membership tests, appends and counts are O(1); removals are O(n) in the
/// number of members (a scan by identity and a move of the tail, no
/// reference counting), which keeps the common paths cheap and the order stable.
struct ManagedObjectSet {
    private(set) var objects: [NSManagedObject] = []
    private var members: Set<ObjectAddress> = []

    init(_ objects: [NSManagedObject] = []) {
        guard !objects.isEmpty else { return }
        // Sized once: grown from empty, a to-many read's set of 100 rehashed its members seven times.
        self.objects.reserveCapacity(objects.count)
        members.reserveCapacity(objects.count)
        for object in objects { append(object) }
    }

    var count: Int { objects.count }
    var isEmpty: Bool { objects.isEmpty }

    func contains(_ object: NSManagedObject) -> Bool { members.contains(ObjectAddress(object)) }

    /// Adds `object` at the end; false when it was already there.
    @discardableResult
    mutating func append(_ object: NSManagedObject) -> Bool {
        guard members.insert(ObjectAddress(object)).inserted else { return false }
        objects.append(object)
        return true
    }

    /// Removes `object`; false when it was not there.
    @discardableResult
    mutating func remove(_ object: NSManagedObject) -> Bool {
        guard members.remove(ObjectAddress(object)) != nil else { return false }
        // A member is in `objects` once: remove(at:) moves the tail without
        // retaining it, where removeAll(where:) retained and released every element.
        if let index = objects.firstIndex(where: { $0 === object }) { objects.remove(at: index) }
        return true
    }

    /// Removes the members `gone` lists; false when none was there. A list
    /// of every member in their order (an owner whose cascade deletes all its
    /// destinations) empties the set after pointer comparisons, without hashing.
    @discardableResult
    mutating func remove(contentsOf gone: [NSManagedObject]) -> Bool {
        guard !gone.isEmpty else { return false }
        if gone.hasSameObjects(inOrderAs: objects) {
            self = ManagedObjectSet()
            return true
        }
        return remove(contentsOf: Set(gone.map(ObjectAddress.init)))
    }

    /// Removes the members whose addresses `gone` holds, in one pass; false when none was there.
    @discardableResult
    mutating func remove(contentsOf gone: Set<ObjectAddress>) -> Bool {
        let count = objects.count
        objects.removeAll { gone.contains(ObjectAddress($0)) }
        guard objects.count != count else { return false }
        members.subtract(gone)
        return true
    }

    /// Inserts `object` at `index`; false when it was already there.
    @discardableResult
    mutating func insert(_ object: NSManagedObject, at index: Int) -> Bool {
        guard members.insert(ObjectAddress(object)).inserted else { return false }
        objects.insert(object, at: min(index, objects.count))
        return true
    }

    /// Puts the present members into the order of `ordered` (which holds exactly them).
    mutating func reorder(_ ordered: [NSManagedObject]) {
        objects = ordered
    }
}
