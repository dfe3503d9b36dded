import Foundation
import GRDB
import Testing
@testable import OpenCoreDataCore

/// NSBatchUpdateRequest (reference §4.4; Apple's "Batch Updates" guide):
/// records change in the store, objects in contexts keep their values until
/// merged, validation rules are not applied, relationships can't be set.
@Suite struct BatchUpdateRequestTests {
    /// Photos p0…p9 (index 0…9) in two albums, saved; a fresh context to run requests in.
    static func stack(_ kind: TestStack.StoreKind) throws -> NSManagedObjectContext {
        let writer = try TestStack.context(TestStack.albumsModel(), kind)
        try writer.performAndWait { () throws in
            let albums = [TestStack.insert("Album", into: writer, ["name": "a"]), TestStack.insert("Album", into: writer, ["name": "b"])]
            for index in 0..<10 {
                TestStack.insert("Photo", into: writer, ["name": "p\(index)", "index": index, "path": "/\(index)"])
                    .setValue(albums[index % 2], forKey: "album")
            }
            try writer.save()
            writer.reset()
        }
        return TestStack.sibling(of: writer)
    }

    static func values(_ key: String, in context: NSManagedObjectContext) throws -> [String: Any?] {
        let request = NSFetchRequest<NSDictionary>(entityName: "Photo")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["name", key]
        return Dictionary(uniqueKeysWithValues: try context.fetch(request).map { ($0["name"] as! String, $0[key]) })
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func constantsUpdateTheSelectedRecords(kind: TestStack.StoreKind) throws {
        let context = try Self.stack(kind)
        try context.performAndWait { () throws in
            let request = NSBatchUpdateRequest(entityName: "Photo")
            request.predicate = NSPredicate(format: "index >= 5 AND album.name == 'a'")
            request.propertiesToUpdate = ["path": "moved", "index": NSExpression(forConstantValue: 42)]
            request.resultType = .updatedObjectIDsResultType
            let result = try #require(try context.execute(request) as? NSBatchUpdateResult)
            let ids = try #require(result.result as? [NSManagedObjectID])
            #expect(ids.count == 2) // p6, p8
            let paths = try Self.values("path", in: context)
            #expect(paths["p6"] as? String == "moved" && paths["p8"] as? String == "moved")
            #expect(paths["p4"] as? String == "/4" && paths["p7"] as? String == "/7")
            #expect(try Self.values("index", in: context)["p8"] as? Int16 == 42)

            // A count through a join (SQLite: the keys' subquery, no IDs read), then over every record.
            request.resultType = .updatedObjectsCountResultType
            request.predicate = NSPredicate(format: "album.name == 'b'")
            request.propertiesToUpdate = ["path": "in b"]
            #expect((try context.execute(request) as? NSBatchUpdateResult)?.result as? Int == 5)
            let inB = try Self.values("path", in: context)
            #expect(inB["p1"] as? String == "in b" && inB["p9"] as? String == "in b" && inB["p6"] as? String == "moved")
            request.predicate = nil
            request.propertiesToUpdate = ["path": NSNull()]
            #expect((try context.execute(request) as? NSBatchUpdateResult)?.result as? Int == 10)
            #expect(try Self.values("path", in: context).values.allSatisfy { $0 == nil })
            request.resultType = .statusOnlyResultType
            #expect((try context.execute(request) as? NSBatchUpdateResult)?.result as? Bool == true)
        }
    }

    /// Expressions are evaluated on each record: key paths read it, functions compute.
    @Test(arguments: TestStack.StoreKind.allCases)
    func expressionsReadEachRecord(kind: TestStack.StoreKind) throws {
        let context = try Self.stack(kind)
        try context.performAndWait { () throws in
            let request = NSBatchUpdateRequest(entityName: "Photo")
            request.propertiesToUpdate = ["path": NSExpression(forKeyPath: "album.name"),
                                          "index": NSExpression(format: "index * 10 + 1")]
            _ = try context.execute(request)
            #expect(try Self.values("path", in: context)["p3"] as? String == "b")
            #expect(try Self.values("index", in: context)["p3"] as? Int16 == 31)
        }
    }

    /// Objects in a context keep their values; merging the IDs refreshes them
    /// (keeping local changes), and faults fired afterwards read the new record.
    @Test(arguments: TestStack.StoreKind.allCases)
    func contextsSeeTheUpdateWhenMerged(kind: TestStack.StoreKind) throws {
        let context = try Self.stack(kind)
        try context.performAndWait { () throws in
            let fetch = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            fetch.sortDescriptors = [NSSortDescriptor(key: "index", ascending: true)]
            let photos = try context.fetch(fetch)
            photos.forEach { _ = $0.value(forKey: "path") }
            photos[1].setValue("local", forKey: "name")
            let fault = context.object(with: photos[2].objectID)
            context.refresh(fault, mergeChanges: false)

            let request = NSBatchUpdateRequest(entityName: "Photo")
            request.propertiesToUpdate = ["path": "updated"]
            request.resultType = .updatedObjectIDsResultType
            let ids = try #require((try context.execute(request) as? NSBatchUpdateResult)?.result as? [NSManagedObjectID])
            #expect(photos[0].value(forKey: "path") as? String == "/0")
            #expect(fault.value(forKey: "path") as? String == "updated")

            NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSUpdatedObjectsKey: ids], into: [context])
            #expect(photos[0].value(forKey: "path") as? String == "updated")
            #expect(photos[1].value(forKey: "path") as? String == "updated")
            #expect(photos[1].value(forKey: "name") as? String == "local")
            #expect(photos[1].isUpdated)
        }
    }

    /// A fault fired after a batch update reads the new record whatever the
    /// request's result type, also when another context holds the old row
    /// (the coordinator's row cache would serve it). Only an IDs result lists
    /// the records; for a count or a status the rows of the entity go.
    @Test(arguments: TestStack.StoreKind.allCases, [NSBatchUpdateRequestResultType.statusOnlyResultType,
                                                    .updatedObjectsCountResultType, .updatedObjectIDsResultType])
    func faultsReadTheUpdatedRecordWhateverTheResultType(kind: TestStack.StoreKind,
                                                          resultType: NSBatchUpdateRequestResultType) throws {
        let context = try Self.stack(kind)
        let holder = TestStack.sibling(of: context)
        let held = try holder.performAndWait { () throws in
            let photos = try holder.fetch(NSFetchRequest<NSManagedObject>(entityName: "Photo"))
            #expect(photos.allSatisfy { $0.value(forKey: "path") as? String != "updated" })
            return photos
        }
        try context.performAndWait { () throws in
            let request = NSBatchUpdateRequest(entityName: "Photo")
            request.predicate = NSPredicate(format: "index < 4")
            request.propertiesToUpdate = ["path": "updated"]
            request.resultType = resultType
            let result = try #require(try context.execute(request) as? NSBatchUpdateResult)
            switch resultType {
            case .statusOnlyResultType: #expect(result.result as? Bool == true)
            case .updatedObjectsCountResultType: #expect(result.result as? Int == 4)
            case .updatedObjectIDsResultType: #expect((result.result as? [NSManagedObjectID])?.count == 4)
            }
            for photo in held {
                let fault = context.object(with: photo.objectID)
                let name = try #require(fault.value(forKey: "name") as? String)
                let isUpdated = fault.value(forKey: "path") as? String == "updated"
                #expect(isUpdated == (Int(name.dropFirst())! < 4), "\(name)")
            }
        }
        withExtendedLifetime(held) {}
    }

    /// The selection by entity: without sub-entities a batch update changes
    /// the entity's own records only, with them (the default) its
    /// sub-entities' too, with or without a predicate.
    @Test(arguments: TestStack.StoreKind.allCases)
    func subentitiesAreUpdatedWhenIncluded(kind: TestStack.StoreKind) throws {
        let thing = NSEntityDescription(name: "Thing"), gadget = NSEntityDescription(name: "Gadget")
        thing.subentities = [gadget]
        thing.properties = [TestStack.attribute("label", .stringAttributeType),
                            TestStack.attribute("rank", .integer32AttributeType)]
        let model = NSManagedObjectModel()
        model.entities = [thing, gadget]
        let context = try TestStack.context(model, kind)
        try context.performAndWait { () throws in
            for rank in 0..<3 {
                TestStack.insert("Thing", into: context, ["rank": rank])
                TestStack.insert("Gadget", into: context, ["rank": rank])
            }
            try context.save()
            func labels(_ entity: String) throws -> [String?] {
                let fetch = NSFetchRequest<NSDictionary>(entityName: entity)
                fetch.resultType = .dictionaryResultType
                fetch.includesSubentities = false
                fetch.propertiesToFetch = ["label", "rank"]
                fetch.sortDescriptors = [NSSortDescriptor(key: "rank", ascending: true)]
                return try context.fetch(fetch).map { $0["label"] as? String }
            }
            func update(_ label: String, subentities: Bool,
                        _ predicate: OpenCoreDataCore.NSPredicate? = nil) throws -> Int? {
                let request = NSBatchUpdateRequest(entityName: "Thing")
                request.includesSubentities = subentities
                request.predicate = predicate
                request.propertiesToUpdate = ["label": label]
                request.resultType = .updatedObjectsCountResultType
                return (try context.execute(request) as? NSBatchUpdateResult)?.result as? Int
            }
            #expect(try update("own", subentities: false) == 3)
            #expect(try labels("Thing") == ["own", "own", "own"] && labels("Gadget") == [nil, nil, nil])
            #expect(try update("all", subentities: true, NSPredicate(format: "rank >= 1")) == 4)
            #expect(try labels("Thing") == ["own", "all", "all"] && labels("Gadget") == [nil, "all", "all"])
            #expect(try update("none", subentities: false, NSPredicate(format: "rank > 5")) == 0)
        }
    }

    /// SQLite: the record's version (`Z_OPT`) goes up, whichever path ran
    /// (one UPDATE, or records read and saved for a predicate SQL can't express).
    @Test func sqliteRaisesVersions() throws {
        let context = try Self.stack(.sqlite)
        let url = try #require(context.persistentStoreCoordinator?.persistentStores.first?.url)
        try context.performAndWait { () throws in
            let request = NSBatchUpdateRequest(entityName: "Photo")
            request.propertiesToUpdate = ["path": "x"]
            request.predicate = NSPredicate(format: "index < 3")
            _ = try context.execute(request)
            request.predicate = NSPredicate(format: "FUNCTION(name, 'uppercaseString') == 'P1'")
            _ = try context.execute(request)
        }
        let versions = try DatabaseQueue(path: url.path).read { db in
            try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT ZNAME, Z_OPT FROM ZPHOTO").map { ($0[0] as String, $0[1] as Int) })
        }
        #expect(versions["p0"] == 2 && versions["p1"] == 3 && versions["p3"] == 1)
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func badRequestsThrowAndChangeNothing(kind: TestStack.StoreKind) throws {
        let context = try Self.stack(kind)
        try context.performAndWait { () throws in
            func code(_ configure: (NSBatchUpdateRequest) -> Void, entity: String = "Photo") -> Int? {
                let request = NSBatchUpdateRequest(entityName: entity)
                configure(request)
                do { _ = try context.execute(request); return nil } catch { return (error as NSError).code }
            }
            #expect(code { _ in } == NSPersistentStoreOperationError)
            #expect(code { $0.propertiesToUpdate = ["album": NSNull()] } == NSPersistentStoreOperationError)
            #expect(code { $0.propertiesToUpdate = ["nope": 1] } == NSPersistentStoreOperationError)
            #expect(code { $0.propertiesToUpdate = ["index": "ten"] } == NSManagedObjectValidationError)
            #expect(code { $0.propertiesToUpdate = ["path": "x", "index": NSExpression(forKeyPath: "name")] } == NSManagedObjectValidationError)
            #expect(code({ $0.propertiesToUpdate = ["path": "x"] }, entity: "Nope") == NSPersistentStoreOperationError)
            #expect(code { $0.propertiesToUpdate = ["path": "x"]; $0.predicate = NSPredicate(format: "nope == 1") } != nil)
            #expect(throws: NSError.self) { try context.execute(NSFetchRequest<NSManagedObject>(entityName: "Photo")) }
            #expect(try Self.values("path", in: context)["p0"] as? String == "/0")
        }
    }

    /// Validation rules are not applied (Apple: "model validation rules are not enforced").
    @Test func validationRulesAreNotApplied() throws {
        let thing = NSEntityDescription(name: "Thing")
        thing.properties = [TestStack.attribute("count", .integer32AttributeType, optional: false,
                                                rules: AttributeValidationRules(minValueString: "0", maxValueString: "10"))]
        let model = NSManagedObjectModel()
        model.entities = [thing]
        let context = try TestStack.context(model, .sqlite)
        try context.performAndWait { () throws in
            TestStack.insert("Thing", into: context, ["count": 5])
            try context.save()
            let request = NSBatchUpdateRequest(entity: thing)
            request.propertiesToUpdate = ["count": 99]
            _ = try context.execute(request)
            let fetch = NSFetchRequest<NSManagedObject>(entityName: "Thing")
            fetch.predicate = NSPredicate(format: "count == 99")
            #expect(try context.count(for: fetch) == 1)
        }
    }
}

/// `affectedStores` (NSPersistentStoreRequest) limits the stores a fetch or a
/// batch update works on.
@Suite struct AffectedStoresTests {
    @Test func requestsSearchOnlyTheirAffectedStores() throws {
        let context = try TestStack.context(TestStack.albumsModel(), .sqlite)
        let coordinator = try #require(context.persistentStoreCoordinator)
        let second = try coordinator.addPersistentStore(type: .sqlite, at: TestStack.temporaryStoreURL())
        let first = coordinator.persistentStores[0]
        try context.performAndWait { () throws in
            for index in 0..<3 { TestStack.insert("Photo", into: context, ["name": "p\(index)"]) }
            try context.save()
            let fetch = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            #expect(try context.count(for: fetch) == 3)
            fetch.affectedStores = [second]
            #expect(try context.fetch(fetch).isEmpty && context.count(for: fetch) == 0)
            fetch.affectedStores = [first]
            #expect(try context.fetch(fetch).count == 3)
            #expect((fetch.copy() as! NSFetchRequest<NSManagedObject>).affectedStores?.first === first)

            let update = NSBatchUpdateRequest(entityName: "Photo")
            update.propertiesToUpdate = ["path": "x"]
            update.resultType = .updatedObjectsCountResultType
            update.affectedStores = [second]
            #expect((try context.execute(update) as? NSBatchUpdateResult)?.result as? Int == 0)
            update.affectedStores = nil
            #expect((try context.execute(update) as? NSBatchUpdateResult)?.result as? Int == 3)
        }
    }
}
