/// What a fetched-results controller tells about changes to its results
/// (Apple's protocol). Every method is optional: the extension below gives
/// each a default that does nothing.
///
/// When `controller(_:didChangeContentWith:)` taking a snapshot is
/// implemented, no other change method is called; the one taking a
/// difference is called only without sections, and then replaces the others
/// too (reference §6.2). The controller learns which of the two a delegate
/// implements at its first change, by calling them once.
public protocol NSFetchedResultsControllerDelegate: NSObjectProtocol {
    /// A change event begins: the calls below follow, then `controllerDidChangeContent`.
    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>)

    /// `anObject` was inserted, deleted, moved or updated. `indexPath` is its
    /// position before the event (nil for inserts), `newIndexPath` after it
    /// (nil for deletes): the index paths of a table view's batch updates.
    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
                    at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?)

    /// A section was inserted (index after the event) or deleted (index before it).
    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange sectionInfo: NSFetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType)

    /// A change event ended.
    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>)

    /// The index title of a section; by default its name's capitalised first letter.
    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>,
                    sectionIndexTitleForSectionName sectionName: String) -> String?

    /// The results after a change event, as section names and object IDs.
    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>,
                    didChangeContentWith snapshot: NSDiffableDataSourceSnapshotReference)

    /// The change of the results' object IDs in an event (controllers without sections only).
    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>,
                    didChangeContentWith diff: CollectionDifference<NSManagedObjectID>)
}

extension NSFetchedResultsControllerDelegate {
    /// Does nothing.
    public func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {}

    /// Does nothing.
    public func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
                           at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {}

    /// Does nothing.
    public func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange sectionInfo: NSFetchedResultsSectionInfo,
                           atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType) {}

    /// Does nothing.
    public func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {}

    /// The capitalised first letter of `sectionName`; nil for an empty name.
    public func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>,
                           sectionIndexTitleForSectionName sectionName: String) -> String? {
        FetchedResultsSections.defaultIndexTitle(forSectionName: sectionName)
    }

    // These two defaults tell the controller they ran, so that it stops
    // building snapshots and differences nobody reads.

    /// Not implemented: the controller calls the other methods instead.
    public func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>,
                           didChangeContentWith snapshot: NSDiffableDataSourceSnapshotReference) {
        controller.tracker.delegateLacksSnapshotMethod = true
    }

    /// Not implemented: the controller calls the other methods instead.
    public func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>,
                           didChangeContentWith diff: CollectionDifference<NSManagedObjectID>) {
        controller.tracker.delegateLacksDifferenceMethod = true
    }
}
