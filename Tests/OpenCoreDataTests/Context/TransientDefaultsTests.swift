import Foundation
import Testing
@testable import OpenCoreDataCore

/// A transient attribute is never saved: an object loaded from its record
/// (a fetch, a fired fault, a refresh) holds the attribute's default value,
/// and that value is where the record leaves off, not a change
/// (`NSManagedObjectContext.apply(_:to:)`).
@Suite struct TransientDefaultsTests {
    private static func model() -> NSManagedObjectModel {
        let note = NSEntityDescription(name: "Note")
        let draft = TestStack.attribute("draft", .stringAttributeType, transient: true)
        draft.defaultValue = "untitled"
        note.properties = [TestStack.attribute("text", .stringAttributeType), draft]
        let model = NSManagedObjectModel()
        model.entities = [note]
        return model
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func loadedObjectsHoldTheDefaultUnchanged(_ kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(Self.model(), kind)
        try context.performAndWait {
            let note = TestStack.insert("Note", into: context, ["text": "hello"])
            note.setValue("edited", forKey: "draft")
            try context.save()
            context.reset()

            let request = NSFetchRequest<NSManagedObject>(entityName: "Note")
            request.returnsObjectsAsFaults = false
            let fetched = try #require(try context.fetch(request).first)
            #expect(fetched.value(forKey: "draft") as? String == "untitled")
            #expect(fetched.value(forKey: "text") as? String == "hello")
            #expect(!fetched.hasChanges && fetched.changedValues().isEmpty && !context.hasChanges)

            fetched.setValue("again", forKey: "draft")
            context.refresh(fetched, mergeChanges: false)
            #expect(fetched.isFault)
            #expect(fetched.value(forKey: "draft") as? String == "untitled")
            #expect(!fetched.hasChanges && fetched.changedValues().isEmpty)
        }
    }
}
