import Testing
@testable import OpenCoreDataCore

/// Fetch requests with predicates and sort descriptors against each store (NSFetchRequest.h; the seeds' "sorted by name" walk-through).
@Suite struct PredicateFetchTests {
    /// Three albums with photos, saved.
    static func albums(_ kind: TestStack.StoreKind) throws -> NSManagedObjectContext {
        let context = try TestStack.context(TestStack.albumsModel(), kind)
        try context.performAndWait { () throws in
            for (albumName, photos) in [("Summer", ["beach", "Sunset", "ants"]), ("autumn", ["leaves"]), ("Winter", [])] {
                let album = TestStack.insert("Album", into: context, ["name": albumName, "sheets": photos.count])
                for (index, name) in photos.enumerated() {
                    let photo = TestStack.insert("Photo", into: context, ["name": name, "index": index])
                    photo.setValue(album, forKey: "album")
                }
            }
            try context.save()
        }
        return context
    }

    static func names(_ objects: [NSManagedObject]) -> [String] { objects.map { $0.value(forKey: "name") as? String ?? "?" } }

    @Test(arguments: TestStack.StoreKind.allCases)
    func sortedByNameAndFiltered(kind: TestStack.StoreKind) throws {
        let context = try Self.albums(kind)
        try context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            // compare: is a literal comparison: uppercase letters sort first (NSString.h).
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            #expect(Self.names(try context.fetch(request)) == ["Sunset", "ants", "beach", "leaves"])
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true, selector: Selector("caseInsensitiveCompare:"))]
            #expect(Self.names(try context.fetch(request)) == ["ants", "beach", "leaves", "Sunset"])
            request.predicate = NSPredicate(format: "album.name == %@", "Summer")
            #expect(Self.names(try context.fetch(request)) == ["ants", "beach", "Sunset"])
            request.predicate = NSPredicate(format: "name BEGINSWITH[c] %@ OR index > %d", "s", 1)
            #expect(Self.names(try context.fetch(request)) == ["ants", "Sunset"])
            #expect(try context.count(for: request) == 2)
        }
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func sortAcrossARelationshipThenWindow(kind: TestStack.StoreKind) throws {
        let context = try Self.albums(kind)
        try context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            request.sortDescriptors = [NSSortDescriptor(key: "album.name", ascending: false),
                                       NSSortDescriptor(key: "name", ascending: true)]
            #expect(Self.names(try context.fetch(request)) == ["leaves", "Sunset", "ants", "beach"])
            request.fetchOffset = 1
            request.fetchLimit = 2
            #expect(Self.names(try context.fetch(request)) == ["Sunset", "ants"])
        }
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func toManyOperatorsInPredicates(kind: TestStack.StoreKind) throws {
        let context = try Self.albums(kind)
        try context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Album")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            request.predicate = NSPredicate(format: "photos.@count > 0")
            #expect(Self.names(try context.fetch(request)) == ["Summer", "autumn"])
            request.predicate = NSPredicate(format: "ANY photos.name == 'beach'")
            #expect(Self.names(try context.fetch(request)) == ["Summer"])
            request.predicate = NSPredicate(format: "SUBQUERY(photos, $p, $p.index >= 1).@count == 0")
            #expect(Self.names(try context.fetch(request)) == ["Winter", "autumn"])
            request.predicate = NSPredicate(format: "ALL photos.name != 'x'")
            #expect(try context.count(for: request) == 3)
        }
    }

    /// includesPendingChanges (default true): unsaved inserts that match
    /// appear, unsaved changes count, deleted objects disappear.
    @Test(arguments: TestStack.StoreKind.allCases)
    func pendingChangesTakePartInPredicatesAndSorting(kind: TestStack.StoreKind) throws {
        let context = try Self.albums(kind)
        try context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            request.predicate = NSPredicate(format: "name CONTAINS[c] 'a'")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            _ = TestStack.insert("Photo", into: context, ["name": "aardvark"])
            let leaves = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Photo")).first { $0.value(forKey: "name") as? String == "leaves" }!
            leaves.setValue("bark", forKey: "name")
            let ants = try context.fetch(request).first { $0.value(forKey: "name") as? String == "ants" }!
            context.delete(ants)
            #expect(Self.names(try context.fetch(request)) == ["aardvark", "bark", "beach"])
            // Without pending changes the store decides, on saved values: "leaves"
            // (now "bark" in memory) matches, "ants" is still saved, "aardvark" is not.
            request.includesPendingChanges = false
            #expect(Self.names(try context.fetch(request)) == ["ants", "beach", "bark"])
        }
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func unknownKeyPathIsAnErrorNotACrash(kind: TestStack.StoreKind) throws {
        let context = try Self.albums(kind)
        context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            request.predicate = NSPredicate(format: "album.title == 'x'")
            do {
                _ = try context.fetch(request)
                Issue.record("fetched with an unknown key path")
            } catch let error as NSError {
                #expect(error.domain == NSCocoaErrorDomain && error.code == NSCoreDataError)
                #expect(error.localizedDescription.contains("album.title") && error.localizedDescription.contains("Album"))
            }
            request.predicate = nil
            request.sortDescriptors = [NSSortDescriptor(key: "size", ascending: true)]
            #expect(throws: NSError.self) { try context.fetch(request) }
        }
    }
}
