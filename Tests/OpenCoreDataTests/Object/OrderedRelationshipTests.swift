import Testing
@testable import OpenCoreDataCore

/// Ordered to-many relationships are NSOrderedSets whose order is kept,
/// saved and tracked as a change (H-REL `ordered`; seed 004 "Arrangement").
@Suite struct OrderedRelationshipTests {
    static func context(_ kind: TestStack.StoreKind) throws -> NSManagedObjectContext {
        let list = NSEntityDescription(name: "List"), entry = NSEntityDescription(name: "Entry")
        let entries = TestStack.relationship("entries", to: entry, toMany: true, ordered: true)
        let listOf = TestStack.relationship("list", to: list)
        TestStack.pair(entries, listOf)
        list.properties = [TestStack.attribute("name", .stringAttributeType), entries]
        entry.properties = [TestStack.attribute("name", .stringAttributeType), listOf]
        let model = NSManagedObjectModel()
        model.entities = [list, entry]
        return try TestStack.context(model, kind)
    }

    static func order(_ list: NSManagedObject) -> [String] {
        (list.value(forKey: "entries") as! NSOrderedSet).array.map { ($0 as! NSManagedObject).value(forKey: "name") as! String }
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func orderIsKeptSavedAndTracked(kind: TestStack.StoreKind) throws {
        let context = try Self.context(kind)
        let list = TestStack.insert("List", into: context, ["name": "L"])
        let entries = ["a", "b", "c"].map { TestStack.insert("Entry", into: context, ["name": $0]) }
        let live = list.mutableOrderedSetValue(forKey: "entries")
        live.add(entries[0])
        live.add(entries[2])
        live.insert(entries[1], at: 1)
        #expect(Self.order(list) == ["a", "b", "c"])
        #expect(entries.allSatisfy { $0.value(forKey: "list") as? NSManagedObject === list })
        try context.save()

        list.setValue(NSOrderedSet(array: [entries[2], entries[0], entries[1]]), forKey: "entries")
        #expect(Self.order(list) == ["c", "a", "b"])
        #expect(list.changedValues().keys.sorted() == ["entries"]) // a reordering is a change
        try context.save()
        let reader = TestStack.sibling(of: context)
        let loaded = try #require(reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "List")).first)
        #expect(Self.order(loaded) == ["c", "a", "b"])

        live.removeObject(at: 0)
        #expect(Self.order(list) == ["a", "b"] && entries[2].value(forKey: "list") == nil)
        context.rollback()
        #expect(Self.order(list) == ["c", "a", "b"])
    }
}
