/// A context's inserted, updated or deleted objects: in order, each once,
/// with membership kept as a mark on each object instead of in a hashed set.
///
/// Every list has a number unique in the process; a member carries it in
/// the mark field of the list's kind (`NSManagedObject.listMarks`), so
/// `contains` and `append` compare two integers. A list made anew (after a
/// save, a rollback) has a new number, so the marks its predecessor left on
/// objects never match it. Removal is O(n), as it was with the set.
///
/// A list is a value but must not be copied and then changed: the copy
/// would move the marks of the original's members.
struct ContextObjectList {
    /// Which of the object's mark fields the list uses: an object may be in
    /// a context's inserted and deleted lists at once.
    enum Kind { case inserted, updated, deleted }

    let kind: Kind
    private let number = ContextObjectList.numbers.next()
    private(set) var objects: [NSManagedObject] = []
    /// How many objects were ever appended: unchanged means no object joined.
    private(set) var appendCount = 0

    private static let numbers = SerialNumbers()

    /// An empty list of `kind`.
    init(_ kind: Kind) { self.kind = kind }

    var count: Int { objects.count }
    var isEmpty: Bool { objects.isEmpty }

    func contains(_ object: NSManagedObject) -> Bool { object.listMarks[kind] == number }

    /// Adds `object` at the end; false when it was already there.
    @discardableResult
    mutating func append(_ object: NSManagedObject) -> Bool {
        guard object.listMarks[kind] != number else { return false }
        object.listMarks[kind] = number
        objects.append(object)
        appendCount += 1
        return true
    }

    /// Removes `object`; false when it was not there.
    @discardableResult
    mutating func remove(_ object: NSManagedObject) -> Bool {
        guard object.listMarks[kind] == number else { return false }
        object.listMarks[kind] = 0
        // Once in `objects`: remove(at:) moves the tail without retaining it, as ManagedObjectSet.remove does.
        if let index = objects.firstIndex(where: { $0 === object }) { objects.remove(at: index) }
        return true
    }
}

/// The marks of the context lists an object is in (see `ContextObjectList`); 0 for none.
struct ContextListMarks: Equatable {
    private var inserted = 0, updated = 0, deleted = 0

    subscript(kind: ContextObjectList.Kind) -> Int {
        get {
            switch kind {
            case .inserted: inserted
            case .updated: updated
            case .deleted: deleted
            }
        }
        set {
            switch kind {
            case .inserted: inserted = newValue
            case .updated: updated = newValue
            case .deleted: deleted = newValue
            }
        }
    }
}
