/// The results of a fetch request, in sections, kept up to date as the
/// context changes, with each change reported to a delegate the way a table
/// view's batch updates need it (Apple's NSFetchedResultsController).
///
/// Without a delegate the results are those of the last `performFetch()`.
/// With one, every change event of the context (each `processPendingChanges()`,
/// saves merged into it) updates them at a cost proportional to the number
/// of changed objects (binary searches by the sort descriptors), not to the
/// number of results.
///
/// Delegates receive the controller as `NSFetchedResultsController<NSFetchRequestResult>`;
/// for controllers of another result type that is a second object sharing
/// this one's state (docs/Differences.md).
open class NSFetchedResultsController<ResultType>: NSObject {
    /// The request whose results the controller holds. Read at each `performFetch()`.
    public let fetchRequest: NSFetchRequest<ResultType>
    let tracker: FetchedResultsTracker
    private var untypedView: NSFetchedResultsController<NSFetchRequestResult>?
    private var typedObjects: (version: Int, objects: [ResultType])?

    /// A controller of `fetchRequest`'s results in `context`, sectioned by the
    /// values of `sectionNameKeyPath` (nil: one section), its sections kept in
    /// the cache `name` between launches (nil: no cache). Fetches nothing yet.
    public init(fetchRequest: NSFetchRequest<ResultType>, managedObjectContext context: NSManagedObjectContext,
                sectionNameKeyPath: String?, cacheName name: String?) {
        self.fetchRequest = fetchRequest
        tracker = FetchedResultsTracker(context: context, sectionNameKeyPath: sectionNameKeyPath, cacheName: name)
        super.init()
        // Weak: delegates may keep the untyped view, and with it the tracker, longer than this controller.
        tracker.indexTitle = { [weak self] name in
            guard let self else { return FetchedResultsSections.defaultIndexTitle(forSectionName: name) }
            return sectionIndexTitle(forSectionName: name)
        }
        if let untyped = self as? NSFetchedResultsController<NSFetchRequestResult> {
            tracker.untypedController = untyped
        } else {
            let view = NSFetchedResultsController<NSFetchRequestResult>(fetchRequest: fetchRequest.untyped, tracker: tracker)
            untypedView = view
            tracker.untypedController = view
        }
    }

    /// The untyped view delegates receive: same tracker, no state of its own.
    private init(fetchRequest: NSFetchRequest<ResultType>, tracker: FetchedResultsTracker) {
        self.fetchRequest = fetchRequest
        self.tracker = tracker
        super.init()
    }

    /// The context the results come from.
    public var managedObjectContext: NSManagedObjectContext { tracker.context }
    /// The key path whose values name the sections; nil for one section.
    public var sectionNameKeyPath: String? { tracker.sectionNameKeyPath }
    /// The name of the cache of the sections; nil when not cached.
    public var cacheName: String? { tracker.cacheName }

    /// Told about every change of the results; while nil, changes are not tracked.
    public var delegate: NSFetchedResultsControllerDelegate? {
        get { tracker.delegate }
        set { tracker.delegate = newValue }
    }

    /// Fetches the results and computes the sections (or reads them from the
    /// cache). Throws an NSError (NSCoreDataError) when the request has no sort
    /// descriptor, names unknown key paths, or when its first sort descriptor
    /// does not order the sections (a section name comes back after another),
    /// as Core Data's fetch fails (reference §6.1).
    open func performFetch() throws {
        try tracker.performFetch(fetchRequest.untyped)
    }

    /// Every result, section after section; nil before `performFetch()`.
    /// Costs an array of the results' size after each change, then nothing.
    public var fetchedObjects: [ResultType]? {
        guard let results = tracker.results else { return nil }
        if let typedObjects, typedObjects.version == tracker.version { return typedObjects.objects }
        let objects = results.sections.flatMap { $0.entries.map { $0.object as! ResultType } }
        typedObjects = (tracker.version, objects)
        return objects
    }

    /// The sections, in order; nil before `performFetch()`.
    public var sections: [NSFetchedResultsSectionInfo]? { tracker.results?.sections }

    /// The object at `indexPath`; an index path outside the results stops the program.
    public func object(at indexPath: IndexPath) -> ResultType {
        guard let sections = tracker.results?.sections, sections.indices.contains(indexPath.section),
              sections[indexPath.section].entries.indices.contains(indexPath.item) else {
            preconditionFailure("NSFetchedResultsController: no object at index \(indexPath.item) in section \(indexPath.section)")
        }
        return sections[indexPath.section].entries[indexPath.item].object as! ResultType
    }

    /// Where `object` is in the results, or nil. Costs a binary search.
    public func indexPath(forObject object: ResultType) -> IndexPath? {
        guard let object = object as? NSManagedObject, let results = tracker.results,
              let entry = results.entry(for: object) else { return nil }
        return results.indexPath(of: entry)
    }

    /// The index titles of the sections, each once, in section order.
    open var sectionIndexTitles: [String] {
        var seen = Set<String>()
        return (tracker.results?.sections ?? []).compactMap(\.indexTitle).filter { seen.insert($0).inserted }
    }

    /// The index title of the section `sectionName`: the delegate's answer
    /// when there is a delegate, otherwise the name's capitalised first letter.
    open func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        guard let delegate = tracker.delegate, let controller = tracker.untypedController else {
            return FetchedResultsSections.defaultIndexTitle(forSectionName: sectionName)
        }
        return delegate.controller(controller, sectionIndexTitleForSectionName: sectionName)
    }

    /// The section a section index entry jumps to: the first section with
    /// index title `title`, or the section at `sectionIndex` (clamped) when none has it.
    open func section(forSectionIndexTitle title: String, at sectionIndex: Int) -> Int {
        let sections = tracker.results?.sections ?? []
        if let match = sections.firstIndex(where: { $0.indexTitle == title }) { return match }
        return max(0, min(sectionIndex, sections.count - 1))
    }

    /// Deletes the cache `name`, or every cache when nil, in every folder
    /// this process has kept a cache in.
    public class func deleteCache(withName name: String?) {
        FetchedResultsCache.delete(named: name)
    }
}
