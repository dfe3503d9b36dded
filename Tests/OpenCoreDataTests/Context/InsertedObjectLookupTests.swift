import Foundation
import Testing
@testable import OpenCoreDataCore

/// Inserted objects are registered objects: a context finds them by their
/// temporary IDs and lists them in `registeredObjects` ("registeredObjects:
/// The set of objects registered with the context", NSManagedObjectContext.h;
/// `object(with:)` and `registeredObject(for:)` return "the object for the
/// specified ID", temporary IDs included: Core Data Programming Guide,
/// "Managed Object IDs and URIs"). The registry enters an inserted object
/// only once something looks one up by a temporary ID or lists the registered
/// objects (`indexInsertedObjects()`); these tests ask in every order around
/// that moment, around saves into the store and into a parent, and after
/// deletes, rollbacks and resets.
@Suite struct InsertedObjectLookupTests {
    private static func context() throws -> NSManagedObjectContext {
        try TestStack.context(TestStack.albumsModel(), .sqlite)
    }

    @Test func insertedObjectsAreFoundByTheirTemporaryIDs() throws {
        let context = try Self.context()
        try context.performAndWait { () throws in
            let first = TestStack.insert("Photo", into: context, ["name": "first"])
            let firstID = first.objectID
            #expect(firstID.isTemporaryID)
            // Asked for after the object's ID was made, before any lookup.
            #expect(context.registeredObject(for: firstID) === first)
            // Inserted after the first lookup: registered at once.
            let second = TestStack.insert("Photo", into: context, ["name": "second"])
            #expect(context.object(with: second.objectID) === second)
            #expect(try context.existingObject(with: second.objectID) === second)
            #expect(context.registeredObjects == [first, second])
            try context.save()
            // After the save the objects are found by their permanent IDs, not by the temporary ones.
            #expect(!first.objectID.isTemporaryID && first.objectID != firstID)
            #expect(context.registeredObject(for: first.objectID) === first)
            #expect(context.registeredObject(for: firstID) == nil)
            // The next cycle starts without the inserted objects in the registry, and finds them all the same.
            let third = TestStack.insert("Photo", into: context, ["name": "third"])
            let fourth = TestStack.insert("Photo", into: context, ["name": "fourth"])
            #expect(try context.existingObject(with: fourth.objectID) === fourth)
            #expect(context.registeredObject(for: third.objectID) === third)
        }
    }

    @Test func registeredObjectsListInsertedObjectsNobodyLookedUp() throws {
        let context = try Self.context()
        try context.performAndWait { () throws in
            let saved = TestStack.insert("Album", into: context, ["name": "saved"])
            try context.save()
            let new = (0..<3).map { TestStack.insert("Photo", into: context, ["name": "p\($0)", "album": saved]) }
            #expect(context.registeredObjects == Set(new + [saved]))
            // The IDs asked for after the list was made find the same objects.
            for photo in new { #expect(context.registeredObject(for: photo.objectID) === photo) }
        }
    }

    @Test func aDeletedInsertedObjectIsFoundNoMore() throws {
        let context = try Self.context()
        try context.performAndWait { () throws in
            let kept = TestStack.insert("Photo", into: context, ["name": "kept"])
            let dropped = TestStack.insert("Photo", into: context, ["name": "dropped"])
            let droppedID = dropped.objectID
            context.delete(dropped)
            context.processPendingChanges()
            #expect(context.registeredObject(for: droppedID) == nil)
            #expect(context.registeredObjects == [kept])
            try context.save()
            let reader = TestStack.sibling(of: context)
            try reader.performAndWait { () throws in
                #expect(try reader.count(for: NSFetchRequest<NSManagedObject>(entityName: "Photo")) == 1)
            }
        }
    }

    @Test func rollbackAndResetForgetInsertedObjects() throws {
        let context = try Self.context()
        try context.performAndWait { () throws in
            let rolledBack = TestStack.insert("Photo", into: context, ["name": "rolled back"])
            let rolledBackID = rolledBack.objectID
            context.rollback()
            #expect(rolledBack.managedObjectContext == nil)
            #expect(context.registeredObject(for: rolledBackID) == nil)
            #expect(context.registeredObjects.isEmpty)
            let reset = TestStack.insert("Photo", into: context, ["name": "reset"])
            context.reset()
            #expect(reset.managedObjectContext == nil)
            #expect(context.registeredObjects.isEmpty)
            #expect(!context.hasChanges)
        }
    }

    @Test func objectsSavedIntoTheParentKeepTheirTemporaryIDs() throws {
        let root = try Self.context()
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = root
        let (photoID, albumID) = try child.performAndWait { () throws in
            let album = TestStack.insert("Album", into: child, ["name": "A"])
            let photo = TestStack.insert("Photo", into: child, ["name": "p", "album": album])
            try child.save()
            // Still the child's objects, known by the same temporary IDs, now unchanged.
            #expect(photo.objectID.isTemporaryID && !child.hasChanges)
            #expect(child.registeredObject(for: photo.objectID) === photo)
            #expect(child.object(with: album.objectID) === album)
            #expect(child.registeredObjects == [album, photo])
            return (photo.objectID, album.objectID)
        }
        let permanent = try root.performAndWait { () throws in
            let photo = try #require(root.registeredObject(for: photoID))
            #expect(photo.isInserted && (photo.value(forKey: "album") as? NSManagedObject)?.objectID == albumID)
            try root.save()
            #expect(!photo.objectID.isTemporaryID && root.registeredObject(for: photoID) == nil)
            return photo.objectID
        }
        try child.performAndWait { () throws in
            // The child adopts the permanent IDs its parent's save gave the objects.
            let photo = try #require(child.registeredObject(for: photoID))
            #expect(child.object(with: permanent) === photo && photo.objectID == permanent)
            #expect(photo.value(forKey: "name") as? String == "p")
        }
    }

    @Test func retainsRegisteredObjectsKeepsInsertedObjectsAfterTheSave() throws {
        let context = try Self.context()
        try context.performAndWait { () throws in
            context.retainsRegisteredObjects = true
            var photo: NSManagedObject? = TestStack.insert("Photo", into: context, ["name": "kept"])
            try context.save()
            let id = try #require(photo?.objectID)
            photo = nil
            #expect(context.registeredObject(for: id)?.value(forKey: "name") as? String == "kept")
        }
    }

    /// A random mix of inserts, ID requests, lookups, deletes and saves, checked
    /// against the objects the context must hold after each step.
    @Test(arguments: [1, 2, 3, 4])
    func randomMixesFindEveryInsertedObject(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let context = try Self.context()
        try context.performAndWait { () throws in
            var live: [NSManagedObject] = [], gone: [NSManagedObjectID] = []
            for step in 0..<300 {
                switch random.next() % 6 {
                case 0, 1: live.append(TestStack.insert("Photo", into: context, ["name": "p\(step)"]))
                case 2 where !live.isEmpty:
                    let object = live[Int(random.next() % UInt64(live.count))]
                    #expect(context.registeredObject(for: object.objectID) === object)
                case 3 where !live.isEmpty:
                    let object = live.remove(at: Int(random.next() % UInt64(live.count)))
                    let id = object.objectID
                    context.delete(object)
                    context.processPendingChanges()
                    if id.isTemporaryID { gone.append(id) }
                case 4: try context.save()
                case 5 where !gone.isEmpty:
                    #expect(context.registeredObject(for: gone[Int(random.next() % UInt64(gone.count))]) == nil)
                default: continue
                }
            }
            #expect(context.insertedObjects.isSubset(of: context.registeredObjects))
            for object in live { #expect(context.object(with: object.objectID) === object) }
            try context.save()
            #expect(context.registeredObjects == Set(live))
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Photo")) == live.count)
        }
    }
}
