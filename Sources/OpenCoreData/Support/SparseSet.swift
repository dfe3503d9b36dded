// Notification sets (ObjectsDidChange, DidSave, the object-ID variants) hold
// thousands of objects after a large save, and building them was a visible
// share of a save: Swift's Set compares a new element with every occupied
// bucket it probes, and for NSObject elements each comparison is a dynamic
// `isEqual(_:)` call. `Set(_:)` sizes its table for the element count, so a
// table filled to three quarters probes a long run per insert; a table twice
// the count kept the load under one half and cut the cost of an insert from
// ~1,000 instructions to ~660 (callgrind, 10k NSObjects). Four times the count
// (a load under a quarter) leaves about one comparison in five inserts
// instead of one in two: a 10k insert-graph's DidSave sets of objects and of
// IDs cost ~125 instructions a photo less (~400 and ~530 an element now).

extension Set {
    /// A set of `elements` whose table has room for four times their number,
    /// so that inserting them compares few elements; for sets built once and
    /// read, such as a notification's. Costs 5.3 to 10.7 buckets (8 bytes
    /// each) an element, where `Set(_:)` takes 1.3 to 2.7.
    init(sparse elements: some Collection<Element>) {
        self.init(minimumCapacity: elements.count * 4)
        for element in elements { insert(element) }
    }
}
