import Foundation
import GRDB
import Testing
@testable import OpenCoreDataCore
import TestScratch

/// Issue 19, S6: entity numbers read from a damaged file name objects of
/// entities the read did not ask for. The `store` fuzz target stopped on a
/// store whose `Z_ENT` index disagreed with its table after one flipped bit:
/// a fetch of a sub-entity returned an object of its parent entity, and
/// reading the sub-entity's own property from it stopped the program
/// (`valueForUndefinedKey:`). Fetches, to-one and to-many reads now keep
/// only rows of the entities they read.
@Suite struct DamagedEntityNumberTests {
    static func open(_ url: URL, _ model: NSManagedObjectModel) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let options = [NSReadOnlyPersistentStoreOption: true, NSIgnorePersistentStoreVersioningOption: true]
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: options)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// The fuzzer's input (Tests/Fixtures/DamagedStores): a store of the fuzz
    /// model (Person #1 ⊃ Employee #2, Pet, Tag, Team) whose ZPERSON page
    /// holds a cell running off its end, so that a query selecting by the
    /// `Z_ENT` index gets row 38 with the number of the other entity. Each
    /// entity's own fetch gives objects of that entity only, and every
    /// property of each reads (or the fetch throws: the file is malformed).
    @Test func aRowReadWithAnotherEntityNumberIsNotFetched() throws {
        var fixture = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { fixture.deleteLastPathComponent() }
        fixture.appendPathComponent("Fixtures/DamagedStores/S6-entity-index-and-table-disagree.store")
        let url = ScratchDirectory.url("S6-\(UUID().uuidString).sqlite")
        try FileManager.default.copyItem(at: fixture, to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let model = try SQLiteModelReconstruction(store: url).model
        let context = try Self.open(url, model)
        var fetched = 0
        try context.performAndWait { () throws in
            for entity in model.entities {
                let request = NSFetchRequest<NSManagedObject>(entityName: entity.name!)
                request.includesSubentities = false
                guard let objects = try? context.fetch(request) else { continue }
                for object in objects {
                    fetched += 1
                    #expect(object.entity === entity, "\(entity.name!) fetch gave \(object.objectID)")
                    guard object.entity === entity else { continue }
                    for key in entity.propertiesByName.keys { _ = object.value(forKey: key) }
                }
            }
        }
        #expect(fetched > 40)
    }

    /// Note.owner → Thing ⊃ Gadget keeps the destination's entity in a
    /// column; a number there naming Box (outside Thing's hierarchy) gives
    /// the declared destination, never a Box.
    @Test func anEntityColumnOutsideTheDestinationsNamesTheDeclaredOne() throws {
        let model = SQLiteStoreTests.model()
        let note = NSEntityDescription(name: "Note")
        let thing = try #require(model.entitiesByName["Thing"])
        note.properties = [TestStack.attribute("text", .stringAttributeType),
                           TestStack.relationship("owner", to: thing)]
        model.entities = model.entities + [note]
        let context = try TestStack.context(model, .sqlite)
        try context.performAndWait { () throws in
            let gadget = TestStack.insert("Gadget", into: context, ["name": "g"])
            TestStack.insert("Note", into: context, ["text": "n"]).setValue(gadget, forKey: "owner")
            try context.save()
        }
        let url = SQLiteStoreTests.url(of: context)
        context.persistentStoreCoordinator = nil
        try DatabaseQueue(path: url.path).write { db in
            let column = try #require(try Row.fetchAll(db, sql: "PRAGMA table_info(ZNOTE)").map { $0["name"] as String }
                .first { $0.hasSuffix("_OWNER") && $0 != "ZOWNER" })
            let box = try #require(try Int.fetchOne(db, sql: "SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Box'"))
            try db.execute(sql: "UPDATE ZNOTE SET \(column) = ?", arguments: [box])
        }
        let reopened = try Self.open(url, model)
        try reopened.performAndWait { () throws in
            let notes = try reopened.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note"))
            let owner = try #require(notes.first?.value(forKey: "owner") as? NSManagedObject)
            #expect(owner.entity.name == "Thing")
        }
    }

    /// Box.things is read from ZTHING's rows; a row whose Z_ENT names Box is
    /// no thing of the box.
    @Test func aToManyRowOfAnotherEntityIsNoDestination() throws {
        let url = try StoreBookkeepingTests.store()
        try DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: "UPDATE ZTHING SET Z_ENT = (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Box') "
                           + "WHERE Z_ENT = (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Gadget')")
        }
        let context = try Self.open(url, SQLiteStoreTests.model())
        try context.performAndWait { () throws in
            let box = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Box")).first)
            let things = try #require(box.value(forKey: "things") as? NSOrderedSet)
            #expect(things.count == 1)
            #expect(things.array.allSatisfy { ($0 as? NSManagedObject)?.entity.name == "Thing" })
        }
    }
}
