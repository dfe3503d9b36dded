import Foundation
import GRDB
import Testing
@testable import OpenCoreDataCore

/// NSPersistentHistoryChangeRequest's bounds, fetch requests, result types
/// and deletion, and NSPersistentHistoryToken
/// (https://developer.apple.com/documentation/coredata/nspersistenthistorychangerequest).
@Suite struct PersistentHistoryRequestTests {
    /// Three saves by authors "a", "b", "a", each inserting one album; the token after each.
    static func threeSaves() throws -> (NSManagedObjectContext, [NSPersistentHistoryToken]) {
        let context = try HistoryStack.context()
        let coordinator = context.persistentStoreCoordinator!
        var tokens: [NSPersistentHistoryToken] = []
        for (index, author) in ["a", "b", "a"].enumerated() {
            try context.performAndWait {
                context.transactionAuthor = author
                TestStack.insert("Album", into: context, ["name": "album\(index)"])
                try context.save()
            }
            tokens.append(try #require(coordinator.currentPersistentHistoryToken(fromStores: nil)))
        }
        return (context, tokens)
    }

    static func run(_ request: NSPersistentHistoryChangeRequest, _ context: NSManagedObjectContext) throws -> Any? {
        try context.performAndWait { (try context.execute(request) as? NSPersistentHistoryResult)?.result }
    }

    @Test func tokensFollowTheStoresTransactionsAndBoundFetches() throws {
        let (context, tokens) = try Self.threeSaves()
        let transactions = try HistoryStack.history(context)
        #expect(transactions.map(\.transactionNumber) == [1, 2, 3])
        #expect(transactions.map(\.token) == tokens)
        #expect(tokens[0] != tokens[1] && tokens[0].compare(tokens[1]) == .orderedAscending)
        #expect(tokens[2].compare(tokens[1]) == .orderedDescending && tokens[1].compare(tokens[1]) == .orderedSame)
        #expect(try HistoryStack.history(context, after: tokens[0]).map(\.transactionNumber) == [2, 3])
        #expect(try HistoryStack.history(context, after: tokens[2]).isEmpty)
        typealias Transactions = [NSPersistentHistoryTransaction]
        let afterTransaction = try Self.run(.fetchHistory(after: transactions[1]), context) as? Transactions
        #expect(afterTransaction?.map(\.transactionNumber) == [3])
        let afterDate = try Self.run(.fetchHistory(after: transactions[0].timestamp), context) as? Transactions
        #expect(afterDate?.map(\.transactionNumber).first ?? 0 > 1)
        #expect(NSPersistentHistoryChangeRequest.fetchHistory(after: tokens[1]).token == tokens[1])
    }

    @Test func aTokenSurvivesSecureArchiving() throws {
        let (context, tokens) = try Self.threeSaves()
        let data = try NSKeyedArchiver.archivedData(withRootObject: tokens[0], requiringSecureCoding: true)
        let unarchived = try NSKeyedUnarchiver.unarchivedObject(ofClass: NSPersistentHistoryToken.self, from: data)
        let decoded = try #require(unarchived)
        #expect(decoded == tokens[0] && decoded.hash == tokens[0].hash)
        #expect(try HistoryStack.history(context, after: decoded).map(\.transactionNumber) == [2, 3])
    }

    /// Apple's sample filters out its own transactions with a fetch request on the author
    /// (https://developer.apple.com/documentation/coredata/consuming_relevant_store_changes).
    @Test func aFetchRequestPredicateSelectsTransactionsOrChanges() throws {
        let (context, _) = try Self.threeSaves()
        let byAuthor = try #require(NSPersistentHistoryTransaction.fetchRequest)
        byAuthor.predicate = NSPredicate(format: "%K != %@", "author", "a")
        let request = NSPersistentHistoryChangeRequest.fetchHistory(withFetch: byAuthor)
        #expect(request.fetchRequest === byAuthor)
        let others = try Self.run(request, context) as? [NSPersistentHistoryTransaction]
        #expect(others?.map(\.transactionNumber) == [2])

        try context.performAndWait {
            let albums = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album"))
            context.delete(albums[0])
            albums[1].setValue("renamed", forKey: "name")
            try context.save()
        }
        let deletions = try #require(NSPersistentHistoryChange.fetchRequest)
        deletions.predicate = NSPredicate(format: "changeType == %d", NSPersistentHistoryChangeType.delete.rawValue)
        let changeRequest = NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryToken?)
        changeRequest.fetchRequest = deletions
        let found = try #require(try Self.run(changeRequest, context) as? [NSPersistentHistoryTransaction])
        #expect(found.map(\.transactionNumber) == [4])
        #expect(found.first?.changes?.map(\.changeType) == [.delete])
        let byTransaction = try #require(NSPersistentHistoryChange.fetchRequest)
        byTransaction.predicate = NSPredicate(format: "transaction.author == %@", "b")
        let inB = try Self.run(.fetchHistory(withFetch: byTransaction), context) as? [NSPersistentHistoryTransaction]
        #expect(inB?.map(\.transactionNumber) == [2])
        let entity = NSPersistentHistoryChange.entityDescription(with: context)
        #expect(entity === NSPersistentHistoryChange.entityDescription && entity?.name == "Change")
    }

    @Test func resultTypesShapeTheResult() throws {
        let (context, tokens) = try Self.threeSaves()
        func run(_ type: NSPersistentHistoryResultType) throws -> Any? {
            let request = NSPersistentHistoryChangeRequest.fetchHistory(after: tokens[0])
            request.resultType = type
            return try Self.run(request, context)
        }
        #expect(NSPersistentHistoryChangeRequest.fetchHistory(after: Date()).resultType == .transactionsAndChanges)
        #expect(try run(.statusOnly) as? Bool == true)
        #expect(try run(.count) as? Int == 2)
        #expect((try run(.objectIDs) as? [NSManagedObjectID])?.count == 2)
        let transactions = try #require(try run(.transactionsOnly) as? [NSPersistentHistoryTransaction])
        #expect(transactions.count == 2 && transactions.allSatisfy { $0.changes == nil })
        let changes = try #require(try run(.changesOnly) as? [NSPersistentHistoryChange])
        #expect(changes.count == 2 && changes.allSatisfy { $0.transaction == nil && $0.changeType == .insert })
    }

    /// History deleted before a token makes older tokens expire: fetching after
    /// one throws NSPersistentHistoryTokenExpiredError (134301).
    @Test func deletingHistoryExpiresOlderTokens() throws {
        let (context, tokens) = try Self.threeSaves()
        let delete = NSPersistentHistoryChangeRequest.deleteHistory(before: tokens[2])
        #expect(try Self.run(delete, context) as? Bool == true)
        #expect(try HistoryStack.history(context).map(\.transactionNumber) == [3])
        #expect(try HistoryStack.history(context, after: tokens[1]).map(\.transactionNumber) == [3])
        let error = #expect(throws: NSError.self) { try HistoryStack.history(context, after: tokens[0]) }
        #expect(error?.domain == NSCocoaErrorDomain && error?.code == NSPersistentHistoryTokenExpiredError)
        #expect(error?.localizedDescription.contains("expired") == true)
        try HistoryStack.file(context).read { db in
            let changes = try Int.fetchOne(db, sql: "SELECT count(*) FROM ACHANGE")
            #expect(changes == 1)
        }
        // Numbers keep growing after a deletion; a deletion of everything expires every token.
        try context.performAndWait {
            TestStack.insert("Album", into: context, ["name": "later"])
            try context.save()
        }
        let all = NSPersistentHistoryChangeRequest.deleteHistory(before: Date.distantFuture)
        all.resultType = .count
        #expect(try Self.run(all, context) as? Int == 2)
        let latest = try #require(context.persistentStoreCoordinator!.currentPersistentHistoryToken(fromStores: nil))
        let store = context.persistentStoreCoordinator!.persistentStores[0].identifier
        #expect(latest.transactionNumber(inStore: store) == 4)
        #expect(throws: NSError.self) { try HistoryStack.history(context, after: tokens[2]) }
        #expect(try HistoryStack.history(context, after: latest).isEmpty)
    }

    @Test func aStoreWithoutHistoryRefusesHistoryRequests() throws {
        let context = try TestStack.context(HistoryStack.model(), .sqlite)
        #expect(context.persistentStoreCoordinator!.currentPersistentHistoryToken(fromStores: nil) == nil)
        let error = #expect(throws: NSError.self) { try HistoryStack.history(context) }
        #expect(error?.code == NSPersistentStoreOperationError)
        #expect(error?.localizedDescription.contains("NSPersistentHistoryTrackingKey") == true)
    }
}
