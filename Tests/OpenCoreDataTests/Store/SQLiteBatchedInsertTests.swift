import Foundation
import GRDB
import Testing
@testable import OpenCoreDataCore

/// A save inserts its new rows several to an INSERT statement
/// (`SQLiteRecordWriter.insertBatchRows` to an execution, the rest alone).
/// Nothing of that may show: every row holds its own object's values, a
/// statement that fails leaves nothing of the save in the file (a save is
/// one transaction), and persistent history records each row as its own
/// insert, as the single-row statements did.
@Suite struct SQLiteBatchedInsertTests {
    /// More photos than two batches hold, so that a save runs full batches and single rows.
    private static let photoCount = 2 * SQLiteRecordWriter.insertBatchRows + 7
    /// The albums `insertPhotos(into:)` inserts: one before every 20th photo.
    private static let albumCount = (photoCount + 19) / 20

    /// Inserts `photoCount` photos "p0"… with a path on even ones only, an
    /// index each and one of three albums, the albums inserted among the
    /// photos (so that the two entities' records alternate in the save).
    private static func insertPhotos(into context: NSManagedObjectContext) {
        var albums: [NSManagedObject] = []
        for i in 0..<photoCount {
            if i % 20 == 0 { albums.append(TestStack.insert("Album", into: context, ["name": "a\(albums.count)"])) }
            var values: [String: Any] = ["name": "p\(i)", "index": Int16(i), "album": albums[i % albums.count]]
            if i % 2 == 0 { values["path"] = "/photos/\(i).jpg" }
            TestStack.insert("Photo", into: context, values)
        }
    }

    @Test func everyRowOfABatchHoldsItsOwnObjectsValues() throws {
        let writer = try TestStack.context(TestStack.albumsModel(), .sqlite)
        var albumOfPhoto: [String: String] = [:]
        try writer.performAndWait {
            Self.insertPhotos(into: writer)
            for case let photo as NSManagedObject in writer.insertedObjects where photo.entity.name == "Photo" {
                albumOfPhoto[photo.value(forKey: "name") as! String] =
                    (photo.value(forKey: "album") as! NSManagedObject).value(forKey: "name") as? String
            }
            try writer.save()
        }
        let reader = try TestStack.reader(of: writer)
        try reader.performAndWait {
            let photos = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Photo"))
            #expect(photos.count == Self.photoCount)
            for photo in photos {
                let name = try #require(photo.value(forKey: "name") as? String)
                let i = try #require(Int(name.dropFirst()))
                #expect(photo.value(forKey: "index") as? Int16 == Int16(i), "\(name)")
                #expect(photo.value(forKey: "path") as? String == (i % 2 == 0 ? "/photos/\(i).jpg" : nil), "\(name)")
                let album = try #require(photo.value(forKey: "album") as? NSManagedObject)
                #expect(album.value(forKey: "name") as? String == albumOfPhoto[name], "\(name)")
            }
            #expect(try reader.count(for: NSFetchRequest<NSManagedObject>(entityName: "Album")) == Self.albumCount)
        }
        // Each row under its object's key, entity and first version, as a single-row INSERT writes it.
        let rows = try SQLiteStoreTests.raw(SQLiteStoreTests.url(of: writer)).read { db in
            try Row.fetchAll(db, sql: "SELECT Z_PK, Z_ENT, Z_OPT, ZINDEX FROM ZPHOTO ORDER BY Z_PK")
        }
        #expect(rows.count == Self.photoCount)
        #expect(rows.allSatisfy { ($0["Z_OPT"] as Int64) == 1 && ($0["Z_ENT"] as Int64) == 2 })
        #expect(rows.map { $0["Z_PK"] as Int64 } == Array(1...Int64(Self.photoCount)))
    }

    @Test func aRowRefusedInABatchLeavesNothingOfTheSave() throws {
        let writer = try TestStack.context(TestStack.albumsModel(), .sqlite)
        let url = SQLiteStoreTests.url(of: writer)
        // Another program takes a key the store will hand out, in the middle of the first batch.
        try DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: "INSERT INTO ZPHOTO (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (5, 2, 1, 'elsewhere')")
        }
        let error = try writer.performAndWait { () -> NSError? in
            Self.insertPhotos(into: writer)
            do { try writer.save() } catch { return error as NSError }
            return nil
        }
        let refusal = try #require(error, "a save whose INSERT SQLite refused succeeded")
        #expect(refusal.domain == NSCocoaErrorDomain)
        #expect(refusal.code == NSSQLiteError)
        try writer.performAndWait { #expect(writer.insertedObjects.count == Self.photoCount + Self.albumCount) }
        let names = try SQLiteStoreTests.raw(url).read { db in
            try String.fetchAll(db, sql: "SELECT ZNAME FROM ZPHOTO UNION ALL SELECT ZNAME FROM ZALBUM")
        }
        #expect(names == ["elsewhere"])
    }

    @Test func historyRecordsEachRowOfABatchAsItsOwnInsert() throws {
        let context = try HistoryStack.context()
        let ids = try context.performAndWait {
            Self.insertPhotos(into: context)
            try context.save()
            return try Set(["Photo", "Album"].flatMap { entity in
                try context.fetch(NSFetchRequest<NSManagedObject>(entityName: entity)).map(\.objectID)
            })
        }
        let transactions = try HistoryStack.history(context)
        try #require(transactions.count == 1)
        let changes = transactions[0].changes ?? []
        #expect(changes.count == Self.photoCount + Self.albumCount)
        #expect(changes.allSatisfy { $0.changeType == .insert })
        #expect(Set(changes.map(\.changedObjectID)) == ids)
    }

    @Test func externalDataOfABatchGoesToEachRowsOwnFile() throws {
        // Every third image large enough for a file beside the store, the rest inline, all in batched rows.
        let context = try TestStack.context(SQLiteExternalDataTests.model(), .sqlite)
        let count = SQLiteRecordWriter.insertBatchRows + 5
        var images: [String: Data] = [:]
        try context.performAndWait {
            for i in 0..<count {
                let size = i % 3 == 0 ? SQLiteExternalDataTests.large : 100
                images["p\(i)"] = SQLiteExternalDataTests.bytes(size, seed: UInt8(i))
                TestStack.insert("Photo", into: context, ["name": "p\(i)", "image": images["p\(i)"]!])
            }
            try context.save()
        }
        #expect(SQLiteExternalDataTests.files(of: context).count == (count + 2) / 3)
        #expect(try SQLiteExternalDataTests.stored("image", of: context) == images)
    }
}
