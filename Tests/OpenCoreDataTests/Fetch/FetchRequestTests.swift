import Testing
@testable import OpenCoreDataCore

/// NSFetchRequest settings the context and in-memory store honour (reference §4.1).
@Suite struct FetchRequestTests {
    /// Shape ← Circle (sub-entity), 5 saved circles and 1 saved plain shape.
    static func context(_ kind: TestStack.StoreKind = .inMemory) throws -> NSManagedObjectContext {
        let shape = NSEntityDescription(name: "Shape")
        let circle = NSEntityDescription(name: "Circle")
        shape.properties = [TestStack.attribute("name", .stringAttributeType), TestStack.attribute("size", .integer64AttributeType)]
        circle.properties = [TestStack.attribute("radius", .doubleAttributeType)]
        shape.subentities = [circle]
        let model = NSManagedObjectModel()
        model.entities = [shape, circle]
        let context = try TestStack.context(model, kind)
        for index in 1...5 { _ = TestStack.insert("Circle", into: context, ["name": "c\(index)", "size": index, "radius": Double(index)]) }
        _ = TestStack.insert("Shape", into: context, ["name": "s", "size": 9])
        try context.save()
        return context
    }

    @Test func defaults() {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Shape")
        #expect(request.fetchLimit == 0 && request.fetchOffset == 0 && request.fetchBatchSize == 0)
        #expect(request.includesSubentities && request.includesPendingChanges && request.returnsObjectsAsFaults)
        #expect(request.resultType == .managedObjectResultType && request.propertiesToFetch == nil)
        #expect(NSFetchRequestResultType.countResultType.rawValue == 4 && NSFetchRequestResultType.dictionaryResultType.rawValue == 2)
    }

    @Test func subentitiesLimitAndOffset() throws {
        let context = try Self.context()
        let all = NSFetchRequest<NSManagedObject>(entityName: "Shape")
        #expect(try context.count(for: all) == 6)
        all.includesSubentities = false
        #expect(try TestStack.names(context.fetch(all)) == ["s"])
        let circles = NSFetchRequest<NSManagedObject>(entityName: "Circle")
        circles.fetchOffset = 1
        circles.fetchLimit = 2
        let page = try context.fetch(circles)
        #expect(page.count == 2 && Set(TestStack.names(page)).isSubset(of: ["c1", "c2", "c3", "c4", "c5"]))
        circles.fetchOffset = 4
        #expect(try context.fetch(circles).count == 1)
        #expect(try context.count(for: circles) == 1)
    }

    /// Faults without their rows (`includesPropertyValues = false`, and a batched fetch, which
    /// selects keys first) of an entity with a sub-entity: each ID names the entity of its
    /// row's Z_ENT, and firing the fault reads that entity's values.
    @Test(arguments: TestStack.StoreKind.allCases)
    func faultsWithoutRowsKeepEachRowsEntity(_ kind: TestStack.StoreKind) throws {
        let context = try Self.context(kind)
        context.reset()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Shape")
        request.includesPropertyValues = false
        let faults = try context.fetch(request)
        #expect(faults.count == 6 && faults.allSatisfy(\.isFault))
        #expect(faults.filter { $0.entity.name == "Circle" }.count == 5)
        #expect(faults.filter { $0.objectID.entity.name == "Shape" }.count == 1)
        let radii = faults.filter { $0.entity.name == "Circle" }.compactMap { $0.value(forKey: "radius") as? Double }
        #expect(radii.sorted() == [1, 2, 3, 4, 5])
        #expect(Set(faults.map(\.objectID)).count == 6)
        context.reset()
        request.includesPropertyValues = true
        request.fetchBatchSize = 2
        let batched = try context.fetchBatched(request)
        let entities = batched.map { $0.entity.name ?? "" }.sorted()
        #expect(entities == Array(repeating: "Circle", count: 5) + ["Shape"])
        #expect(batched.map { $0.value(forKey: "size") as? Int64 ?? 0 }.sorted() == [1, 2, 3, 4, 5, 9])
    }

    @Test func pendingChanges() throws {
        let context = try Self.context()
        let circles = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Circle"))
        context.delete(circles[0])
        let fresh = TestStack.insert("Circle", into: context, ["name": "new"])
        let request = NSFetchRequest<NSManagedObject>(entityName: "Circle")
        // "inserted objects are returned even if they are not persisted yet" (reference §3.1).
        let merged = try context.fetch(request)
        #expect(merged.count == 5 && merged.contains(fresh) && !merged.contains(circles[0]))
        request.includesPendingChanges = false
        let stored = try context.fetch(request)
        #expect(stored.count == 5 && !stored.contains(fresh))
        request.includesPendingChanges = true
        request.fetchLimit = 5
        request.fetchOffset = 4
        #expect(try context.fetch(request).count == 1) // window applied after merging
    }

    @Test func resultTypes() throws {
        let context = try Self.context()
        let ids = NSFetchRequest<NSManagedObjectID>(entityName: "Circle")
        ids.resultType = .managedObjectIDResultType
        let fetchedIDs = try context.fetch(ids)
        #expect(fetchedIDs.count == 5 && fetchedIDs.allSatisfy { !$0.isTemporaryID })

        let count = NSFetchRequest<NSNumber>(entityName: "Shape")
        count.resultType = .countResultType
        #expect(try context.fetch(count) == [6])

        let dictionaries = NSFetchRequest<NSDictionary>(entityName: "Circle")
        dictionaries.resultType = .dictionaryResultType
        dictionaries.propertiesToFetch = ["name", "radius"]
        let rows = try context.fetch(dictionaries)
        #expect(rows.count == 5)
        let first = try #require(rows.first)
        #expect(Set(first.allKeys.map { "\($0)" }) == ["name", "radius"])

        let untyped = NSFetchRequest<NSFetchRequestResult>(entityName: "Circle")
        #expect(try context.fetch(untyped).allSatisfy { $0 is NSManagedObject })
    }
}
