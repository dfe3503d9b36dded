import Foundation
import Testing
@testable import OpenCoreDataCore

/// An object keeps its change bookkeeping (`ObjectChangeState`) only once it
/// takes part in a change: reading objects, their relationships and their
/// change state makes none (the memory of every fetched object and fault
/// depends on it), and the bookkeeping works as before once made.
@Suite struct ObjectChangeStateTests {
    @Test(arguments: TestStack.StoreKind.allCases)
    func objectsOnlyReadMakeNoChangeState(_ kind: TestStack.StoreKind) throws {
        let context = try TestStack.savedAlbum(photos: ["p1", "p2"], kind)

        let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
        request.returnsObjectsAsFaults = false
        let photos = try context.fetch(request)
        let faults = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album"))
        #expect(photos.count == 2 && faults.count == 1 && faults[0].isFault)
        for photo in photos {
            #expect(photo.value(forKey: "name") is String)
            #expect((photo.value(forKey: "album") as? NSManagedObject)?.value(forKey: "name") as? String == "A")
            #expect(!photo.hasChanges && photo.changedValues().isEmpty && photo.changedValuesForCurrentEvent().isEmpty)
        }
        #expect((faults[0].value(forKey: "photos") as? NSSet)?.count == 2)
        context.processPendingChanges()
        #expect(!(photos + faults).contains { $0.holdsChangeState })

        photos[0].setValue("renamed", forKey: "name")
        #expect(photos[0].holdsChangeState && !photos[1].holdsChangeState)
        #expect(photos[0].changedValuesForCurrentEvent()["name"] as? String == "renamed")
        #expect(context.updatedObjects == [photos[0]])
        context.processPendingChanges()
        #expect(photos[0].changedValuesForCurrentEvent().isEmpty && photos[0].changedValues().count == 1)
        try context.save()
        #expect(!photos[0].hasChanges && context.updatedObjects.isEmpty)
        let inserted = TestStack.insert("Photo", into: context, ["name": "new"])
        #expect(inserted.holdsChangeState && inserted.objectID.isTemporaryID)
        #expect(context.insertedObjects == [inserted] && inserted.objectID === inserted.objectID)
    }
}
