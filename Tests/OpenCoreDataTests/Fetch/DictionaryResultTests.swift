import Testing
@testable import OpenCoreDataCore

/// Dictionary results on each store: properties, key paths, relationships as
/// IDs, aggregates with and without grouping, HAVING, DISTINCT, the window,
/// and saved data only.
@Suite struct DictionaryResultTests {
    /// Photos in albums: "Trip" (ratings 5, 3, 4) and "Home" (ratings 1, 1).
    static func stack(_ kind: TestStack.StoreKind) throws -> (NSManagedObjectContext, NSManagedObject) {
        let context = try TestStack.context(TestStack.albumsModel(), kind)
        let trip = TestStack.insert("Album", into: context, ["name": "Trip"])
        let home = TestStack.insert("Album", into: context, ["name": "Home"])
        for (name, index, album) in [("a", 5, trip), ("b", 3, trip), ("c", 4, trip), ("d", 1, home), ("e", 1, home)] {
            _ = TestStack.insert("Photo", into: context, ["name": name, "index": index, "album": album])
        }
        try context.save()
        return (context, trip)
    }

    static func expression(_ name: String, _ function: String, _ keyPath: String, _ type: NSAttributeType) -> NSExpressionDescription {
        let description = NSExpressionDescription()
        description.name = name
        description.expression = NSExpression(forFunction: function, arguments: [NSExpression(forKeyPath: keyPath)])
        description.expressionResultType = type
        return description
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func propertiesKeyPathsAndRelationships(kind: TestStack.StoreKind) throws {
        let (context, trip) = try Self.stack(kind)
        let request = NSFetchRequest<NSDictionary>(entityName: "Photo")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["name", "album.name", "album"]
        request.predicate = NSPredicate(format: "index >= 3")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: false)]
        let rows = try context.fetch(request)
        #expect(rows.map { $0["name"] as? String } == ["c", "b", "a"])
        #expect(rows.allSatisfy { $0["album.name"] as? String == "Trip" && $0["album"] as? NSManagedObjectID == trip.objectID })

        request.fetchOffset = 1
        request.fetchLimit = 1
        #expect(try context.fetch(request).map { $0["name"] as? String } == ["b"])
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func aggregatesGroupsHavingAndDistinct(kind: TestStack.StoreKind) throws {
        let (context, _) = try Self.stack(kind)
        let totals = NSFetchRequest<NSDictionary>(entityName: "Photo")
        totals.resultType = .dictionaryResultType
        totals.propertiesToFetch = [Self.expression("count", "count:", "name", .integer64AttributeType),
                                    Self.expression("sum", "sum:", "index", .integer64AttributeType),
                                    Self.expression("max", "max:", "index", .integer16AttributeType),
                                    Self.expression("average", "average:", "index", .doubleAttributeType)]
        let all = try #require(try context.fetch(totals).first)
        #expect(all["count"] as? Int == 5 && all["sum"] as? Int == 14 && all["max"] as? Int16 == 5)
        #expect(all["average"] as? Double == 2.8)

        totals.predicate = NSPredicate(format: "index > 100")
        #expect(try context.fetch(totals).map { $0["count"] as? Int } == [0])

        let perAlbum = NSFetchRequest<NSDictionary>(entityName: "Photo")
        perAlbum.resultType = .dictionaryResultType
        perAlbum.propertiesToFetch = ["album.name", Self.expression("sum", "sum:", "index", .integer64AttributeType)]
        perAlbum.propertiesToGroupBy = ["album.name"]
        perAlbum.sortDescriptors = [NSSortDescriptor(key: "album.name", ascending: true)]
        #expect(try context.fetch(perAlbum).map { [$0["album.name"] as! String: $0["sum"] as! Int] } == [["Home": 2], ["Trip": 12]])
        perAlbum.havingPredicate = NSPredicate(format: "sum > 5")
        #expect(try context.fetch(perAlbum).map { $0["album.name"] as? String } == ["Trip"])

        let ratings = NSFetchRequest<NSDictionary>(entityName: "Photo")
        ratings.resultType = .dictionaryResultType
        ratings.propertiesToFetch = ["index"]
        ratings.returnsDistinctResults = true
        ratings.sortDescriptors = [NSSortDescriptor(key: "index", ascending: true)]
        #expect(try context.fetch(ratings).map { $0["index"] as? Int16 } == [1, 3, 4, 5])

        // Saved data only: an unsaved photo is not counted.
        _ = TestStack.insert("Photo", into: context, ["name": "unsaved", "index": 9])
        totals.predicate = nil
        #expect(try context.fetch(totals).first?["count"] as? Int == 5)
    }
}
