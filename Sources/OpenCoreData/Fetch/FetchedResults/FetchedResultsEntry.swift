/// A fetched object with the values that place it: its sort keys and
/// section name as they were when it was last placed.
///
/// Keeping them is what makes changes cheap: an object's old position is
/// found by binary search with its old values, although the object itself
/// already holds new ones.
final class FetchedResultsEntry {
    let object: NSManagedObject
    var keys: [Any?] { didSet { sortKeys = keys.map(ComparableValue.init) } }
    /// `keys` classified for comparing (see `ComparableValue`).
    private(set) var sortKeys: [ComparableValue]
    var sectionName: String
    /// Breaks ties between equal sort keys: the fetch order, then the order
    /// objects joined. Object IDs can't, as they change when objects are saved.
    let sequence: Int

    init(object: NSManagedObject, keys: [Any?], sectionName: String, sequence: Int) {
        self.object = object
        self.keys = keys
        sortKeys = keys.map(ComparableValue.init)
        self.sectionName = sectionName
        self.sequence = sequence
    }
}
