import Foundation
import GRDB
import Testing
@testable import OpenCoreDataCore

/// Persistent history (reference §4.5): every save of a store added with
/// `NSPersistentHistoryTrackingKey` is a transaction of changes in Apple's
/// tables, read back with `NSPersistentHistoryChangeRequest`
/// (https://developer.apple.com/documentation/coredata/consuming_relevant_store_changes).
@Suite struct PersistentHistoryTests {
    @Test func aSaveIsOneTransactionWithItsAuthorContextNameAndInserts() throws {
        let context = try HistoryStack.context()
        let ids = try context.performAndWait {
            context.name = "editor"
            context.transactionAuthor = "app"
            let album = TestStack.insert("Album", into: context, ["name": "Trip"])
            let photos = (0..<2).map { TestStack.insert("Photo", into: context, ["name": "p\($0)", "album": album]) }
            try context.save()
            return Set(([album] + photos).map(\.objectID))
        }
        let before = Date()
        let transactions = try HistoryStack.history(context)
        try #require(transactions.count == 1)
        let transaction = transactions[0]
        #expect(transaction.author == "app")
        #expect(transaction.contextName == "editor")
        #expect(transaction.processID == ProcessInfo.processInfo.processName)
        #expect(!transaction.bundleID.isEmpty)
        #expect(transaction.storeID == context.persistentStoreCoordinator!.persistentStores[0].identifier)
        #expect(abs(transaction.timestamp.timeIntervalSince(before)) < 60)
        #expect(transaction.transactionNumber == 1)
        let changes = try #require(transaction.changes)
        #expect(Set(changes.map(\.changedObjectID)) == ids)
        #expect(changes.allSatisfy { $0.changeType == .insert && $0.updatedProperties == nil && $0.tombstone == nil })
        #expect(changes.allSatisfy { $0.transaction === transaction })
        #expect(Set(changes.map(\.changeID)).count == 3)
    }

    /// Apple's layout, as the corpus stores hold it (`sqlite3 … .schema` of
    /// alemar11__CoreDataPlus…SampleModel2_V1.sqlite): Z_ENT 16001–16003, Z_OPT
    /// NULL, strings interned in ATRANSACTIONSTRING with the VARCHAR twins NULL,
    /// ZCOLUMNS NULL for insertions, and Z_PRIMARYKEY rows counting the keys.
    @Test func theFileHoldsTheTransactionInApplesTablesAndLayout() throws {
        let context = try HistoryStack.context()
        try context.performAndWait {
            context.transactionAuthor = "importer"
            TestStack.insert("Album", into: context, ["name": "A"])
            TestStack.insert("Album", into: context, ["name": "B"])
            try context.save()
        }
        try HistoryStack.file(context).read { db in
            let schema = try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE tbl_name IN "
                                             + "('ACHANGE', 'ATRANSACTION', 'ATRANSACTIONSTRING') ORDER BY name")
            #expect(schema.count == 3 + 8)
            let change = "CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE "
                + "INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB "
            // Apple's statement, then one column per preserved attribute (name and index here).
            #expect(schema.contains { $0.hasPrefix(change) && $0.hasSuffix(", ZTOMBSTONE0 BLOB, ZTOMBSTONE1 BLOB)") })
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'trigger'") == 0)
            let keys = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY "
                                        + "WHERE Z_ENT > 16000")
            let described: [String] = keys.map { "\($0[0] as Int) \($0[1] as String) \($0[2] as Int) \($0[3] as Int)" }
            // Two strings: the author, and the process name, which is the bundle ID too on Linux.
            #expect(described == ["16001 CHANGE 0 2", "16002 TRANSACTION 0 1", "16003 TRANSACTIONSTRING 0 2"])
            let transaction = try #require(try Row.fetchOne(db, sql: "SELECT * FROM ATRANSACTION"))
            #expect(transaction["Z_ENT"] as Int? == 16002 && (transaction["Z_OPT"] as DatabaseValue).isNull)
            #expect((transaction["ZAUTHOR"] as DatabaseValue).isNull)
            #expect((transaction["ZCONTEXTNAMETS"] as DatabaseValue).isNull)
            let author = try String.fetchOne(db, sql: "SELECT ZNAME FROM ATRANSACTIONSTRING WHERE Z_PK = ?",
                                             arguments: [transaction["ZAUTHORTS"] as Int64?])
            #expect(author == "importer")
            let process = try String.fetchOne(db, sql: "SELECT ZNAME FROM ATRANSACTIONSTRING WHERE Z_PK = ?",
                                              arguments: [transaction["ZPROCESSIDTS"] as Int64?])
            #expect(process == ProcessInfo.processInfo.processName)
            let stamp = try #require(transaction["ZTIMESTAMP"] as Double?)
            #expect(abs(stamp - Date().timeIntervalSinceReferenceDate) < 60)
            let changes = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, "
                                           + "ZTRANSACTIONID, ZCOLUMNS FROM ACHANGE ORDER BY Z_PK")
            #expect(changes.count == 2)
            for change in changes {
                #expect(change[0] as Int? == 16001 && (change[1] as DatabaseValue).isNull && change[2] as Int? == 0)
                #expect(change[3] as Int? == 1 && change[5] as Int? == 1 && (change[6] as DatabaseValue).isNull)
            }
            #expect(Set(changes.map { $0[4] as Int64 }) == [1, 2])
        }
    }
}
