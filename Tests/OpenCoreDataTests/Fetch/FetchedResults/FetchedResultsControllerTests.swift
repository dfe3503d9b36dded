import Testing
@testable import OpenCoreDataCore

/// NSFetchedResultsController's API as reference §6 documents it.
@Suite struct FetchedResultsControllerTests {
    static func items(_ values: [(String, Int, String?)], visible: Bool = true) throws -> NSManagedObjectContext {
        let context = try TestStack.context(FetchedResultsModels.items())
        for (name, rank, group) in values {
            let item = TestStack.insert("Item", into: context, ["name": name, "rank": rank, "visible": visible])
            item.setValue(group, forKey: "group")
        }
        try context.save()
        return context
    }

    static func controller(_ context: NSManagedObjectContext, sort: [NSSortDescriptor], section: String? = nil,
                           predicate: NSPredicate? = nil, cacheName: String? = nil) -> NSFetchedResultsController<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
        request.sortDescriptors = sort
        request.predicate = predicate
        return NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: section, cacheName: cacheName)
    }

    static func names(_ section: NSFetchedResultsSectionInfo) -> [String] {
        (section.objects ?? []).map { ($0 as! NSManagedObject).value(forKey: "name") as! String }
    }

    @Test func changeTypesAndIndexPathsHaveApplesShape() {
        // NSFetchedResultsController.h: insert 1, delete 2, move 3, update 4.
        #expect([NSFetchedResultsChangeType.insert, .delete, .move, .update].map(\.rawValue) == [1, 2, 3, 4])
        var path = IndexPath(row: 3, section: 1)
        #expect(path.section == 1 && path.row == 3 && path.item == 3)
        path.row = 5
        #expect(path == IndexPath(item: 5, section: 1))
    }

    @Test func performFetchFailsWithoutSortDescriptorsAsNSError() throws {
        // AD:nsfetchedresultscontroller/performfetch(): the request must have a sort descriptor.
        let context = try Self.items([("a", 1, "x")])
        let controller = Self.controller(context, sort: [])
        #expect(controller.fetchedObjects == nil && controller.sections == nil)
        do {
            try controller.performFetch()
            Issue.record("performFetch succeeded without sort descriptors")
        } catch let error as NSError {
            #expect(error.domain == NSCocoaErrorDomain && error.code == NSCoreDataError)
        }
    }

    @Test func performFetchFailsWhenTheFirstSortDescriptorDoesNotOrderTheSections() throws {
        // AD:…/init(fetchRequest:…): the first sort descriptor's key must be the
        // section key path or order the objects the same way.
        let context = try Self.items([("a", 1, "y"), ("b", 2, "x"), ("c", 3, "y")])
        let controller = Self.controller(context, sort: [NSSortDescriptor(key: "rank", ascending: true)], section: "group")
        #expect(throws: NSError.self) { try controller.performFetch() }
        // Another key that orders the same way is allowed (AD:…/sectionnamekeypath).
        let agreeing = Self.controller(context, sort: [NSSortDescriptor(key: "name", ascending: true)], section: "name")
        try agreeing.performFetch()
        #expect(agreeing.sections?.map(\.name) == ["a", "b", "c"])
        let unknown = Self.controller(context, sort: [NSSortDescriptor(key: "rank", ascending: true)], section: "nope")
        #expect(throws: NSError.self) { try unknown.performFetch() }
    }

    @Test func sectionsObjectsAndIndexPaths() throws {
        let context = try Self.items([("b1", 2, "b"), ("a1", 1, "a"), ("a2", 5, "a"), ("c1", 0, "c")])
        let controller = Self.controller(context, sort: [NSSortDescriptor(key: "group", ascending: true),
                                                         NSSortDescriptor(key: "rank", ascending: false)], section: "group")
        try controller.performFetch()
        let sections = try #require(controller.sections)
        #expect(sections.map(\.name) == ["a", "b", "c"])
        #expect(sections.map(\.numberOfObjects) == [2, 1, 1])
        #expect(Self.names(sections[0]) == ["a2", "a1"])
        #expect(controller.fetchedObjects?.map { $0.value(forKey: "name") as! String } == ["a2", "a1", "b1", "c1"])
        let b1 = controller.object(at: IndexPath(row: 0, section: 1))
        #expect(b1.value(forKey: "name") as? String == "b1")
        #expect(controller.indexPath(forObject: b1) == IndexPath(row: 0, section: 1))
        let stranger = TestStack.insert("Item", into: TestStack.sibling(of: context), ["name": "z"])
        #expect(controller.indexPath(forObject: stranger) == nil)
    }

    @Test func nilSectionValuesShareOneSectionNamedEmpty() throws {
        // H-FRC's `name` is a non-optional string: nil values show as "" [Inf],
        // sorted first in ascending order, next to empty strings.
        let context2 = try Self.items([("x", 1, nil), ("y", 2, "b"), ("z", 3, nil), ("w", 4, "")])
        let controller2 = Self.controller(context2, sort: [NSSortDescriptor(key: "group", ascending: true),
                                                           NSSortDescriptor(key: "rank", ascending: true)], section: "group")
        try controller2.performFetch()
        #expect(controller2.sections?.map(\.name) == ["", "b"])
        #expect(controller2.sections?.map(\.indexTitle) == [nil, "B"])
        #expect(Self.names(controller2.sections![0]) == ["x", "z", "w"])
    }

    @Test func sectionsFromAToOneKeyPath() throws {
        // AD:…/sectionnamekeypath: any key path, here through a to-one relationship;
        // numbers name sections by their text.
        let context = try TestStack.context(FetchedResultsModels.failedBanks())
        for (name, zip) in [("x", 2), ("y", 1), ("z", 2)] {
            let info = TestStack.insert("FailedBankInfo", into: context, ["name": name])
            info.setValue(TestStack.insert("FailedBankDetails", into: context, ["zip": zip]), forKey: "details")
        }
        try context.save()
        let request = NSFetchRequest<NSManagedObject>(entityName: "FailedBankInfo")
        request.sortDescriptors = [NSSortDescriptor(key: "details.zip", ascending: true), NSSortDescriptor(key: "name", ascending: true)]
        let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                    sectionNameKeyPath: "details.zip", cacheName: nil)
        let recorder = FetchedResultsRecorder()
        controller.delegate = recorder
        try controller.performFetch()
        #expect(controller.sections?.map(\.name) == ["1", "2"])
        #expect(controller.sections.map { $0.map(Self.banks) } == [["y"], ["x", "z"]])

        // The bank moves when it changes (changes to its details alone are not tracked).
        let y = controller.object(at: IndexPath(row: 0, section: 0))
        (y.value(forKey: "details") as! NSManagedObject).setValue(3, forKey: "zip")
        y.setValue("y", forKey: "name")
        let before = TableModel(controller)
        context.processPendingChanges()
        #expect(try before.replaying(recorder.take()).get() == TableModel(controller))
        #expect(controller.sections?.map(\.name) == ["2", "3"])
    }

    static func banks(_ section: NSFetchedResultsSectionInfo) -> [String] {
        (section.objects ?? []).map { ($0 as! NSManagedObject).value(forKey: "name") as! String }
    }

    final class TitleDelegate: NSObject, NSFetchedResultsControllerDelegate {
        func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, sectionIndexTitleForSectionName sectionName: String) -> String? {
            "#" + sectionName
        }
    }

    @Test func sectionIndexTitles() throws {
        // H-FRC: the default title is the capitalised first letter; a delegate may override it.
        let context = try Self.items([("apple", 1, "apple"), ("avocado", 2, "avocado"), ("banana", 3, "banana")])
        let controller = Self.controller(context, sort: [NSSortDescriptor(key: "group", ascending: true)], section: "group")
        try controller.performFetch()
        #expect(controller.sectionIndexTitles == ["A", "B"])
        #expect(controller.sectionIndexTitle(forSectionName: "cherry") == "C")
        #expect(controller.section(forSectionIndexTitle: "B", at: 1) == 2)
        #expect(controller.section(forSectionIndexTitle: "A", at: 0) == 0)

        let titled = Self.controller(context, sort: [NSSortDescriptor(key: "group", ascending: true)], section: "group")
        let delegate = TitleDelegate()
        titled.delegate = delegate
        try titled.performFetch()
        #expect(titled.sections?.map(\.indexTitle) == ["#apple", "#avocado", "#banana"])
    }

    @Test func withoutDelegateNothingIsTracked() throws {
        // reference §6.1: no delegate, no tracking.
        let context = try Self.items([("a", 1, "x")])
        let controller = Self.controller(context, sort: [NSSortDescriptor(key: "rank", ascending: true)])
        try controller.performFetch()
        _ = TestStack.insert("Item", into: context, ["name": "b", "rank": 0, "visible": true])
        context.processPendingChanges()
        #expect(controller.fetchedObjects?.count == 1)
        try controller.performFetch()
        #expect(controller.fetchedObjects?.count == 2)
        #expect(controller.sections?.count == 1)
    }

    @Test func predicateChangesInsertAndDelete() throws {
        // reference §6.2: starting or stopping to match is an insert or a delete.
        let context = try Self.items([("a", 1, "x"), ("b", 2, "x")])
        let controller = Self.controller(context, sort: [NSSortDescriptor(key: "rank", ascending: true)],
                                         predicate: NSPredicate(format: "visible == YES"))
        let recorder = FetchedResultsRecorder()
        controller.delegate = recorder
        try controller.performFetch()
        let a = controller.object(at: IndexPath(row: 0, section: 0))
        a.setValue(false, forKey: "visible")
        context.processPendingChanges()
        guard case let .object(_, .delete, old?, nil) = recorder.take()[1] else { Issue.record("expected a delete"); return }
        #expect(old == IndexPath(row: 0, section: 0))
        a.setValue(true, forKey: "visible")
        context.processPendingChanges()
        guard case let .object(_, .insert, nil, new?) = recorder.take()[1] else { Issue.record("expected an insert"); return }
        #expect(new == IndexPath(row: 0, section: 0))
    }

    @Test func invalidatedObjectsAreDeletesAndResetIsNotReported() throws {
        // reference §6.2: invalidated objects are deletes; reset is not reported.
        let context = try Self.items([("a", 1, "x")])
        let controller = Self.controller(context, sort: [NSSortDescriptor(key: "rank", ascending: true)])
        let recorder = FetchedResultsRecorder()
        controller.delegate = recorder
        try controller.performFetch()
        _ = TestStack.insert("Item", into: context, ["name": "b", "rank": 5, "visible": true])
        context.processPendingChanges()
        #expect(recorder.take().count == 3)
        context.rollback() // the unsaved insert is invalidated
        let calls = recorder.take()
        guard calls.count == 3, case let .object(_, .delete, old?, nil) = calls[1] else { Issue.record("expected a delete: \(calls)"); return }
        #expect(old == IndexPath(row: 1, section: 0))
        context.reset()
        #expect(recorder.take().isEmpty)
    }

    @Test func mergedSavesAreReported() throws {
        // AD:…/controllerwillchangecontent(_:): a merged DidSave is a change event.
        let context = try Self.items([("a", 1, "x"), ("b", 2, "x")])
        let controller = Self.controller(context, sort: [NSSortDescriptor(key: "rank", ascending: true)])
        let recorder = FetchedResultsRecorder()
        controller.delegate = recorder
        try controller.performFetch()
        let other = TestStack.sibling(of: context)
        let saves = NotificationBox()
        let token = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: other, queue: nil) { saves.notes.append($0) }
        defer { NotificationCenter.default.removeObserver(token) }

        _ = TestStack.insert("Item", into: other, ["name": "c", "rank": 0, "visible": true])
        let b = try other.existingObject(with: controller.object(at: IndexPath(row: 1, section: 0)).objectID)
        other.delete(b)
        let a = try other.existingObject(with: controller.object(at: IndexPath(row: 0, section: 0)).objectID)
        a.setValue(9, forKey: "rank")
        try other.save()
        let before = TableModel(controller)
        context.mergeChanges(fromContextDidSave: saves.notes.removeLast())
        let calls = recorder.take()
        #expect(try before.replaying(calls).get() == TableModel(controller))
        let types = calls.compactMap { call -> NSFetchedResultsChangeType? in if case let .object(_, type, _, _) = call { type } else { nil } }
        #expect(types == [.delete, .insert, .move])
        #expect(controller.fetchedObjects?.map { $0.value(forKey: "name") as! String } == ["c", "a"])
    }

    final class SnapshotDelegate: NSObject, NSFetchedResultsControllerDelegate {
        var snapshots: [NSDiffableDataSourceSnapshotReference] = []
        var otherCalls = 0
        func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChangeContentWith snapshot: NSDiffableDataSourceSnapshotReference) {
            snapshots.append(snapshot)
        }
        func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) { otherCalls += 1 }
    }

    final class DifferenceDelegate: NSObject, NSFetchedResultsControllerDelegate {
        var differences: [CollectionDifference<NSManagedObjectID>] = []
        var otherCalls = 0
        func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChangeContentWith diff: CollectionDifference<NSManagedObjectID>) {
            differences.append(diff)
        }
        func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) { otherCalls += 1 }
    }

    @Test func snapshotReplacesTheOtherCallbacks() throws {
        // reference §6.2: with the snapshot method, no other delegate method is called.
        let context = try Self.items([("a1", 1, "a"), ("b1", 2, "b")])
        let controller = Self.controller(context, sort: [NSSortDescriptor(key: "group", ascending: true)], section: "group")
        let delegate = SnapshotDelegate()
        controller.delegate = delegate
        try controller.performFetch()
        let item = TestStack.insert("Item", into: context, ["name": "c1", "rank": 3, "visible": true, "group": "c"])
        for _ in 0..<2 {
            item.setValue(Int.random(in: 0..<9), forKey: "rank")
            context.processPendingChanges()
        }
        #expect(delegate.otherCalls == 0)
        #expect(delegate.snapshots.count == 2)
        let snapshot = try #require(delegate.snapshots.last)
        #expect(snapshot.sectionIdentifiers == ["a", "b", "c"])
        #expect(snapshot.itemIdentifiers(inSection: "c") == [item.objectID])
        #expect(snapshot.numberOfItems == 3)
    }

    @Test func differenceOnlyWithoutSections() throws {
        // reference §6.2: the difference method is called only without a section key path.
        let context = try Self.items([("a", 1, "a"), ("b", 2, "b")])
        let flat = Self.controller(context, sort: [NSSortDescriptor(key: "rank", ascending: true)])
        let delegate = DifferenceDelegate()
        flat.delegate = delegate
        try flat.performFetch()
        let old = flat.fetchedObjects!.map(\.objectID)
        let item = TestStack.insert("Item", into: context, ["name": "c", "rank": 0, "visible": true])
        context.processPendingChanges()
        #expect(delegate.otherCalls == 0)
        let difference = try #require(delegate.differences.last)
        #expect(old.applying(difference) == flat.fetchedObjects!.map(\.objectID))
        #expect(difference.insertions.count == 1 && difference.removals.isEmpty)
        _ = item

        let sectioned = Self.controller(context, sort: [NSSortDescriptor(key: "group", ascending: true)], section: "group")
        let other = DifferenceDelegate()
        sectioned.delegate = other
        try sectioned.performFetch()
        _ = TestStack.insert("Item", into: context, ["name": "d", "rank": 0, "visible": true, "group": "d"])
        context.processPendingChanges()
        #expect(other.differences.isEmpty && other.otherCalls == 1)
    }

    @Test func typedControllersShareStateWithTheUntypedOneDelegatesSee() throws {
        let context = try Self.items([("a", 1, "x")])
        let controller = Self.controller(context, sort: [NSSortDescriptor(key: "rank", ascending: true)])
        final class Checker: NSObject, NSFetchedResultsControllerDelegate {
            var counts: [Int] = []
            func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
                counts.append(controller.fetchedObjects?.count ?? -1)
            }
        }
        let checker = Checker()
        controller.delegate = checker
        try controller.performFetch()
        _ = TestStack.insert("Item", into: context, ["name": "b", "rank": 2, "visible": true])
        context.processPendingChanges()
        #expect(checker.counts == [2])
    }
}
