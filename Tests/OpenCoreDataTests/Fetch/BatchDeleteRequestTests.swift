import Foundation
import GRDB
import Testing
@testable import OpenCoreDataCore

/// NSBatchDeleteRequest. Apple's reference
/// (https://developer.apple.com/documentation/coredata/nsbatchdeleterequest): SQLite stores only, a fetch
/// request or object IDs of one entity ("mixing entity types results in an error"), contexts don't merge
/// the deletions by themselves; Apple's batch guide ("Implementing Batch Deletes",
/// https://developer.apple.com/library/content/featuredarticles/CoreData_Batch_Guide/BatchDeletes/BatchDeletes.html):
/// "any validation rules that are part of the data model are not enforced".
@Suite struct BatchDeleteRequestTests {
    static func rows(_ sql: String, in context: NSManagedObjectContext) throws -> [Row] {
        let url = try #require(context.persistentStoreCoordinator?.persistentStores.first?.url)
        return try DatabaseQueue(path: url.path).read { try Row.fetchAll($0, sql: sql) }
    }

    static func count(_ entity: String, _ format: String? = nil, in context: NSManagedObjectContext) throws -> Int {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        request.predicate = format.map { NSPredicate(format: $0) }
        return try context.count(for: request)
    }

    static func delete(_ entity: String, _ format: String?, in context: NSManagedObjectContext,
                       _ resultType: NSBatchDeleteRequestResultType = .resultTypeCount) throws -> Any? {
        let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: entity)
        fetch.predicate = format.map { NSPredicate(format: $0) }
        let request = NSBatchDeleteRequest(fetchRequest: fetch)
        request.resultType = resultType
        return try #require(try context.execute(request) as? NSBatchDeleteResult).result
    }

    @Test func deletesWhatTheFetchRequestSelects() throws {
        let context = try TestStack.albumsWithPhotos()
        try context.performAndWait { () throws in
            #expect(try Self.delete("Photo", "name BEGINSWITH 'p1-'", in: context) as? Int == 10)
            #expect(try Self.count("Photo", in: context) == 20 && Self.count("Album", in: context) == 3)
            let ids = try #require(try Self.delete("Photo", "name == 'p2-3'", in: context, .resultTypeObjectIDs)
                as? [NSManagedObjectID])
            #expect(ids.count == 1 && ids[0].entity.name == "Photo" && !ids[0].isTemporaryID)
            #expect(try Self.delete("Photo", "name == 'nothing'", in: context, .resultTypeStatusOnly) as? Bool == true)
            // A predicate SQL can't express is evaluated on the records, then deleted by key.
            #expect(try Self.delete("Photo", "FUNCTION(name, 'uppercaseString') == 'P0-1'", in: context) as? Int == 1)
            #expect(try Self.count("Photo", in: context) == 18)
        }
        #expect(try Self.rows("SELECT Z_PK FROM ZPHOTO", in: context).count == 18)
    }

    /// The request keeps a copy of the fetch request (Apple: `@NSCopying var fetchRequest`), and its window counts.
    @Test func theFetchRequestIsCopiedAndItsLimitHonoured() throws {
        let context = try TestStack.albumsWithPhotos()
        try context.performAndWait { () throws in
            let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Photo")
            fetch.predicate = NSPredicate(format: "name BEGINSWITH 'p0-'")
            fetch.fetchLimit = 4
            let request = NSBatchDeleteRequest(fetchRequest: fetch)
            fetch.predicate = nil
            request.resultType = .resultTypeCount
            #expect((try context.execute(request) as? NSBatchDeleteResult)?.result as? Int == 4)
            #expect(try Self.count("Photo", "name BEGINSWITH 'p0-'", in: context) == 6)
        }
    }

    /// Cascade deletes the destinations; the result counts the selected records only (Core Data deletes the
    /// rest in SQL triggers). Observed: a SwiftData batch delete of folders also removed the books in them
    /// (the books' cascade rule), and one of projects failed on the mandatory inverse of the notes it
    /// cascaded to, with code 134050 — both in public app code found by code search, cited in
    /// mandatoryNullifyInverseRefusesTheWholeDelete.
    @Test func cascadeDeletesTheDestinations() throws {
        let context = try TestStack.albumsWithPhotos()
        try context.performAndWait { () throws in
            #expect(try Self.delete("Album", "name == 'a1'", in: context) as? Int == 1)
            #expect(try Self.count("Photo", in: context) == 20)
            #expect(try Self.count("Photo", "name BEGINSWITH 'p1-'", in: context) == 0)
        }
        let orphans = "SELECT Z_PK FROM ZPHOTO WHERE ZALBUM NOT IN (SELECT Z_PK FROM ZALBUM)"
        #expect(try Self.rows(orphans, in: context).isEmpty)
    }

    /// A relationship declared by a superentity applies to the rows of its sub-entities, which share its
    /// table; `includesSubentities` limits the selection.
    @Test func inheritedRelationshipsApplyToSubentityRows() throws {
        let media = NSEntityDescription(name: "Media"), video = NSEntityDescription(name: "Video")
        let tag = NSEntityDescription(name: "Tag")
        let tags = TestStack.relationship("tags", to: tag, toMany: true, rule: .cascadeDeleteRule)
        let mediaOf = TestStack.relationship("media", to: media)
        TestStack.pair(tags, mediaOf)
        media.properties = [TestStack.attribute("name", .stringAttributeType), tags]
        video.properties = [TestStack.attribute("length", .doubleAttributeType)]
        media.subentities = [video]
        tag.properties = [TestStack.attribute("name", .stringAttributeType), mediaOf]
        let model = NSManagedObjectModel()
        model.entities = [media, video, tag]
        let context = try TestStack.context(model, .sqlite)
        try context.performAndWait { () throws in
            let still = TestStack.insert("Media", into: context, ["name": "still"])
            let clip = TestStack.insert("Video", into: context, ["name": "clip", "length": 3.5])
            TestStack.insert("Tag", into: context, ["name": "t-still", "media": still])
            TestStack.insert("Tag", into: context, ["name": "t-clip", "media": clip])
            try context.save()
            let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Media")
            fetch.includesSubentities = false
            let request = NSBatchDeleteRequest(fetchRequest: fetch)
            request.resultType = .resultTypeCount
            #expect((try context.execute(request) as? NSBatchDeleteResult)?.result as? Int == 1)
            #expect(try Self.count("Tag", in: context) == 1 && Self.count("Video", in: context) == 1)
            #expect(try Self.delete("Video", nil, in: context) as? Int == 1)
            #expect(try Self.count("Tag", in: context) == 0 && Self.count("Media", in: context) == 0)
        }
    }

    /// Nullify clears the inverse's key in the rows that stay (raising their version), for to-many and
    /// reflexive relationships, and removes join-table rows of many-to-many relationships.
    @Test func nullifyClearsInverseKeysAndJoinRows() throws {
        let company = try TestStack.context(TestStack.companyModel(rule: .nullifyDeleteRule), .sqlite)
        try company.performAndWait { () throws in
            let sales = TestStack.insert("Department", into: company, ["name": "sales"])
            let boss = TestStack.insert("Employee", into: company, ["name": "boss", "department": sales])
            for name in ["e1", "e2"] {
                TestStack.insert("Employee", into: company, ["name": name, "department": sales, "manager": boss])
            }
            try company.save()
            #expect(try Self.delete("Department", nil, in: company) as? Int == 1)
            #expect(try Self.delete("Employee", "name == 'boss'", in: company) as? Int == 1)
        }
        let employees = try Self.rows("SELECT ZNAME, ZDEPARTMENT, ZMANAGER, Z_OPT FROM ZEMPLOYEE ORDER BY ZNAME",
                                      in: company)
        #expect(employees.map { $0[0] as String } == ["e1", "e2"])
        #expect(employees.allSatisfy { ($0[1] as Int64?) == nil && ($0[2] as Int64?) == nil && ($0[3] as Int) == 3 })

        let quakes = try TestStack.context(TestStack.quakesModel(), .sqlite)
        try quakes.performAndWait { () throws in
            let chile = TestStack.insert("Country", into: quakes, ["name": "Chile"])
            let peru = TestStack.insert("Country", into: quakes, ["name": "Peru"])
            TestStack.insert("Quake", into: quakes, ["place": "Arica"])
                .setValue(Set([chile, peru]), forKey: "countries")
            try quakes.save()
            #expect(try Self.delete("Country", "name == 'Chile'", in: quakes) as? Int == 1)
            let reader = try TestStack.reader(of: quakes)
            try reader.performAndWait { () throws in
                let quake = try #require(try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Quake")).first)
                #expect(TestStack.names(TestStack.set(quake, "countries")) == ["Peru"])
            }
        }
        let joinRows = try Self.rows("SELECT name FROM sqlite_master WHERE type = 'table' "
                                     + "AND name LIKE 'Z\\_%' ESCAPE '\\' "
                                     + "AND name NOT IN ('Z_PRIMARYKEY', 'Z_METADATA', 'Z_MODELCACHE')", in: quakes)
        let joinTable = try #require(joinRows.first.map { $0[0] as String })
        #expect(try Self.rows("SELECT * FROM \(joinTable)", in: quakes).count == 1)
    }

    /// A nullify rule whose inverse is mandatory refuses the whole batch delete when a destination exists:
    /// "Constraint trigger violation: Batch delete failed due to manadatory OTM nullify inverse on
    /// Conversation/participantRoles" (https://github.com/wireapp/wire-ios-data-model/pull/1287); SwiftData
    /// apps report the same for a to-one ("mandatory OTO nullify inverse on FavoriteBook/folder") and a
    /// many-to-many ("mandatory MTM nullify inverse on Note/tags", NSCocoaErrorDomain 134050). A deny rule
    /// with a destination refuses it too [Inf: no source; a save refuses it as well].
    @Test func mandatoryNullifyInverseRefusesTheWholeDelete() throws {
        let folder = NSEntityDescription(name: "Folder"), book = NSEntityDescription(name: "Book")
        let books = TestStack.relationship("books", to: book, toMany: true, rule: .cascadeDeleteRule, optional: false)
        let folderOf = TestStack.relationship("folder", to: folder)
        TestStack.pair(books, folderOf)
        folder.properties = [TestStack.attribute("name", .stringAttributeType), books]
        book.properties = [TestStack.attribute("name", .stringAttributeType), folderOf]
        let model = NSManagedObjectModel()
        model.entities = [folder, book]
        let context = try TestStack.context(model, .sqlite)
        try context.performAndWait { () throws in
            let full = TestStack.insert("Folder", into: context, ["name": "full"])
            TestStack.insert("Book", into: context, ["name": "filed", "folder": full])
            TestStack.insert("Book", into: context, ["name": "loose"])
            try context.save()
            let refused = try #require(Self.failure { _ = try Self.delete("Book", nil, in: context) })
            #expect(refused.code == NSPersistentStoreSaveConflictsError && refused.domain == NSCocoaErrorDomain)
            #expect(refused.localizedDescription.contains("mandatory OTO nullify inverse on Book/folder"))
            #expect(try Self.count("Book", in: context) == 2)
            #expect(try Self.delete("Book", "name == 'loose'", in: context) as? Int == 1)
            // Deleting the folder cascades to its book: nothing is left to nullify.
            #expect(try Self.delete("Folder", nil, in: context) as? Int == 1)
            #expect(try Self.count("Book", in: context) == 0)
        }

        let shop = try TestStack.context(TestStack.shoppingModel(unitRule: .denyDeleteRule), .sqlite)
        try shop.performAndWait { () throws in
            let kilogram = TestStack.insert("Unit", into: shop, ["name": "kg"])
            TestStack.insert("Unit", into: shop, ["name": "l"])
            TestStack.insert("Item", into: shop, ["name": "flour", "unit": kilogram])
            try shop.save()
            #expect(Self.failure { _ = try Self.delete("Unit", "name == 'kg'", in: shop) }?.code
                        == NSPersistentStoreSaveConflictsError)
            #expect(try Self.delete("Unit", "name == 'l'", in: shop) as? Int == 1)
            #expect(try Self.count("Unit", in: shop) == 1 && Self.count("Item", in: shop) == 1)
        }
    }

    static func failure(_ body: () throws -> Void) -> NSError? {
        do { try body(); return nil } catch { return error as NSError }
    }

    /// Validation rules are not applied: deleting leaves a to-many below its minimum count, which a save
    /// would refuse with NSValidationRelationshipLacksMinimumCountError (1580).
    @Test func validationRulesAreNotApplied() throws {
        let model = TestStack.albumsModel()
        let photos = try #require(model.entitiesByName["Album"]?.relationshipsByName["photos"])
        photos.minCount = 2
        let context = try TestStack.context(model, .sqlite)
        try context.performAndWait { () throws in
            let album = TestStack.insert("Album", into: context, ["name": "a"])
            for name in ["x", "y"] { TestStack.insert("Photo", into: context, ["name": name, "album": album]) }
            try context.save()
            #expect(try Self.delete("Photo", "name == 'x'", in: context) as? Int == 1)
            #expect(try Self.count("Photo", in: context) == 1)
        }
    }

    @Test func objectIDsOfOneEntity() throws {
        let context = try TestStack.albumsWithPhotos()
        try context.performAndWait { () throws in
            let fetch = NSFetchRequest<NSManagedObjectID>(entityName: "Photo")
            fetch.resultType = .managedObjectIDResultType
            fetch.predicate = NSPredicate(format: "name IN {'p0-0', 'p2-9'}")
            let ids = try context.fetch(fetch)
            let request = NSBatchDeleteRequest(objectIDs: ids)
            request.resultType = .resultTypeObjectIDs
            let result = try context.execute(request) as? NSBatchDeleteResult
            let deleted = try #require(result?.result as? [NSManagedObjectID])
            #expect(Set(deleted) == Set(ids))
            #expect(try Self.count("Photo", in: context) == 28)
            #expect(request.fetchRequest.entityName == "Photo" && request.fetchRequest.predicate != nil)

            let album = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album")).first)
            fetch.predicate = nil
            let mixed = NSBatchDeleteRequest(objectIDs: [try #require(try context.fetch(fetch).first), album.objectID])
            #expect(throws: NSError.self) { try context.execute(mixed) }
            let temporary = TestStack.insert("Photo", into: context, ["name": "new"])
            let error = #expect(throws: NSError.self) {
                try context.execute(NSBatchDeleteRequest(objectIDs: [temporary.objectID]))
            }
            #expect(error?.code == NSPersistentStoreOperationError)
            #expect(try Self.count("Album", in: context) == 3)
        }
    }

    /// Apple: "available only when using a SQLite persistent store"; other stores don't know the request
    /// (NSPersistentStoreUnsupportedRequestTypeError, 134091, in CoreDataErrors.h).
    @Test func otherStoresRefuseTheRequest() throws {
        let context = try TestStack.context(TestStack.albumsModel(), .inMemory)
        try context.performAndWait { () throws in
            TestStack.insert("Photo", into: context, ["name": "p"])
            try context.save()
            let error = #expect(throws: NSError.self) { _ = try Self.delete("Photo", nil, in: context) }
            #expect(error?.code == NSPersistentStoreUnsupportedRequestTypeError)
            #expect(try Self.count("Photo", in: context) == 1)
        }
    }

    /// A deleted record whose attribute kept its bytes in a file beside the store takes the file with it,
    /// once the delete committed.
    @Test func externalDataFilesGoWithTheirRecords() throws {
        let blob = NSEntityDescription(name: "Blob")
        let data = TestStack.attribute("data", .binaryDataAttributeType)
        data.allowsExternalBinaryDataStorage = true
        blob.properties = [TestStack.attribute("name", .stringAttributeType), data]
        let model = NSManagedObjectModel()
        model.entities = [blob]
        let context = try TestStack.context(model, .sqlite)
        let url = try #require(context.persistentStoreCoordinator?.persistentStores.first?.url)
        let folder = url.deletingLastPathComponent().appendingPathComponent(".Store_SUPPORT/_EXTERNAL_DATA")
        try context.performAndWait { () throws in
            TestStack.insert("Blob", into: context, ["name": "big", "data": Data(repeating: 7, count: 200_000)])
            try context.save()
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 1)
            #expect(try Self.delete("Blob", nil, in: context) as? Int == 1)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
