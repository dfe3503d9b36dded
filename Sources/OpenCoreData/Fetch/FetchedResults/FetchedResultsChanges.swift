/// The changes of one event, in the terms the delegate receives them.
struct FetchedResultsChanges {
    struct SectionChange {
        let section: FetchedResultsSection
        let index: Int
        let type: NSFetchedResultsChangeType
    }

    struct ObjectChange {
        let object: NSManagedObject
        let type: NSFetchedResultsChangeType
        let indexPath: IndexPath?
        let newIndexPath: IndexPath?
    }

    /// Section deletes (indexes before the event) then inserts (after it).
    var sections: [SectionChange] = []
    /// Deletes, inserts, moves, then updates, each in index-path order.
    var objects: [ObjectChange] = []

    var isEmpty: Bool { sections.isEmpty && objects.isEmpty }
}
