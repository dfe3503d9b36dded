// Apple's sample for merging relevant store changes, with only `import CoreData` changed
// (https://developer.apple.com/documentation/coredata/consuming_relevant_store_changes): history
// tracking and remote-change options on the description, a background author, a history fetch
// excluding the app's own transactions, and a merge of each transaction into the view context.
import XCTest
import Foundation
import OpenCoreData
import TestScratch

final class PersistentHistoryPortingTests: XCTestCase {
    let appTransactionAuthorName = "app"

    func testApplesRemoteChangeMergeCompilesAndMerges() throws {
        let container = NSPersistentContainer(name: "PortingModel")
        let folder = ScratchDirectory.url("ocd-porting-\(UUID().uuidString)")
        let description = try XCTUnwrap(container.persistentStoreDescriptions.first)
        description.url = folder.appendingPathComponent("PortingModel.sqlite")
        description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
        description.setOption(true as NSNumber, forKey: NSPersistentStoreRemoteChangeNotificationPostOptionKey)
        container.loadPersistentStores { _, error in XCTAssertNil(error) }
        container.viewContext.transactionAuthor = appTransactionAuthorName
        let lastHistoryToken = container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)

        let importer = container.newBackgroundContext()
        importer.transactionAuthor = "importer"
        try importer.performAndWait {
            let photo = PortingPhoto(context: importer)
            photo.name = "imported"
            try importer.save()
        }

        let taskContext = container.newBackgroundContext()
        var merged = 0
        try taskContext.performAndWait {
            let fetchHistoryRequest = NSPersistentHistoryChangeRequest.fetchHistory(after: lastHistoryToken)
            if let historyFetchRequest = NSPersistentHistoryTransaction.fetchRequest {
                historyFetchRequest.predicate = NSPredicate(format: "%K != %@", "author", appTransactionAuthorName)
                fetchHistoryRequest.fetchRequest = historyFetchRequest
            }
            guard let historyResult = try taskContext.execute(fetchHistoryRequest) as? NSPersistentHistoryResult,
                  let history = historyResult.result as? [NSPersistentHistoryTransaction] else {
                return XCTFail("no history")
            }
            let viewContext = container.viewContext
            for transaction in history {
                viewContext.performAndWait {
                    viewContext.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
                }
                merged += transaction.changes?.count ?? 0
            }
        }
        XCTAssertEqual(merged, 1)
        let names = try container.viewContext.fetch(PortingPhoto.fetchRequest()).map(\.name)
        XCTAssertEqual(names, ["imported"])
    }
}
