/// The state of a fetched-results controller, shared by the controller and
/// the untyped view of it that delegates receive: the results, the
/// delegate, and the observation of the context.
final class FetchedResultsTracker: @unchecked Sendable {
    let context: NSManagedObjectContext
    let sectionNameKeyPath: String?
    let cacheName: String?

    /// The delegate; tracking runs only while there is one (reference §6.1).
    weak var delegate: NSFetchedResultsControllerDelegate? {
        didSet {
            delegateLacksSnapshotMethod = false
            delegateLacksDifferenceMethod = false
            observe(delegate != nil)
        }
    }
    /// Set by the delegate's default snapshot and difference methods.
    var delegateLacksSnapshotMethod = false
    var delegateLacksDifferenceMethod = false

    /// What delegates receive as the controller.
    weak var untypedController: NSFetchedResultsController<NSFetchRequestResult>?
    /// The controller's (overridable) section index title method.
    var indexTitle: (String) -> String? = FetchedResultsSections.defaultIndexTitle

    /// The results; nil before the first `performFetch`.
    var results: FetchedResultsSections?
    /// Bumped at each change, so controllers can keep arrays derived from the results.
    private(set) var version = 0
    private var request: NSFetchRequest<NSFetchRequestResult>?
    private var entity: NSEntityDescription?
    private var nextSequence = 0
    private var observer: NSObjectProtocol?

    init(context: NSManagedObjectContext, sectionNameKeyPath: String?, cacheName: String?) {
        self.context = context
        self.sectionNameKeyPath = sectionNameKeyPath
        self.cacheName = cacheName
    }

    deinit { observe(false) }

    // MARK: Fetching

    /// Fetches and sections the results of `request` (a copy of its
    /// settings is kept for tracking). Costs the fetch, loading every
    /// result's values, and a check that they are in order (a sort only when
    /// the store's order differs from the sort descriptors').
    func performFetch(_ original: NSFetchRequest<NSFetchRequestResult>) throws {
        let request = original.copy() as! NSFetchRequest<NSFetchRequestResult>
        guard let descriptors = request.sortDescriptors, !descriptors.isEmpty else {
            throw NSError.coreData(NSCoreDataError, "An instance of NSFetchedResultsController requires a fetch request with sort descriptors")
        }
        let entity = context.resolveEntity(of: request)
        if let sectionNameKeyPath, let problem = FetchKeyPathCheck.problem(with: sectionNameKeyPath, from: entity) {
            throw NSError.coreData(NSCoreDataError, "sectionNameKeyPath \(sectionNameKeyPath) not found in entity \(entity.name ?? ""): \(problem)")
        }
        request.resultType = .managedObjectResultType
        let order = FetchedResultsOrder(descriptors: descriptors, sectionNameKeyPath: sectionNameKeyPath)
        var results = FetchedResultsSections(order: order) { [unowned self] in indexTitle($0) }
        let cache = cacheName.map { FetchedResultsCache(name: $0, request: request, sectionNameKeyPath: sectionNameKeyPath, context: context) }
        if let cached = cache?.read() {
            try results.load(cached)
        } else {
            let objects = try context.fetch(request).map { $0 as! NSManagedObject }
            prefetch(objects, entity: entity, keyPaths: descriptors.compactMap(\.key) + [sectionNameKeyPath].compactMap { $0 })
            var entries = objects.enumerated().map { index, object in
                FetchedResultsEntry(object: object, keys: order.keys(of: object), sectionName: order.sectionName(of: object), sequence: index)
            }
            if zip(entries, entries.dropFirst()).contains(where: { order.precedes($1, $0) }) {
                entries.sort(by: order.precedes)
            }
            try results.load(entries)
            cache?.write(results)
        }
        self.request = request
        self.entity = entity
        self.results = results
        nextSequence = results.count
        version += 1
    }

    /// Loads `objects` and the to-one destinations their key paths go
    /// through, a batch of store reads per level instead of one read per object.
    private func prefetch(_ objects: [NSManagedObject], entity: NSEntityDescription, keyPaths: [String]) {
        context.fulfillFaults(objects)
        let relationships = Set(keyPaths.compactMap { path -> String? in
            guard let first = path.split(separator: ".").first, path.contains("."),
                  let relationship = entity.relationshipsByName[String(first)], !relationship.isToMany else { return nil }
            return relationship.name
        })
        for name in relationships.sorted() {
            let destinations = objects.compactMap { $0.value(forKey: name) as? NSManagedObject }
            let rest = keyPaths.filter { $0.hasPrefix(name + ".") }.map { String($0.dropFirst(name.count + 1)) }
            if let destinationEntity = entity.relationshipsByName[name]?.destinationEntity {
                prefetch(destinations, entity: destinationEntity, keyPaths: rest)
            }
        }
    }

    // MARK: Tracking

    private func observe(_ observing: Bool) {
        if observing, observer == nil {
            observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextObjectsDidChange, object: context, queue: nil) { [weak self] note in
                self?.contextDidChange(note)
            }
        } else if !observing, let observer {
            NotificationCenter.default.removeObserver(observer)
            self.observer = nil
        }
    }

    /// Applies the change event `note` describes and tells the delegate.
    /// `reset()` (invalidate-all) is not reported: clients fetch again.
    private func contextDidChange(_ note: Notification) {
        guard let delegate, results != nil, let request, let entity else { return }
        let info = note.userInfo ?? [:]
        guard info[NSInvalidatedAllObjectsKey] == nil else { return }
        func objects(_ keys: String...) -> [NSManagedObject] {
            keys.flatMap { (info[$0] as? Set<NSManagedObject>) ?? [] }.filter { object in
                object.entity === entity || (request.includesSubentities && object.entity.isKindOf(entity: entity))
            }
        }
        let gone = objects(NSDeletedObjectsKey, NSInvalidatedObjectsKey)
        let touched = objects(NSInsertedObjectsKey, NSUpdatedObjectsKey, NSRefreshedObjectsKey)
        guard !gone.isEmpty || !touched.isEmpty else { return }
        let wantsDifference = sectionNameKeyPath == nil && !delegateLacksDifferenceMethod
        let oldIDs = wantsDifference ? objectIDs() : []
        let changes = FetchedResultsEvent.apply(touched: touched, gone: gone, to: &results!, matches: { matches($0, request) },
                                                nextSequence: &nextSequence)
        guard !changes.isEmpty else { return }
        version += 1
        report(changes, to: delegate, oldIDs: oldIDs)
    }

    private func matches(_ object: NSManagedObject, _ request: NSFetchRequest<NSFetchRequestResult>) -> Bool {
        guard object.managedObjectContext === context, !object.isDeleted else { return false }
        guard let predicate = request.predicate else { return true }
        return (try? predicate.evaluateThrowing(with: object)) ?? false
    }

    private func report(_ changes: FetchedResultsChanges, to delegate: NSFetchedResultsControllerDelegate, oldIDs: [NSManagedObjectID]) {
        guard let controller = untypedController else { return }
        if !delegateLacksSnapshotMethod {
            delegate.controller(controller, didChangeContentWith: snapshot())
            if !delegateLacksSnapshotMethod { return }
        }
        if sectionNameKeyPath == nil && !delegateLacksDifferenceMethod {
            delegate.controller(controller, didChangeContentWith: objectIDs().difference(from: oldIDs))
            if !delegateLacksDifferenceMethod { return }
        }
        delegate.controllerWillChangeContent(controller)
        for change in changes.sections {
            delegate.controller(controller, didChange: change.section, atSectionIndex: change.index, for: change.type)
        }
        for change in changes.objects {
            delegate.controller(controller, didChange: change.object, at: change.indexPath, for: change.type, newIndexPath: change.newIndexPath)
        }
        delegate.controllerDidChangeContent(controller)
    }

    // MARK: Whole-result views

    /// The results' object IDs in order. Costs an array of the results' size.
    func objectIDs() -> [NSManagedObjectID] {
        (results?.sections ?? []).flatMap { $0.entries.map(\.object.objectID) }
    }

    /// The results as section names and object IDs. Costs a copy of the results.
    func snapshot() -> NSDiffableDataSourceSnapshotReference {
        var snapshot = NSDiffableDataSourceSnapshotReference()
        for section in results?.sections ?? [] where sectionNameKeyPath != nil || !section.entries.isEmpty {
            snapshot.appendSections([section.name])
            snapshot.appendItems(section.entries.map(\.object.objectID), toSection: section.name)
        }
        return snapshot
    }
}
