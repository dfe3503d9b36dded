import Foundation
import GRDB
import Testing
@testable import OpenCoreDataCore

/// The SQLite store deletes a save's records by set (a statement per entity
/// and 512 records) with the same outcome as one by one: every row and its
/// join rows gone, and optimistic locking per record ("Core Data… compares
/// the Z_OPT of the row with the version of the snapshot", coredata-wave2.md
/// §4.3): one record changed elsewhere fails the whole save and deletes nothing.
@Suite struct SQLiteSetDeleteTests {
    static func rowCount(_ context: NSManagedObjectContext, _ table: String) throws -> Int {
        let url = try #require(context.persistentStoreCoordinator?.persistentStores.first?.url)
        return try DatabaseQueue(path: url.path).read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? -1
        }
    }

    static func joinTable(_ context: NSManagedObjectContext) throws -> String {
        let url = try #require(context.persistentStoreCoordinator?.persistentStores.first?.url)
        return try DatabaseQueue(path: url.path).read { db in
            let sql = "SELECT name FROM sqlite_master WHERE name LIKE 'Z\\_%' ESCAPE '\\' AND type = 'table'"
                + " AND name NOT IN ('Z_PRIMARYKEY', 'Z_METADATA', 'Z_MODELCACHE')"
            return try #require(try String.fetchOne(db, sql: sql))
        }
    }

    /// Quake ⟷ Country many-to-many; a quake's delete rule is No Action, so
    /// that nothing but the store's own clean-up removes a deleted quake's join rows.
    static func quakesModel() -> NSManagedObjectModel {
        let quake = NSEntityDescription(name: "Quake")
        let country = NSEntityDescription(name: "Country")
        let countries = TestStack.relationship("countries", to: country, toMany: true, rule: .noActionDeleteRule)
        let quakes = TestStack.relationship("quakes", to: quake, toMany: true)
        TestStack.pair(countries, quakes)
        quake.properties = [TestStack.attribute("magnitude", .doubleAttributeType), countries]
        country.properties = [TestStack.attribute("name", .stringAttributeType), quakes]
        let model = NSManagedObjectModel()
        model.entities = [quake, country]
        return model
    }

    @Test func moreRecordsThanAChunkGoWithTheirJoinRows() throws {
        let context = try TestStack.context(Self.quakesModel(), .sqlite)
        try context.performAndWait { () throws in
            let countries = (0..<3).map { TestStack.insert("Country", into: context, ["name": "c\($0)"]) }
            for index in 0..<1_234 {
                let quake = TestStack.insert("Quake", into: context, ["magnitude": Double(index)])
                quake.setValue(NSSet(array: [countries[index % 3], countries[(index + 1) % 3]]), forKey: "countries")
            }
            try context.save()
        }
        let join = try Self.joinTable(context)
        #expect(try Self.rowCount(context, join) == 2_468)
        try context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Quake")
            request.predicate = NSPredicate(format: "magnitude >= 100")
            for quake in try context.fetch(request) { context.delete(quake) }
            try context.save()
        }
        #expect(try Self.rowCount(context, "ZQUAKE") == 100)
        #expect(try Self.rowCount(context, join) == 200)
        #expect(try Self.rowCount(context, "ZCOUNTRY") == 3)
    }

    /// Place ⊃ Venue (one table); only Venue has a many-to-many (No Action,
    /// so that only the store's clean-up removes its join rows). Deleting a
    /// Place and a Venue in one save clears the Venue's join rows: each
    /// entity's records are deleted with that entity's relationships.
    @Test func entitiesSharingATableEachLoseTheirOwnJoinRows() throws {
        let place = NSEntityDescription(name: "Place"), venue = NSEntityDescription(name: "Venue")
        let act = NSEntityDescription(name: "Act")
        place.subentities = [venue]
        let acts = TestStack.relationship("acts", to: act, toMany: true, rule: .noActionDeleteRule)
        let venues = TestStack.relationship("venues", to: venue, toMany: true)
        TestStack.pair(acts, venues)
        place.properties = [TestStack.attribute("name", .stringAttributeType)]
        venue.properties = [acts]
        act.properties = [TestStack.attribute("title", .stringAttributeType), venues]
        let model = NSManagedObjectModel()
        model.entities = [place, venue, act]
        let context = try TestStack.context(model, .sqlite)
        try context.performAndWait { () throws in
            let show = TestStack.insert("Act", into: context, ["title": "show"])
            TestStack.insert("Place", into: context, ["name": "square"])
            let hall = TestStack.insert("Venue", into: context, ["name": "hall"])
            hall.setValue(NSSet(object: show), forKey: "acts")
            try context.save()
        }
        let join = try Self.joinTable(context)
        #expect(try Self.rowCount(context, join) == 1)
        try context.performAndWait { () throws in
            context.reset()
            for name in ["square", "hall"] {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Place")
                request.predicate = NSPredicate(format: "name == %@", name)
                context.delete(try #require(try context.fetch(request).first))
            }
            try context.save()
        }
        #expect(try Self.rowCount(context, "ZPLACE") == 0)
        #expect(try Self.rowCount(context, join) == 0)
    }

    /// Runs of consecutive keys go by range, the rest by list (SQLiteKeyRuns):
    /// exactly the deleted records' rows go, whichever way each went.
    @Test func runsAndScatteredKeysDeleteExactlyTheirRows() throws {
        let context = try TestStack.context(TestStack.albumsModel(), .sqlite)
        let doomed = Set(Array(stride(from: 1, through: 19, by: 2)) + Array(40...70) + [90, 91, 92] + Array(95...100))
        try context.performAndWait { () throws in
            for index in 1...100 { TestStack.insert("Album", into: context, ["name": "a\(index)"]) }
            try context.save()
            let albums = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album"))
            for album in albums where doomed.contains(Int((album.value(forKey: "name") as! String).dropFirst())!) {
                context.delete(album)
            }
            try context.save()
        }
        let url = try #require(context.persistentStoreCoordinator?.persistentStores.first?.url)
        let left = try DatabaseQueue(path: url.path).read { db in
            try String.fetchAll(db, sql: "SELECT ZNAME FROM ZALBUM")
        }
        #expect(Set(left) == Set((1...100).filter { !doomed.contains($0) }.map { "a\($0)" }))
    }

    @Test func oneRecordChangedElsewhereFailsTheWholeDelete() throws {
        let first = try TestStack.context(TestStack.albumsModel(), .sqlite)
        try first.performAndWait { () throws in
            for index in 0..<600 { TestStack.insert("Album", into: first, ["name": "a\(index)"]) }
            try first.save()
        }
        let second = TestStack.sibling(of: first)
        let albums = try second.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Album")
            request.returnsObjectsAsFaults = false
            return try second.fetch(request)
        }
        #expect(albums.count == 600)
        try first.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Album")
            request.predicate = NSPredicate(format: "name == 'a550'")
            try #require(try first.fetch(request).first).setValue(Int32(9), forKey: "sheets")
            try first.save()
        }
        try second.performAndWait { () throws in
            for album in albums { second.delete(album) }
            let error = try #require(throws: NSError.self) { try second.save() }
            #expect(error.code == NSManagedObjectMergeError)
            let conflicts = error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict] ?? []
            #expect(conflicts.map { $0.sourceObject.value(forKey: "name") as? String } == ["a550"])
        }
        #expect(try Self.rowCount(first, "ZALBUM") == 600)
        try second.performAndWait { () throws in
            second.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
            try second.save()
        }
        #expect(try Self.rowCount(first, "ZALBUM") == 0)
    }
}
