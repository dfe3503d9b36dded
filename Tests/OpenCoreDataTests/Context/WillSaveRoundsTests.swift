import Foundation
import Testing
@testable import OpenCoreDataCore

/// A photo whose `willSave()` gives a new album of its own to a photo without one, and deletes the
/// photo named "doomed": the objects it inserts or deletes join the save, and every object the save
/// handles gets `willSave()` exactly once (Core Data calls it for each changed object before the save,
/// again for objects its calls changed; reference §3.5).
final class WillSaveRoundsPhoto: NSManagedObject {
    nonisolated(unsafe) static var calls: [String] = []
    nonisolated(unsafe) static var doomed: NSManagedObject?

    override func willSave() {
        super.willSave()
        let name = value(forKey: "name") as? String ?? ""
        Self.calls.append(name)
        guard let context = managedObjectContext, !isDeleted else { return }
        if value(forKey: "album") == nil, name != "doomed" {
            let album = NSEntityDescription.insertNewObject(forEntityName: "Album", into: context)
            album.setValue("album of \(name)", forKey: "name")
            setValue(album, forKey: "album")
        }
        if let doomed = Self.doomed, !doomed.isDeleted { context.delete(doomed) }
    }
}

@Suite(.serialized) struct WillSaveRoundsTests {
    @Test(arguments: TestStack.StoreKind.allCases)
    func objectsAWillSaveInsertsOrDeletesJoinTheSaveAndEachGetsOneCall(kind: TestStack.StoreKind) throws {
        let model = TestStack.albumsModel(photoClass: "OpenCoreDataTests.WillSaveRoundsPhoto")
        ManagedObjectClasses.register(WillSaveRoundsPhoto.self)
        let context = try TestStack.context(model, kind)
        try context.performAndWait { () throws in
            WillSaveRoundsPhoto.calls = []
            WillSaveRoundsPhoto.doomed = nil
            let lonely = TestStack.insert("Photo", into: context, ["name": "lonely"])
            let doomed = TestStack.insert("Photo", into: context, ["name": "doomed"])
            try context.save()
            #expect(WillSaveRoundsPhoto.calls.sorted() == ["doomed", "lonely"])
            #expect((lonely.value(forKey: "album") as? NSManagedObject)?.value(forKey: "name") as? String
                == "album of lonely")
            #expect(!context.hasChanges)

            // A change whose willSave deletes another, unchanged object: the deletion is saved too.
            WillSaveRoundsPhoto.calls = []
            WillSaveRoundsPhoto.doomed = doomed
            lonely.setValue("renamed", forKey: "name")
            try context.save()
            #expect(WillSaveRoundsPhoto.calls == ["renamed", "doomed"])
            #expect(doomed.managedObjectContext == nil)
            #expect(!context.hasChanges)
        }
        let reader = try TestStack.reader(of: context)
        try reader.performAndWait { () throws in
            let photos = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Photo"))
            #expect(TestStack.names(photos) == ["renamed"])
            let albums = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album"))
            #expect(TestStack.names(albums) == ["album of lonely"])
        }
        WillSaveRoundsPhoto.doomed = nil
    }
}
