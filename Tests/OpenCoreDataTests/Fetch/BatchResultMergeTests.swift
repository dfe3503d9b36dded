import Foundation
import Testing
@testable import OpenCoreDataCore

/// Batch requests change the store only: "NSManagedObjectContext doesn't automatically merge a request's
/// deletions because they happen at the SQL level"
/// (https://developer.apple.com/documentation/coredata/nsbatchdeleterequest),
/// and apps merge the result's IDs with
/// `class func mergeChanges(fromRemoteContextSave changeNotificationData: [AnyHashable: Any], into contexts:
/// [NSManagedObjectContext])`, whose dictionary holds NSInsertedObjectsKey / NSUpdatedObjectsKey /
/// NSDeletedObjectsKey (or the …IDsKey keys) with arrays of object IDs or their URIs
/// (https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/
/// mergechanges(fromremotecontextsave:into:)).
@Suite struct BatchResultMergeTests {
    @Test func registeredObjectsStayUntilMerged() throws {
        let context = try TestStack.albumsWithPhotos()
        try context.performAndWait { () throws in
            let fetch = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            fetch.predicate = NSPredicate(format: "name BEGINSWITH 'p0-' OR name BEGINSWITH 'p1-'")
            let photos = try context.fetch(fetch)
            photos.forEach { _ = $0.value(forKey: "name") }
            let doomed = photos.filter { ($0.value(forKey: "name") as! String).hasPrefix("p0-") }
            let kept = photos.filter { ($0.value(forKey: "name") as! String).hasPrefix("p1-") }

            let deleteFetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Photo")
            deleteFetch.predicate = NSPredicate(format: "name BEGINSWITH 'p0-'")
            let delete = NSBatchDeleteRequest(fetchRequest: deleteFetch)
            delete.resultType = .resultTypeObjectIDs
            let deleted = try #require((try context.execute(delete) as? NSBatchDeleteResult)?.result
                as? [NSManagedObjectID])
            let insert = NSBatchInsertRequest(entityName: "Photo", objects: [["name": "new", "path": "/new"]])
            insert.resultType = .objectIDs
            let inserted = try #require((try context.execute(insert) as? NSBatchInsertResult)?.result
                as? [NSManagedObjectID])
            let update = NSBatchUpdateRequest(entityName: "Photo")
            update.predicate = NSPredicate(format: "name BEGINSWITH 'p1-'")
            update.propertiesToUpdate = ["path": "/updated"]
            update.resultType = .updatedObjectIDsResultType
            let updated = try #require((try context.execute(update) as? NSBatchUpdateResult)?.result
                as? [NSManagedObjectID])

            // Before the merge: the context still has the deleted objects, with their values, and not the new one.
            #expect(doomed.allSatisfy { context.registeredObject(for: $0.objectID) === $0 && !$0.isDeleted })
            #expect(doomed.allSatisfy { ($0.value(forKey: "name") as? String)?.hasPrefix("p0-") == true })
            #expect(context.registeredObject(for: inserted[0]) == nil)
            #expect(kept.allSatisfy { $0.value(forKey: "path") == nil })

            let recorder = NotificationRecorder([.NSManagedObjectContextObjectsDidChange], object: context)
            NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [
                NSDeletedObjectsKey: deleted, NSInsertedObjectsKey: inserted.map { $0.uriRepresentation() },
                NSUpdatedObjectsKey: updated,
            ], into: [context])

            #expect(doomed.allSatisfy { context.registeredObject(for: $0.objectID) == nil })
            let changed = try #require(recorder.notes.last?.userInfo)
            #expect((changed[NSDeletedObjectsKey] as? Set<NSManagedObject>)?.count == 10)
            let new = try #require(context.registeredObject(for: inserted[0]))
            #expect(new.value(forKey: "path") as? String == "/new")
            #expect(kept.allSatisfy { $0.value(forKey: "path") as? String == "/updated" })
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Photo")) == 21)
        }
    }
}
