import Foundation
import Testing
@testable import OpenCoreDataCore

/// A fetch of faults (`includesPropertyValues = false`) makes each fault
/// from its record's key, without an `NSManagedObjectID`: the ID is made when
/// first asked for (issue 13 bounds a fault at 150 bytes; the ID's block is
/// 48). What that must keep: the ID asked for later is the store's ID of the
/// record, the context finds the same object by record and by ID before and
/// after the ID is made, and the fault fires as any other.
@Suite struct LazyFaultIDTests {
    private static func faults(in context: NSManagedObjectContext) throws -> [NSManagedObject] {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
        request.includesPropertyValues = false
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        return try context.fetch(request)
    }

    @Test func aFetchedFaultMakesItsIDOnlyWhenAskedFor() throws {
        let context = try TestStack.albumsWithPhotos()
        try context.performAndWait {
            let photos = try Self.faults(in: context)
            #expect(photos.count == 30 && photos.allSatisfy(\.isFault))
            #expect(photos.allSatisfy { !$0.holdsObjectID }, "no fault made its ID")
            let store = try #require(context.persistentStoreCoordinator?.persistentStores.first)
            let id = photos[0].objectID
            #expect(photos[0].holdsObjectID && !photos[1].holdsObjectID)
            #expect(!id.isTemporaryID && id.persistentStore === store && id.entity.name == "Photo")
            #expect(id == photos[0].objectID && id.uriRepresentation().absoluteString.hasPrefix("x-coredata://"))
        }
    }

    /// Found by ID before its ID exists, and by record after it does: one object either way.
    @Test func theContextFindsOneObjectByRecordAndByID() throws {
        let context = try TestStack.albumsWithPhotos()
        try context.performAndWait {
            let photos = try Self.faults(in: context)
            let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            reader.persistentStoreCoordinator = context.persistentStoreCoordinator
            let ids = try reader.performAndWait { try Self.faults(in: reader).map(\.objectID) }
            for (photo, id) in zip(photos, ids) {
                #expect(!photo.holdsObjectID)
                #expect(context.object(with: id) === photo, "the ID finds the fault made from its record")
            }
            #expect(zip(try Self.faults(in: context), photos).allSatisfy { $0 === $1 }, "a refetch finds them again")
            _ = photos.map(\.objectID)
            #expect(zip(try Self.faults(in: context), photos).allSatisfy { $0 === $1 }, "and once their IDs exist")
            #expect(Set(photos.map(\.objectID)).count == 30)
        }
    }

    @Test func aFaultMadeFromItsRecordFiresAndSaves() throws {
        let context = try TestStack.albumsWithPhotos()
        try context.performAndWait {
            let photo = try #require(try Self.faults(in: context).first)
            #expect(photo.value(forKey: "name") as? String == "p0-0")
            #expect(!photo.isFault && photo.holdsObjectID, "firing asked for the ID")
            photo.setValue("renamed", forKey: "name")
            try context.save()
            context.reset()
            let again = try #require(try Self.faults(in: context).first {
                $0.value(forKey: "name") as? String == "renamed"
            })
            #expect(again.objectID == photo.objectID)
        }
    }
}
