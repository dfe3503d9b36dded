import Testing
@testable import OpenCoreDataCore

/// Thousands of random inserts, deletes, changes of sort, section and
/// predicate keys, saves and merged saves; after every event, replaying the
/// delegate's calls on the old table must give the controller's new sections
/// (reference §6.2: batch-update index-path semantics).
@Suite struct FetchedResultsRandomTests {
    static let groups: [String?] = ["a", "b", "c", "d", nil, "f"]

    @Test(arguments: FetchedResultsModels.storeTypes)
    func replayMatchesSections(storeType: NSPersistentStore.StoreType) throws {
        for seed: UInt64 in [1, 2, 3] {
            try run(seed: seed, events: 1500, storeType: storeType, sectioned: true)
        }
        try run(seed: 4, events: 1500, storeType: storeType, sectioned: false)
    }

    func run(seed: UInt64, events: Int, storeType: NSPersistentStore.StoreType, sectioned: Bool) throws {
        var random = SeededGenerator(seed: seed)
        let context = try FetchedResultsModels.context(FetchedResultsModels.items(), storeType: storeType)
        let other = TestStack.sibling(of: context)
        let otherSaves = NotificationBox()
        let token = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: other, queue: nil) {
            otherSaves.notes.append($0)
        }
        defer { NotificationCenter.default.removeObserver(token) }

        let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
        request.predicate = NSPredicate(format: "visible == YES")
        request.sortDescriptors = sectioned
            ? [NSSortDescriptor(key: "group", ascending: true), NSSortDescriptor(key: "rank", ascending: false)]
            : [NSSortDescriptor(key: "rank", ascending: true)]
        let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                    sectionNameKeyPath: sectioned ? "group" : nil, cacheName: nil)
        let recorder = FetchedResultsRecorder()
        controller.delegate = recorder
        try controller.performFetch()
        // Twins of the controller whose delegates take snapshots or differences.
        let twin = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                              sectionNameKeyPath: sectioned ? "group" : nil, cacheName: nil)
        let checker = WholeResultChecker()
        twin.delegate = checker
        try twin.performFetch()

        var objects: [NSManagedObject] = []
        var typesSeen = Set<NSFetchedResultsChangeType>()
        func randomize(_ object: NSManagedObject) {
            switch Int.random(in: 0..<3, using: &random) {
            case 0: object.setValue(Int.random(in: 0..<20, using: &random), forKey: "rank")
            case 1: object.setValue(Self.groups.randomElement(using: &random)!, forKey: "group")
            default: object.setValue(Bool.random(using: &random), forKey: "visible")
            }
        }
        for step in 0..<events {
            let before = TableModel(controller)
            checker.before = twin.fetchedObjects!.map(\.objectID)
            let operations = Int.random(in: 1...4, using: &random)
            for _ in 0..<operations {
                let roll = Int.random(in: 0..<100, using: &random)
                if roll < 35 || objects.isEmpty {
                    let object = TestStack.insert("Item", into: context, [
                        "name": "item\(step)", "rank": Int.random(in: 0..<20, using: &random), "visible": Bool.random(using: &random),
                    ])
                    object.setValue(Self.groups.randomElement(using: &random)!, forKey: "group")
                    objects.append(object)
                } else if roll < 50 {
                    let object = objects.remove(at: Int.random(in: 0..<objects.count, using: &random))
                    context.delete(object)
                } else {
                    randomize(objects.randomElement(using: &random)!)
                }
            }
            let roll = Int.random(in: 0..<10, using: &random)
            if roll == 0 {
                try context.save()
            } else if roll == 1 && !context.hasChanges && !objects.isEmpty {
                // Another context changes, inserts or deletes objects; the merge is one event here.
                var insertedThere: [NSManagedObjectID] = []
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    let mine = objects.randomElement(using: &random)!
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0:
                        let theirs = TestStack.insert("Item", into: other, ["name": "other\(step)", "rank": Int.random(in: 0..<20, using: &random),
                                                                            "visible": Bool.random(using: &random), "group": "b"])
                        try other.obtainPermanentIDs(for: [theirs])
                        insertedThere.append(theirs.objectID)
                    case 1:
                        let theirs = try other.existingObject(with: mine.objectID)
                        if !theirs.isDeleted { other.delete(theirs) }
                    default:
                        let theirs = try other.existingObject(with: mine.objectID)
                        if !theirs.isDeleted { randomize(theirs) }
                    }
                }
                try other.save()
                context.mergeChanges(fromContextDidSave: otherSaves.notes.removeLast())
                objects += insertedThere.compactMap(context.registeredObject(for:))
            } else {
                context.processPendingChanges()
            }
            objects.removeAll { $0.managedObjectContext == nil }
            let calls = recorder.take()
            for case let .object(_, type, _, _) in calls { typesSeen.insert(type) }
            let replayed = before.replaying(calls)
            switch replayed {
            case .failure(let error):
                Issue.record("seed \(seed) step \(step): \(error)")
                return
            case .success(let model):
                guard model == TableModel(controller) else {
                    Issue.record("seed \(seed) step \(step): replay differs from the controller's sections")
                    return
                }
            }
            if let problem = checker.problem {
                Issue.record("seed \(seed) step \(step): \(problem)")
                return
            }
            if step % 50 == 0 { try expectSameAsFetch(controller, request: request, context: context) }
        }
        try expectSameAsFetch(controller, request: request, context: context)
        #expect(typesSeen == [.insert, .delete, .move, .update])
        #expect(checker.checked > events / 2)
    }

    /// The controller holds what a new fetch returns, sorted and sectioned.
    func expectSameAsFetch(_ controller: NSFetchedResultsController<NSManagedObject>, request: NSFetchRequest<NSManagedObject>,
                           context: NSManagedObjectContext) throws {
        let fetched = try context.fetch(request)
        let held = controller.fetchedObjects ?? []
        #expect(Set(fetched.map(ObjectIdentifier.init)) == Set(held.map(ObjectIdentifier.init)))
        for (a, b) in zip(held, held.dropFirst()) {
            let order = request.sortDescriptors!.lazy.map { $0.compare(a, to: b) }.first { $0 != .orderedSame } ?? .orderedSame
            #expect(order != .orderedDescending)
        }
        for section in controller.sections ?? [] where controller.sectionNameKeyPath != nil {
            for object in section.objects ?? [] {
                #expect(((object as! NSManagedObject).value(forKey: "group") as? String ?? "") == section.name)
            }
        }
    }
}

/// Checks each snapshot (with sections) or difference (without) against
/// the controller's results when it arrives (reference §6.2).
final class WholeResultChecker: NSObject, NSFetchedResultsControllerDelegate {
    var before: [NSManagedObjectID] = []
    var problem: String?
    var checked = 0

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChangeContentWith snapshot: NSDiffableDataSourceSnapshotReference) {
        // Without sections it stands for a delegate with only the difference method.
        guard controller.sectionNameKeyPath != nil else { return controller.tracker.delegateLacksSnapshotMethod = true }
        let sections = controller.sections ?? []
        if snapshot.sectionIdentifiers != sections.map(\.name)
            || sections.contains(where: { section in
                snapshot.itemIdentifiers(inSection: section.name) != (section.objects ?? []).map { ($0 as! NSManagedObject).objectID }
            }) {
            problem = "the snapshot differs from the sections"
        }
        checked += 1
    }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChangeContentWith diff: CollectionDifference<NSManagedObjectID>) {
        if before.applying(diff) != controller.fetchedObjects?.map({ ($0 as! NSManagedObject).objectID }) {
            problem = "the difference does not turn the old results into the new"
        }
        checked += 1
    }

    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        problem = "willChange called although the snapshot or difference method is implemented"
    }
}

/// Notifications collected by an observer block.
final class NotificationBox: @unchecked Sendable {
    var notes: [Notification] = []
}
