import Foundation
import GRDB
import Testing
@testable import OpenCoreDataCore

/// What each change of a transaction says: updated properties (`ZCOLUMNS`,
/// bit *i* for the *i*-th property by name, most significant bit first, as
/// observed by anandghegde/CoreDataDabbi Sources/DabbiSQLite/RawHistoryReader.swift
/// on an Apple Notes store) and tombstones (`ZTOMBSTONE`*n* for the *n*-th
/// attribute by name that `preservesValueInHistoryOnDeletion`; mjtsai.com/blog/?p=26353).
@Suite struct PersistentHistoryChangeTests {
    /// An album "A" with photos "p0" (index 0) and "p1" (index 1), saved; returns the context and the token after it.
    static func saved() throws -> (NSManagedObjectContext, NSPersistentHistoryToken) {
        let context = try HistoryStack.context()
        try context.performAndWait {
            let album = TestStack.insert("Album", into: context, ["name": "A"])
            for index in 0..<2 {
                TestStack.insert("Photo", into: context, ["name": "p\(index)", "index": Int16(index), "album": album])
            }
            try context.save()
        }
        let token = context.persistentStoreCoordinator!.currentPersistentHistoryToken(fromStores: nil)
        return (context, try #require(token))
    }

    static func photo(_ name: String, _ context: NSManagedObjectContext) throws -> NSManagedObject {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
        request.predicate = NSPredicate(format: "name == %@", name)
        return try #require(try context.fetch(request).first)
    }

    @Test func anUpdateNamesTheChangedAttributes() throws {
        let (context, token) = try Self.saved()
        let id = try context.performAndWait {
            let photo = try Self.photo("p0", context)
            photo.setValue("renamed", forKey: "name")
            photo.setValue("/tmp/x", forKey: "path")
            try context.save()
            return photo.objectID
        }
        let changes = try #require(try HistoryStack.history(context, after: token).first?.changes)
        try #require(changes.count == 1)
        #expect(changes[0].changeType == .update && changes[0].changedObjectID == id)
        #expect(Set(changes[0].updatedProperties?.map(\.name) ?? []) == ["name", "path"])
        // Photo's properties by name: album, index, name, path → name is bit 2, path bit 3: 0b0011_0000.
        try HistoryStack.file(context).read { db in
            let columns = try Data.fetchOne(db, sql: "SELECT ZCOLUMNS FROM ACHANGE WHERE ZCHANGETYPE = 1")
            #expect(columns == Data([0x30]))
        }
    }

    /// Moving a photo changes its to-one key and both albums' to-many
    /// relationships, whose data is not in the albums' rows.
    @Test func movingAnObjectUpdatesBothSidesOfTheRelationship() throws {
        let (context, token) = try Self.saved()
        let (photo, from, to) = try context.performAndWait {
            let other = TestStack.insert("Album", into: context, ["name": "B"])
            try context.save()
            let photo = try Self.photo("p1", context)
            let from = try #require(photo.value(forKey: "album") as? NSManagedObject)
            photo.setValue(other, forKey: "album")
            try context.save()
            return (photo.objectID, from.objectID, other.objectID)
        }
        let transactions = try HistoryStack.history(context, after: token)
        try #require(transactions.count == 2)
        let changes = try #require(transactions[1].changes)
        let updated = Dictionary(uniqueKeysWithValues: changes.map {
            ($0.changedObjectID, Set($0.updatedProperties?.map(\.name) ?? []))
        })
        #expect(changes.allSatisfy { $0.changeType == .update })
        #expect(updated == [photo: ["album"], from: ["photos"], to: ["photos"]])
    }

    @Test func aDeletionKeepsTheTombstoneOfPreservedAttributes() throws {
        let (context, token) = try Self.saved()
        let id = try context.performAndWait {
            let photo = try Self.photo("p1", context)
            photo.setValue("/gone", forKey: "path")
            try context.save()
            context.delete(photo)
            try context.save()
            return photo.objectID
        }
        let transactions = try HistoryStack.history(context, after: token)
        let deletion = try #require(transactions.last?.changes?.first { $0.changedObjectID == id })
        #expect(deletion.changeType == .delete && deletion.updatedProperties == nil)
        // name and index preserve their values; path does not.
        #expect(deletion.tombstone?["name"] as? String == "p1")
        #expect(deletion.tombstone?["index"] as? Int16 == 1)
        #expect(deletion.tombstone?["path"] == nil && deletion.tombstone?.count == 2)
        try HistoryStack.file(context).read { db in
            let sql = "SELECT ZTOMBSTONE0, ZTOMBSTONE1 FROM ACHANGE WHERE ZCHANGETYPE = 2"
            let row = try #require(try Row.fetchOne(db, sql: sql))
            // By name: index (ZTOMBSTONE0), then name (ZTOMBSTONE1).
            #expect(row[0] as Int64? == 1 && row[1] as String? == "p1")
        }
    }

    /// The triggers record what a batch request writes without going through a context
    /// (mjtsai.com/blog/?p=26353: "they also work for batch updates and deletions").
    @Test func aBatchUpdateIsATransactionToo() throws {
        let (context, token) = try Self.saved()
        let ids = try context.performAndWait {
            context.transactionAuthor = "batch"
            let request = NSBatchUpdateRequest(entityName: "Photo")
            request.propertiesToUpdate = ["path": "/batch"]
            request.resultType = .updatedObjectIDsResultType
            let result = try context.execute(request) as! NSBatchUpdateResult
            return Set(result.result as! [NSManagedObjectID])
        }
        let transactions = try HistoryStack.history(context, after: token)
        try #require(transactions.count == 1 && ids.count == 2)
        #expect(transactions[0].author == "batch")
        let changes = try #require(transactions[0].changes)
        #expect(Set(changes.map(\.changedObjectID)) == ids)
        #expect(changes.allSatisfy { $0.changeType == .update && $0.updatedProperties?.map(\.name) == ["path"] })
    }

    /// Batch inserts and deletes write around contexts; history is how contexts learn of them
    /// (https://developer.apple.com/documentation/coredata/consuming_relevant_store_changes).
    @Test func batchInsertsAndDeletesAreTransactionsToo() throws {
        let (context, token) = try Self.saved()
        let (inserted, deleted) = try context.performAndWait { () throws in
            // Apple's sample sets the author of its batch imports so that history can be filtered by it.
            context.transactionAuthor = "importer"
            let insert = NSBatchInsertRequest(entityName: "Photo", objects: [["name": "b0"], ["name": "b1"]])
            insert.resultType = .objectIDs
            let insertedIDs = try #require((context.execute(insert) as? NSBatchInsertResult)?.result
                as? [NSManagedObjectID])
            let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Photo")
            fetch.predicate = NSPredicate(format: "name BEGINSWITH 'p'")
            let delete = NSBatchDeleteRequest(fetchRequest: fetch)
            delete.resultType = .resultTypeObjectIDs
            let deletedIDs = try #require((context.execute(delete) as? NSBatchDeleteResult)?.result
                as? [NSManagedObjectID])
            return (Set(insertedIDs), Set(deletedIDs))
        }
        let transactions = try HistoryStack.history(context, after: token)
        try #require(transactions.count == 2 && inserted.count == 2 && deleted.count == 2)
        #expect(transactions.allSatisfy { $0.author == "importer" })
        let insertChanges = try #require(transactions[0].changes)
        #expect(Set(insertChanges.map(\.changedObjectID)) == inserted)
        #expect(insertChanges.allSatisfy { $0.changeType == .insert })
        let deleteChanges = try #require(transactions[1].changes)
        #expect(Set(deleteChanges.filter { $0.changeType == .delete }.map(\.changedObjectID)) == deleted)
        // The next save continues the change numbering after the batches' changes.
        try context.performAndWait { () throws in
            TestStack.insert("Photo", into: context, ["name": "after"])
            try context.save()
        }
        let all = try HistoryStack.history(context, after: token).flatMap { $0.changes ?? [] }
        #expect(Set(all.map(\.changeID)).count == all.count)
    }

    @Test func objectIDNotificationMergesTheTransactionIntoAnotherContext() throws {
        let (context, token) = try Self.saved()
        let reader = TestStack.sibling(of: context)
        let watched = try reader.performAndWait { try Self.photo("p0", reader) }
        try context.performAndWait {
            try Self.photo("p0", context).setValue("merged", forKey: "name")
            TestStack.insert("Photo", into: context, ["name": "new"])
            try context.save()
        }
        let transaction = try #require(try HistoryStack.history(context, after: token).first)
        let notification = transaction.objectIDNotification()
        #expect((notification.userInfo?[NSInsertedObjectIDsKey] as? Set<NSManagedObjectID>)?.count == 1)
        #expect((notification.userInfo?[NSUpdatedObjectIDsKey] as? Set<NSManagedObjectID>) == [watched.objectID])
        try reader.performAndWait {
            reader.mergeChanges(fromContextDidSave: notification)
            #expect(watched.value(forKey: "name") as? String == "merged")
            let count = try reader.count(for: NSFetchRequest<NSManagedObject>(entityName: "Photo"))
            #expect(count == 3)
        }
    }
}
