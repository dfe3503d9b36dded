import Testing
@testable import OpenCoreDataCore

/// Seed 002's table-view walk-through: a FailedBankInfo list sorted by
/// `details.closeDate` descending, batch size 20, cache "root", a delegate
/// that turns callbacks into table-view batch updates.
@Suite(.serialized) struct FetchedResultsWalkthroughTests {
    /// The seed's view controller: it answers the table view's data-source
    /// questions from the controller and applies the callbacks to the rows
    /// it shows, between beginUpdates and endUpdates.
    final class BankListController: NSObject, NSFetchedResultsControllerDelegate {
        let fetchedResultsController: NSFetchedResultsController<NSManagedObject>
        var rows: TableModel
        let recorder = FetchedResultsRecorder()
        var updatesApplied = 0

        init(context: NSManagedObjectContext, sectionNameKeyPath: String?, cacheName: String?) throws {
            let request = NSFetchRequest<NSManagedObject>()
            request.entity = NSEntityDescription.entity(forEntityName: "FailedBankInfo", in: context)
            request.sortDescriptors = (sectionNameKeyPath.map { [NSSortDescriptor(key: $0, ascending: true)] } ?? [])
                + [NSSortDescriptor(key: "details.closeDate", ascending: false)]
            request.fetchBatchSize = 20
            fetchedResultsController = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                                  sectionNameKeyPath: sectionNameKeyPath, cacheName: cacheName)
            try fetchedResultsController.performFetch()
            rows = TableModel(fetchedResultsController)
            super.init()
            fetchedResultsController.delegate = self
        }

        // Data source (seed steps 4–6).
        var numberOfSections: Int { fetchedResultsController.sections?.count ?? 0 }
        func numberOfRows(inSection section: Int) -> Int { fetchedResultsController.sections![section].numberOfObjects }
        func cell(at indexPath: IndexPath) -> String { fetchedResultsController.object(at: indexPath).value(forKey: "name") as! String }

        // Delegate (seed step 7): begin/endUpdates around the row and section changes.
        func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
            recorder.controllerWillChangeContent(controller)
        }
        func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
                        at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
            recorder.controller(controller, didChange: anObject, at: indexPath, for: type, newIndexPath: newIndexPath)
        }
        func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange sectionInfo: NSFetchedResultsSectionInfo,
                        atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType) {
            recorder.controller(controller, didChange: sectionInfo, atSectionIndex: sectionIndex, for: type)
        }
        func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
            recorder.controllerDidChangeContent(controller)
            let calls = recorder.calls
            guard case .success(let model) = rows.replaying(calls), model == TableModel(fetchedResultsController) else {
                Issue.record("endUpdates: the table's rows don't match the controller after \(calls)")
                return
            }
            rows = model
            updatesApplied += 1
        }

        /// The object changes of the last event, as (type, old, new) and the bank's name.
        func lastChanges() -> [(NSFetchedResultsChangeType, IndexPath?, IndexPath?, String)] {
            recorder.take().compactMap { call in
                guard case let .object(object, type, old, new) = call else { return nil }
                return (type, old, new, object.value(forKey: "name") as! String)
            }
        }
    }

    static func insertBank(_ name: String, state: String, closed daysAgo: Int, into context: NSManagedObjectContext) -> NSManagedObject {
        let info = TestStack.insert("FailedBankInfo", into: context, ["name": name, "city": "Springfield", "state": state])
        let details = TestStack.insert("FailedBankDetails", into: context, ["zip": 10_000 + daysAgo])
        details.setValue(Date(timeIntervalSinceReferenceDate: 700_000_000 - Double(daysAgo) * 86_400), forKey: "closeDate")
        info.setValue(details, forKey: "details")
        return info
    }

    static func bankContext() throws -> NSManagedObjectContext {
        let context = try TestStack.context(FetchedResultsModels.failedBanks())
        let states = ["CA", "GA", "IL", "FL"]
        for day in 0..<45 { _ = insertBank("Bank \(day)", state: states[day % 4], closed: day * 2 + 1, into: context) }
        try context.save()
        return context
    }

    @Test func seedTableViewWithoutSections() throws {
        NSFetchedResultsController<NSManagedObject>.deleteCache(withName: "root")
        // A store without a file keeps its caches in the user's caches folder: leave none there.
        defer { NSFetchedResultsController<NSManagedObject>.deleteCache(withName: "root") }
        let context = try Self.bankContext()
        let list = try BankListController(context: context, sectionNameKeyPath: nil, cacheName: "root")
        #expect(list.numberOfSections == 1)
        #expect(list.numberOfRows(inSection: 0) == 45)
        // details.closeDate descending: the bank closed 1 day ago first.
        #expect(list.cell(at: IndexPath(row: 0, section: 0)) == "Bank 0")
        #expect(list.cell(at: IndexPath(row: 44, section: 0)) == "Bank 44")

        // A newer failure appears at the top: an insert at row 0 (newIndexPath only).
        let newest = Self.insertBank("Bank New", state: "CA", closed: 0, into: context)
        context.processPendingChanges()
        #expect(list.lastChanges().map { "\($0.0) \($0.1.map { "\($0)" } ?? "nil") \($0.2.map { "\($0)" } ?? "nil") \($0.3)" }
                == ["insert nil [0, 0] Bank New"])

        // Renaming changes no position: an update at its index path.
        newest.setValue("Bank Renamed", forKey: "name")
        context.processPendingChanges()
        let update = list.lastChanges()
        #expect(update.count == 1 && update[0].0 == .update && update[0].1 == IndexPath(row: 0, section: 0))

        // Deleting with the seed's Cascade rule: a delete at the old index path.
        let bank5 = list.fetchedResultsController.object(at: IndexPath(row: 6, section: 0))
        #expect(bank5.value(forKey: "name") as? String == "Bank 5")
        context.delete(bank5)
        context.processPendingChanges()
        let delete = list.lastChanges()
        #expect(delete.count == 1 && delete[0].0 == .delete && delete[0].1 == IndexPath(row: 6, section: 0) && delete[0].2 == nil)

        // A new close date moves a bank; the controller sees it when the bank
        // itself changes (changes to related objects alone are not tracked, as in Core Data).
        let bank30 = list.fetchedResultsController.object(at: IndexPath(row: 30, section: 0))
        let details = bank30.value(forKey: "details") as! NSManagedObject
        details.setValue(Date(timeIntervalSinceReferenceDate: 700_000_000 + 86_400), forKey: "closeDate")
        bank30.setValue("Bank 30 reopened", forKey: "name")
        context.processPendingChanges()
        let move = list.lastChanges()
        #expect(move.count == 1 && move[0].0 == .move && move[0].1 == IndexPath(row: 30, section: 0) && move[0].2 == IndexPath(row: 0, section: 0))

        try context.save()
        #expect(list.lastChanges().isEmpty) // the save itself moves nothing
        #expect(list.updatesApplied == 4)
        #expect(list.numberOfRows(inSection: 0) == 45)
    }

    @Test func seedTableViewWithSectionsByState() throws {
        let context = try Self.bankContext()
        let list = try BankListController(context: context, sectionNameKeyPath: "state", cacheName: nil)
        #expect(list.fetchedResultsController.sections?.map(\.name) == ["CA", "FL", "GA", "IL"])
        #expect(list.fetchedResultsController.sectionIndexTitles == ["C", "F", "G", "I"])
        #expect(list.numberOfRows(inSection: 0) == 12)

        // The first bank of a new state: a section insert, then a row insert.
        _ = Self.insertBank("Bank NY", state: "NY", closed: 3, into: context)
        context.processPendingChanges()
        #expect(list.recorder.calls.contains { if case .section("NY", 4, .insert) = $0 { true } else { false } })
        #expect(list.lastChanges().map(\.0) == [.insert])

        // Moving the only NY bank to GA empties NY: a section delete and a move across sections.
        let ny = list.fetchedResultsController.object(at: IndexPath(row: 0, section: 4))
        ny.setValue("GA", forKey: "state")
        context.processPendingChanges()
        #expect(list.recorder.calls.contains { if case .section("NY", 4, .delete) = $0 { true } else { false } })
        let move = list.lastChanges()
        #expect(move.count == 1 && move[0].0 == .move && move[0].1 == IndexPath(row: 0, section: 4) && move[0].2?.section == 2)
        #expect(list.updatesApplied == 2)
    }
}
