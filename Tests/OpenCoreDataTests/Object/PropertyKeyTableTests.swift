import Foundation
import Testing
@testable import OpenCoreDataCore

/// Key-value access resolves a key to its slot through `PropertyKeyTable`
/// (no string hashing) when the key is stored as the model's name is, and
/// through the dictionary of names otherwise: both must give the same slot,
/// and a key the table does not know must still be found.
@Suite struct PropertyKeyTableTests {
    /// Keys written as literals resolve in the table, to the slot the
    /// dictionary gives: the fast path is taken for the keys code writes.
    @Test func literalKeysResolveWithoutTheDictionary() throws {
        let model = TestStack.albumsModel()
        _ = NSPersistentStoreCoordinator(managedObjectModel: model)
        let layout = try #require(model.entitiesByName["Photo"]).slotLayout
        for key in ["name", "path", "index", "album"] {
            #expect(layout.tableSlot(forKey: key) == layout.slotsByName[key], "\(key)")
            #expect(layout.tableSlot(forKey: key) != nil, "\(key)")
        }
        #expect(layout.tableSlot(forKey: "nonesuch") == nil)
        #expect(layout.slot(forKey: "nonesuch") == nil)
    }

    /// A long name made at run time is stored apart from the model's: the
    /// table misses it, and the slot still comes from the dictionary.
    @Test func keysStoredOtherwiseFallBackToTheDictionary() {
        let long = "aPropertyNameLongerThanFifteenBytes"
        let layout = PropertySlotLayout([TestStack.attribute("id", .integer64AttributeType),
                                         TestStack.attribute(long, .stringAttributeType)])
        let built = String(decoding: Array(long.utf8), as: UTF8.self)
        #expect(built == long)
        #expect(layout.tableSlot(forKey: built) == nil)
        #expect(layout.slot(forKey: built) == 1)
        #expect(layout.slot(forKey: long) == 1)
        #expect(layout.slot(forKey: String(decoding: Array("id".utf8), as: UTF8.self)) == 0)
    }

    /// Many names, so that probes collide: every one resolves to its own slot.
    @Test func everyNameOfALargeEntityResolves() {
        let names = (0..<300).map { "p\($0)" }
        let layout = PropertySlotLayout(names.map { TestStack.attribute($0, .integer32AttributeType) })
        for (slot, name) in names.enumerated() {
            #expect(layout.tableSlot(forKey: name) == slot, "\(name)")
            #expect(layout.slot(forKey: String(decoding: Array(name.utf8), as: UTF8.self)) == slot, "\(name)")
        }
        #expect(layout.slot(forKey: "p300") == nil)
    }

    /// A name given twice resolves as `slotsByName` resolves it (the later).
    @Test func aRepeatedNameResolvesAsTheDictionaryDoes() {
        let table = PropertyKeyTable(["a", "b", "a"], slotsByName: ["a": 2, "b": 1])
        #expect(table.slot(forKey: "a") == 2)
        #expect(table.slot(forKey: "b") == 1)
        #expect(table.slot(forKey: "c") == nil)
    }

    /// A model finds its entities by name as `entitiesByName` does, before and
    /// after it is frozen, whether the name is a literal, built at run time,
    /// longer than a small string or unknown; two entities of one name
    /// resolve to the first, as the dictionary keeps it.
    @Test func entitiesResolveByNameAsTheDictionaryHasThem() {
        let long = "AnEntityNameLongerThanFifteenBytes"
        let model = NSManagedObjectModel()
        model.entities = [NSEntityDescription(name: "Album"), NSEntityDescription(name: long),
                          NSEntityDescription(name: "Album")]
        let names = ["Album", long, String(decoding: Array(long.utf8), as: UTF8.self), "Photo"]
        for frozen in [false, true] {
            if frozen { _ = NSPersistentStoreCoordinator(managedObjectModel: model) }
            for name in names {
                #expect(model.entity(named: name) === model.entitiesByName[name], "\(name), frozen: \(frozen)")
            }
            #expect(model.entity(named: "Album") === model.entities[0])
            #expect(model.entity(named: "Photo") == nil)
        }
    }

    /// `value(forKey:)` reads the same value whichever way the key resolves.
    @Test func valueForKeyAgreesForKeysBuiltAtRunTime() throws {
        let context = try TestStack.context(TestStack.albumsModel())
        context.performAndWait {
            let photo = TestStack.insert("Photo", into: context, ["name": "Dunes", "index": 3])
            #expect(photo.value(forKey: "name") as? String == "Dunes")
            #expect(photo.value(forKey: String(decoding: Array("name".utf8), as: UTF8.self)) as? String == "Dunes")
            #expect(photo.value(forKey: String(decoding: Array("index".utf8), as: UTF8.self)) as? Int16 == 3)
        }
    }
}
