import Foundation
import GRDB
import Testing
@testable import OpenCoreDataCore

/// History Core Data wrote, read here, and history written here into the same
/// file following its conventions: a copy of the corpus store
/// alemar11__CoreDataPlus…SampleModel2_V1.sqlite, whose one transaction (an
/// xctest save of 5,468 objects) `sqlite3` shows as ATRANSACTION (1, 16002,
/// ZBUNDLEIDTS 1 "com.apple.dt.xctest.tool", ZPROCESSIDTS 2 "xctest",
/// ZTIMESTAMP 737057647.288022) and 5,468 ACHANGE insertions (ZCOLUMNS NULL).
@Suite(.enabled(if: Corpus.stores != nil, "shared/corpus is absent"))
struct PersistentHistoryCorpusTests {
    static let name = "alemar11__CoreDataPlus__Tests_Resources_SampleModel2_Fixtures_SampleModel2_V1.sqlite"

    static func open() throws -> NSManagedObjectContext {
        let copy = try SQLiteMetadataTests.copy(try #require(Corpus.stores).appendingPathComponent(name))
        let model = try NSPersistentStoreCoordinator.cachedModelForPersistentStore(at: copy)
        var options = HistoryStack.trackingOptions
        options[NSIgnorePersistentStoreVersioningOption] = true
        return try HistoryStack.context(copy, model: model, options: options)
    }

    @Test func applesTransactionReadsWithItsChanges() throws {
        let context = try Self.open()
        let transactions = try HistoryStack.history(context)
        try #require(transactions.count == 1)
        let transaction = transactions[0]
        #expect(transaction.transactionNumber == 1)
        #expect(transaction.bundleID == "com.apple.dt.xctest.tool" && transaction.processID == "xctest")
        #expect(transaction.author == nil && transaction.contextName == nil)
        #expect(transaction.timestamp == Date(timeIntervalSinceReferenceDate: 737057647.288022))
        let changes = try #require(transaction.changes)
        #expect(changes.count == 5468 && changes.allSatisfy { $0.changeType == .insert })
        let byEntity = Dictionary(grouping: changes) { $0.changedObjectID.entity.name ?? "" }.mapValues(\.count)
        #expect(byEntity == ["Book": 51, "GraphicNovel": 1, "Feedback": 444, "Page": 4970, "Author": 2])
    }

    @Test func aSaveHereContinuesApplesNumberingAndStrings() throws {
        let context = try Self.open()
        let id = try context.performAndWait {
            context.transactionAuthor = "linux"
            let author = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Author")).first)
            author.setValue(Int16(77), forKey: "age")
            try context.save()
            return author.objectID
        }
        let transactions = try HistoryStack.history(context)
        #expect(transactions.map(\.transactionNumber) == [1, 2])
        let change = try #require(transactions.last?.changes?.first)
        #expect(transactions.last?.changes?.count == 1 && transactions.last?.author == "linux")
        #expect(change.changedObjectID == id && change.changeID == 5469)
        #expect(change.updatedProperties?.map(\.name) == ["age"])
        try HistoryStack.file(context).read { db in
            let keys = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 "
                                        + "ORDER BY Z_ENT")
            // New strings follow Apple's two: the author, then this process's name (bundle ID and process).
            let process = ProcessInfo.processInfo.processName
            let strings = try String.fetchAll(db, sql: "SELECT ZNAME FROM ATRANSACTIONSTRING ORDER BY Z_PK")
            #expect(strings == ["com.apple.dt.xctest.tool", "xctest", "linux"] + (process == "xctest" ? [] : [process]))
            #expect(keys.map { $0[1] as Int64 } == [5469, 2, Int64(strings.count)])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT ZENTITY, ZCHANGETYPE, ZTRANSACTIONID, ZCOLUMNS "
                                                    + "FROM ACHANGE WHERE Z_PK = 5469"))
            #expect(row[0] as Int? == 6 && row[1] as Int? == 1 && row[2] as Int? == 2)
            #expect((row[3] as Data?)?.first == 0x80, "age is Author's first property by name")
        }
    }
}
