/// One section of a fetched-results controller (Apple's protocol).
public protocol NSFetchedResultsSectionInfo {
    /// The section's name: the section key path's value, as text.
    var name: String { get }
    /// The section's title in a section index.
    var indexTitle: String? { get }
    /// How many objects the section holds.
    var numberOfObjects: Int { get }
    /// The section's objects, in order.
    var objects: [Any]? { get }
}

/// A section as the controller keeps it: its entries in order and its
/// current index, kept up to date only when sections are added or removed.
final class FetchedResultsSection: NSFetchedResultsSectionInfo {
    let name: String
    let indexTitle: String?
    var entries: [FetchedResultsEntry]
    var index: Int

    init(name: String, indexTitle: String?, entries: [FetchedResultsEntry], index: Int) {
        self.name = name
        self.indexTitle = indexTitle
        self.entries = entries
        self.index = index
    }

    var numberOfObjects: Int { entries.count }

    /// Costs one array of the section's size.
    var objects: [Any]? { entries.map(\.object) }
}
