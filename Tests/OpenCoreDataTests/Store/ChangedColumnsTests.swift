import Foundation
import GRDB
import Testing
@testable import OpenCoreDataCore

/// A save updates only the columns of the properties that changed, as Core
/// Data's SQLite store does (its SQL log shows `UPDATE ZFOO SET Z_OPT=Y, (…)
/// WHERE (…) AND Z_OPT=X` with the changed columns only; Stack Overflow
/// 15821652, quoted in coredata-wave2.md §4). Each test changes a column
/// behind the context's back (as another program would, without touching
/// `Z_OPT`), then saves a change to another property: the column nobody in
/// the context changed must keep what the other program wrote, and every
/// changed property must reach the file.
@Suite struct ChangedColumnsTests {
    private static func column(_ sql: String, in context: NSManagedObjectContext) throws -> String? {
        try SQLiteStoreTests.raw(SQLiteStoreTests.url(of: context)).read { try String.fetchOne($0, sql: sql) }
    }

    private static func execute(_ sql: String, in context: NSManagedObjectContext) throws {
        try DatabaseQueue(path: SQLiteStoreTests.url(of: context).path).write { try $0.execute(sql: sql) }
    }

    private static func photo(_ name: String, in context: NSManagedObjectContext) throws -> NSManagedObject {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
        request.predicate = NSPredicate(format: "name == %@", name)
        return try #require(try context.fetch(request).first)
    }

    @Test func anUpdateLeavesUnchangedColumnsAsTheFileHasThem() throws {
        let context = try TestStack.albumsWithPhotos()
        try context.performAndWait { () throws in
            let photo = try Self.photo("p0-1", in: context)
            try Self.execute("UPDATE ZPHOTO SET ZPATH = 'elsewhere' WHERE ZNAME = 'p0-1'", in: context)
            photo.setValue(Int16(7), forKey: "index")
            try context.save()
            #expect(try Self.column("SELECT ZPATH FROM ZPHOTO WHERE ZNAME = 'p0-1'", in: context) == "elsewhere")
            #expect(try Self.column("SELECT ZINDEX FROM ZPHOTO WHERE ZNAME = 'p0-1'", in: context) == "7")
            #expect(try Self.column("SELECT Z_OPT FROM ZPHOTO WHERE ZNAME = 'p0-1'", in: context) == "2")
        }
    }

    @Test func aSecondSaveWritesOnlyWhatChangedSinceTheFirst() throws {
        let context = try TestStack.albumsWithPhotos()
        try context.performAndWait { () throws in
            let photo = try Self.photo("p1-2", in: context)
            photo.setValue("first", forKey: "path")
            try context.save()
            try Self.execute("UPDATE ZPHOTO SET ZPATH = 'outside' WHERE ZNAME = 'p1-2'", in: context)
            photo.setValue(Int16(3), forKey: "index")
            try context.save()
            #expect(try Self.column("SELECT ZPATH FROM ZPHOTO WHERE ZNAME = 'p1-2'", in: context) == "outside")
            #expect(try Self.column("SELECT ZINDEX FROM ZPHOTO WHERE ZNAME = 'p1-2'", in: context) == "3")
        }
    }

    /// One save alternating between two sets of changed columns of one
    /// entity, with an insert of it between them: each row goes through the
    /// statement of its own columns, found again after the others were used.
    @Test func alternatingColumnSetsInOneSaveEachWriteTheirOwnColumns() throws {
        let context = try TestStack.albumsWithPhotos()
        try context.performAndWait { () throws in
            let names = ["p0-1", "p0-2", "p0-3", "p0-4"]
            for name in names {
                try Self.execute("UPDATE ZPHOTO SET ZPATH = 'outside', ZINDEX = 99 WHERE ZNAME = '\(name)'",
                                 in: context)
            }
            let photos = try names.map { try Self.photo($0, in: context) }
            for (position, photo) in photos.enumerated() {
                if position.isMultiple(of: 2) {
                    photo.setValue("path \(position)", forKey: "path")
                } else {
                    photo.setValue(Int16(position), forKey: "index")
                }
                if position == 1 {
                    let added = NSEntityDescription.insertNewObject(forEntityName: "Photo", into: context)
                    added.setValue("added", forKey: "name")
                    added.setValue(photo.value(forKey: "album"), forKey: "album")
                }
            }
            try context.save()
            for (position, name) in names.enumerated() {
                let path = try Self.column("SELECT ZPATH FROM ZPHOTO WHERE ZNAME = '\(name)'", in: context)
                let index = try Self.column("SELECT ZINDEX FROM ZPHOTO WHERE ZNAME = '\(name)'", in: context)
                #expect(path == (position.isMultiple(of: 2) ? "path \(position)" : "outside"), "\(name)")
                #expect(index == (position.isMultiple(of: 2) ? "99" : "\(position)"), "\(name)")
            }
            #expect(try Self.column("SELECT COUNT(*) FROM ZPHOTO WHERE ZNAME = 'added'", in: context) == "1")
        }
    }

    @Test func aChangedToOneIsWrittenAndAReadOneIsLeftAlone() throws {
        let context = try TestStack.albumsWithPhotos()
        try context.performAndWait { () throws in
            let moved = try Self.photo("p0-0", in: context), read = try Self.photo("p0-3", in: context)
            let target = try #require(try Self.photo("p2-0", in: context).value(forKey: "album") as? NSManagedObject)
            // Reading a relationship makes its destination an object: not a change.
            _ = read.value(forKey: "album")
            read.setValue("renamed", forKey: "name")
            try Self.execute("UPDATE ZPHOTO SET ZALBUM = NULL WHERE ZNAME = 'p0-3'", in: context)
            moved.setValue(target, forKey: "album")
            try context.save()
            #expect(try Self.column("SELECT ZALBUM FROM ZPHOTO WHERE ZNAME = 'renamed'", in: context) == nil)
            let targetKey = try #require(target.objectID.primaryKey)
            #expect(try Self.column("SELECT ZALBUM FROM ZPHOTO WHERE ZNAME = 'p0-0'", in: context) == "\(targetKey)")
        }
        let reader = try TestStack.reader(of: context)
        try reader.performAndWait { () throws in
            let album = try #require(try Self.photo("p2-0", in: reader).value(forKey: "album") as? NSManagedObject)
            #expect(TestStack.names(TestStack.set(album, "photos")).contains("p0-0"))
            #expect(TestStack.set(album, "photos").count == 11)
        }
    }

    @Test func changesKeptThroughARefreshAreWritten() throws {
        let context = try TestStack.albumsWithPhotos()
        try context.performAndWait { () throws in
            let photo = try Self.photo("p2-5", in: context)
            photo.setValue("kept", forKey: "path")
            context.refresh(photo, mergeChanges: true)
            #expect(photo.changedValues().keys.sorted() == ["path"])
            try context.save()
            #expect(try Self.column("SELECT ZPATH FROM ZPHOTO WHERE ZNAME = 'p2-5'", in: context) == "kept")
        }
    }

    /// A changed to-many stays changed through refreshes: the reloaded record
    /// leaves the relationship unread, which compared as unchanged, so the
    /// second refresh (or the first of a nested context) dropped the change.
    @Test func aChangedToManyStaysChangedThroughRefreshes() throws {
        let context = try TestStack.albumsWithPhotos()
        try context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Album")
            request.predicate = NSPredicate(format: "name == 'a0'")
            let album = try #require(try context.fetch(request).first)
            let photo = TestStack.insert("Photo", into: context, ["name": "new"])
            album.mutableSetValue(forKey: "photos").add(photo)
            for _ in 0..<2 {
                context.refresh(album, mergeChanges: true)
                #expect(album.changedValues().keys.sorted() == ["photos"] && album.isUpdated)
                #expect(TestStack.set(album, "photos").count == 11)
            }
        }
    }

    @Test func aRolledBackChangeIsNotWrittenByTheNextSave() throws {
        let context = try TestStack.albumsWithPhotos()
        try context.performAndWait { () throws in
            let photo = try Self.photo("p1-7", in: context)
            photo.setValue("dropped", forKey: "path")
            context.rollback()
            try Self.execute("UPDATE ZPHOTO SET ZPATH = 'outside' WHERE ZNAME = 'p1-7'", in: context)
            photo.setValue(Int16(9), forKey: "index")
            try context.save()
            #expect(try Self.column("SELECT ZPATH FROM ZPHOTO WHERE ZNAME = 'p1-7'", in: context) == "outside")
            #expect(try Self.column("SELECT ZINDEX FROM ZPHOTO WHERE ZNAME = 'p1-7'", in: context) == "9")
        }
    }

    @Test func changedValuesComparesOnlyWrittenSlotsAndStaysExact() throws {
        let context = try TestStack.albumsWithPhotos()
        try context.performAndWait { () throws in
            let photo = try Self.photo("p0-9", in: context)
            _ = photo.value(forKey: "album")
            #expect(photo.changedValues().isEmpty)
            photo.setValue("p0-9", forKey: "name") // the same value: written, not changed
            #expect(photo.changedValues().isEmpty)
            photo.setValue("new", forKey: "path")
            #expect(photo.changedValues().keys.sorted() == ["path"])
            try context.save()
            #expect(photo.changedValues().isEmpty)
        }
    }
}

/// Validation that corrects a value: the save sets `name` to its upper case
/// while it validates, a change in the event that the save's commit ends
/// without starting a new one.
final class StampingAlbum: NSManagedObject {
    override func validateValue(_ value: inout Any?, forKey key: String) throws {
        if key == "name", let name = value as? String { value = name.uppercased() }
        try super.validateValue(&value, forKey: key)
    }
}

extension ChangedColumnsTests {
    /// A change right after a save is recorded although the object was last
    /// changed (by its validation) in the same context event: the save
    /// cleared its flags, and a change must set them again.
    @Test func aChangeAfterASaveInTheSameEventIsRecorded() throws {
        let model = TestStack.albumsModel(albumClass: "OpenCoreDataTests.StampingAlbum")
        let context = try TestStack.context(model, .sqlite)
        try context.performAndWait { () throws in
            let album = TestStack.insert("Album", into: context, ["name": "a"])
            try context.save()
            #expect(album.value(forKey: "name") as? String == "A" && !album.hasChanges)
            album.setValue("b", forKey: "name")
            #expect(album.isUpdated && context.updatedObjects.contains(album))
            try context.save()
        }
        let reader = try TestStack.reader(of: context)
        try reader.performAndWait { () throws in
            let album = try #require(try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album")).first)
            #expect(album.value(forKey: "name") as? String == "B")
        }
    }
}

extension ChangedColumnsTests {
    /// An entity with more properties than the changed-slot set holds inline
    /// (64): a change to a slot past them is written, its neighbours are not.
    @Test func slotsPastTheInlineWordAreTracked() throws {
        let wide = NSEntityDescription(name: "Wide")
        wide.properties = (0..<70).map { TestStack.attribute("a\($0)", .integer64AttributeType) }
        let model = NSManagedObjectModel()
        model.entities = [wide]
        let context = try TestStack.context(model, .sqlite)
        try context.performAndWait { () throws in
            let object = TestStack.insert("Wide", into: context, ["a67": Int64(1), "a68": Int64(1)])
            try context.save()
            try Self.execute("UPDATE ZWIDE SET ZA67 = 99", in: context)
            object.setValue(Int64(2), forKey: "a68")
            #expect(object.values.changed.slots == [object.values.layout.slotsByName["a68"]!])
            try context.save()
            #expect(try Self.column("SELECT ZA67 FROM ZWIDE", in: context) == "99")
            #expect(try Self.column("SELECT ZA68 FROM ZWIDE", in: context) == "2")
        }
    }
}
