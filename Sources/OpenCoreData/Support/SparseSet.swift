// Notification sets (ObjectsDidChange, DidSave, the object-ID variants) hold
// thousands of objects after a large save, and building them was a visible
// share of a save: Swift's Set compares a new element with every occupied
// bucket it probes, and for NSObject elements each comparison is a dynamic
// `isEqual(_:)` call (~450 instructions). `Set(_:)` sizes its table for the
// element count, so a table filled to three quarters probes a long run per
// insert; a table twice the count keeps the load under one half and cut the
// cost of an insert from ~1,000 instructions to ~660 (callgrind, 10k NSObjects).

extension Set {
    /// A set of `elements` whose table has room for twice their number, so
    /// that inserting them compares few elements; for sets built once and
    /// read, such as a notification's. Costs one extra bucket per element.
    init(sparse elements: some Collection<Element>) {
        self.init(minimumCapacity: elements.count * 2)
        for element in elements { insert(element) }
    }
}
