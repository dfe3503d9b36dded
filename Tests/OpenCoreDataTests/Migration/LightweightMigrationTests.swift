import Foundation
import GRDB
import Logging
import Testing
@testable import OpenCoreDataCore

/// Lightweight migration performed in place on an SQLite store when it opens
/// with a newer model version and both migration options: every change
/// Apple documents as inferable, with all data read back.
/// https://developer.apple.com/documentation/coredata/migrating-your-data-model-automatically
@Suite struct LightweightMigrationTests {
    static let noteKeys = ["title", "body", "count", "folder", "tags"]

    /// What version 1 holds, as `MigrationModels.rows` lists the notes.
    static let version1Notes: [[String]] = [
        ["n0", "b0", "0", "f0", "t0,t1"], ["n1", "nil", "10", "f1", "t0"], ["n2", "b2", "20", "f0", "t0"],
        ["n3", "nil", "30", "f1", "t0,t1"], ["n4", "b4", "40", "f0", "t0"], ["n5", "nil", "50", "f1", "t0"],
    ]

    /// A store written with MigrationModels' version 1, opened with `version2` (both read from one
    /// `.xcdatamodeld`) and both migration options.
    static func migrated(to version2: NSManagedObjectModel, url: URL = TestStack.temporaryStoreURL()) throws
        -> NSManagedObjectContext {
        let versions = try MigrationModels.versions(MigrationModels().model(), version2)
        try MigrationModels.writeVersion1(to: url, model: versions[0])
        return try MigrationModels.open(url, versions[1])
    }

    @Test func addedOptionalAttributeKeepsEveryValue() throws {
        let changed = MigrationModels()
        changed.note.properties += [NSAttributeDescription(name: "subtitle", type: .stringAttributeType)]
        let context = try Self.migrated(to: changed.model())
        #expect(try MigrationModels.rows(context, "Note", Self.noteKeys) == Self.version1Notes)
        #expect(try MigrationModels.rows(context, "Note", ["subtitle"]) == Array(repeating: ["nil"], count: 6))
        #expect(try MigrationModels.rows(context, "Folder", ["name", "notes"]) == [["f0", "n0,n2,n4"],
                                                                                     ["f1", "n1,n3,n5"]])
    }
}

extension LightweightMigrationTests {
    /// "An optional attribute becoming non-optional, and defining a default value": NULLs take the default.
    @Test func attributeMadeMandatoryWithDefaultFillsTheDefault() throws {
        let changed = MigrationModels()
        let body = changed.property(changed.note, "body") as! NSAttributeDescription
        body.isOptional = false
        body.defaultValue = "empty"
        let context = try Self.migrated(to: changed.model())
        #expect(try MigrationModels.rows(context, "Note", ["title", "body"]) == [
            ["n0", "b0"], ["n1", "empty"], ["n2", "b2"], ["n3", "empty"], ["n4", "b4"], ["n5", "empty"]])
    }

    /// An added attribute with a default value: existing objects get the default.
    @Test func addedAttributeWithDefaultGivesItToExistingObjects() throws {
        let changed = MigrationModels()
        changed.folder.properties += [NSAttributeDescription(name: "rank", type: .integer32AttributeType,
                                                             isOptional: false, defaultValue: 7)]
        let context = try Self.migrated(to: changed.model())
        #expect(try MigrationModels.rows(context, "Folder", ["name", "rank"]) == [["f0", "7"], ["f1", "7"]])
    }

    /// "Removal of an attribute": the column goes, every other value stays.
    @Test func removedAttribute() throws {
        let changed = MigrationModels()
        changed.note.properties = changed.note.ownProperties.filter { $0.name != "body" }
        let context = try Self.migrated(to: changed.model())
        #expect(try MigrationModels.rows(context, "Note", ["title", "count", "folder", "tags"])
                    == Self.version1Notes.map { [$0[0], $0[2], $0[3], $0[4]] })
        let url = try #require(context.persistentStoreCoordinator?.persistentStores.first?.url)
        #expect(try Self.columns(url, "ZNOTE").contains("ZBODY") == false)
    }

    /// "Rename a Car's color attribute to paintColor": the renaming identifier
    /// names the source attribute; values move to the new name.
    @Test func renamedAttributeKeepsItsValues() throws {
        let changed = MigrationModels()
        let title = changed.property(changed.note, "title")
        let heading = NSAttributeDescription(name: "heading", type: .stringAttributeType)
        heading.renamingIdentifier = "title"
        changed.note.properties = changed.note.ownProperties.map { $0 === title ? heading : $0 }
        let context = try Self.migrated(to: changed.model())
        #expect(try MigrationModels.rows(context, "Note", ["heading", "body", "count", "folder", "tags"])
                    == Self.version1Notes)
    }

    /// "Rename a Car entity to Automobile": rows, keys and relationships stay.
    @Test func renamedEntityKeepsItsRows() throws {
        let changed = MigrationModels()
        changed.folder.name = "Box"
        changed.folder.renamingIdentifier = "Folder"
        let context = try Self.migrated(to: changed.model())
        #expect(try MigrationModels.rows(context, "Box", ["name", "notes"]) == [["f0", "n0,n2,n4"],
                                                                                  ["f1", "n1,n3,n5"]])
        #expect(try MigrationModels.rows(context, "Note", Self.noteKeys) == Self.version1Notes)
        try Self.insertAndSave(context, "Box")
    }

    /// An added entity that sorts first renumbers every entity (Z_ENT): rows,
    /// relationships and new keys follow.
    @Test func addedEntityRenumbersTheOthers() throws {
        let changed = MigrationModels()
        let album = NSEntityDescription(name: "Album")
        album.properties = [NSAttributeDescription(name: "name", type: .stringAttributeType)]
        let context = try Self.migrated(to: changed.model([album]))
        #expect(try MigrationModels.rows(context, "Note", Self.noteKeys) == Self.version1Notes)
        #expect(try MigrationModels.rows(context, "Tag", ["name", "notes"]) == [["t0", "n0,n1,n2,n3,n4,n5"],
                                                                                  ["t1", "n0,n3"]])
        try Self.insertAndSave(context, "Album")
        try Self.insertAndSave(context, "Folder")
    }

    /// "Removal of an entity": its table and its many-to-many join table go.
    @Test func removedEntity() throws {
        let changed = MigrationModels()
        changed.note.properties = changed.note.ownProperties.filter { $0.name != "tags" }
        let model = NSManagedObjectModel()
        model.entities = [changed.folder, changed.note]
        let context = try Self.migrated(to: model)
        #expect(try MigrationModels.rows(context, "Note", ["title", "folder"])
                    == Self.version1Notes.map { [$0[0], $0[3]] })
        let url = try #require(context.persistentStoreCoordinator?.persistentStores.first?.url)
        let tables = try DatabaseQueue(path: url.path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        #expect(tables == ["ZFOLDER", "ZNOTE", "Z_METADATA", "Z_MODELCACHE", "Z_PRIMARYKEY"])
    }

    /// "Changing a relationship from a to-one to a to-many": Note.folder
    /// becomes Note.folders, the pair many-to-many in a join table.
    @Test func toOneBecomesToMany() throws {
        let changed = MigrationModels()
        let folders = TestStack.relationship("folders", to: changed.folder, toMany: true)
        folders.renamingIdentifier = "folder"
        TestStack.pair(changed.notes, folders)
        changed.note.properties = changed.note.ownProperties.map { $0.name == "folder" ? folders : $0 }
        let context = try Self.migrated(to: changed.model())
        #expect(try MigrationModels.rows(context, "Note", ["title", "folders"])
                    == Self.version1Notes.map { [$0[0], $0[3]] })
        #expect(try MigrationModels.rows(context, "Folder", ["name", "notes"]) == [["f0", "n0,n2,n4"],
                                                                                     ["f1", "n1,n3,n5"]])
    }

    /// "A non-ordered to-many to ordered (and vice versa)".
    @Test func unorderedBecomesOrderedAndBack() throws {
        let ordered = MigrationModels(notesOrdered: true)
        let context = try Self.migrated(to: ordered.model())
        let lists = try MigrationModels.rows(context, "Folder", ["name", "notes"])
        #expect(lists.map { Set($0[1].split(separator: ",")) } == [["n0", "n2", "n4"], ["n1", "n3", "n5"]])
        // And back, from a store written ordered.
        let url = TestStack.temporaryStoreURL()
        let versions = try MigrationModels.versions(MigrationModels(notesOrdered: true).model(),
                                                    MigrationModels().model())
        try MigrationModels.writeVersion1(to: url, model: versions[0])
        let back = try MigrationModels.open(url, versions[1])
        #expect(try MigrationModels.rows(back, "Folder", ["name", "notes"]) == [["f0", "n0,n2,n4"],
                                                                                  ["f1", "n1,n3,n5"]])
    }

    /// "Create a new parent entity and move properties up": Note gets the
    /// parent Item, which takes `title`; the notes move to Item's table.
    @Test func newParentEntityTakesAProperty() throws {
        let changed = MigrationModels()
        let item = NSEntityDescription(name: "Item")
        item.properties = [NSAttributeDescription(name: "title", type: .stringAttributeType)]
        changed.note.properties = changed.note.ownProperties.filter { $0.name != "title" }
        item.subentities = [changed.note]
        let context = try Self.migrated(to: changed.model([item]))
        #expect(try MigrationModels.rows(context, "Note", Self.noteKeys) == Self.version1Notes)
        #expect(try MigrationModels.rows(context, "Item", ["title"]).count == 6)
        try Self.insertAndSave(context, "Note")
    }

    /// "Move entities out of a hierarchy": a sub-entity becomes a root with its own table.
    @Test func entityMovedOutOfItsHierarchy() throws {
        let v1 = MigrationModels(), v2 = MigrationModels()
        for models in [v1, v2] {
            models.note.properties += [NSAttributeDescription(name: "pinned", type: .booleanAttributeType)]
        }
        let special = NSEntityDescription(name: "Special")
        special.properties = [NSAttributeDescription(name: "level", type: .integer16AttributeType)]
        v1.note.subentities = [special]
        let loose = NSEntityDescription(name: "Special")
        loose.properties = [NSAttributeDescription(name: "level", type: .integer16AttributeType),
                            NSAttributeDescription(name: "title", type: .stringAttributeType)]
        let versions = try MigrationModels.versions(v1.model([special]), v2.model([loose]))
        let url = TestStack.temporaryStoreURL()
        try MigrationModels.writeVersion1(to: url, model: versions[0])
        let writer = try MigrationModels.open(url, versions[0], options: nil)
        try writer.performAndWait { () throws in
            TestStack.insert("Special", into: writer, ["title": "s", "level": Int16(3)])
            try writer.save()
        }
        let context = try MigrationModels.open(url, versions[1])
        #expect(try MigrationModels.rows(context, "Special", ["title", "level"]) == [["s", "3"]])
        #expect(try MigrationModels.rows(context, "Note", ["title"]).count == 6)
    }

    /// A numeric type change converts every value and redeclares the column.
    @Test func numericTypeChangeConvertsTheValues() throws {
        let changed = MigrationModels()
        (changed.property(changed.note, "count") as! NSAttributeDescription).attributeType = .doubleAttributeType
        let context = try Self.migrated(to: changed.model())
        let counts = try context.performAndWait { () throws in
            try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note")).map { $0.value(forKey: "count") }
        }
        #expect(Set(counts.compactMap { $0 as? Double }) == [0, 10, 20, 30, 40, 50])
        let url = try #require(context.persistentStoreCoordinator?.persistentStores.first?.url)
        let type = try DatabaseQueue(path: url.path).read { db in
            try db.columns(in: "ZNOTE").first { $0.name == "ZCOUNT" }?.type
        }
        #expect(type == "FLOAT")
    }

    /// A removed sub-entity's rows go, and so do references to them: a
    /// to-one without inverse becomes nil, many-to-many pairs go.
    @Test func removedSubentityTakesItsReferencesAlong() throws {
        let v1 = MigrationModels(), v2 = MigrationModels()
        for models in [v1, v2] {
            models.folder.properties += [TestStack.relationship("pinned", to: models.note)]
        }
        let special = NSEntityDescription(name: "Special")
        special.properties = [NSAttributeDescription(name: "level", type: .integer16AttributeType)]
        v1.note.subentities = [special]
        let versions = try MigrationModels.versions(v1.model([special]), v2.model())
        let url = TestStack.temporaryStoreURL()
        try MigrationModels.writeVersion1(to: url, model: versions[0])
        let writer = try MigrationModels.open(url, versions[0], options: nil)
        try writer.performAndWait { () throws in
            let fetch = { (entity: String) in try writer.fetch(NSFetchRequest<NSManagedObject>(entityName: entity)) }
            let folders = try fetch("Folder").sorted {
                ($0.value(forKey: "name") as! String) < ($1.value(forKey: "name") as! String)
            }
            let tag = try fetch("Tag").first { $0.value(forKey: "name") as? String == "t0" }!
            let n0 = try fetch("Note").first { $0.value(forKey: "title") as? String == "n0" }!
            let s = TestStack.insert("Special", into: writer, ["title": "s", "folder": folders[0]])
            s.setValue(NSSet(object: tag), forKey: "tags")
            folders[0].setValue(n0, forKey: "pinned")
            folders[1].setValue(s, forKey: "pinned")
            try writer.save()
        }
        let context = try MigrationModels.open(url, versions[1])
        #expect(try MigrationModels.rows(context, "Folder", ["name", "notes", "pinned"])
                    == [["f0", "n0,n2,n4", "n0"], ["f1", "n1,n3,n5", "nil"]])
        #expect(try MigrationModels.rows(context, "Tag", ["name", "notes"]) == [["t0", "n0,n1,n2,n3,n4,n5"],
                                                                                  ["t1", "n0,n3"]])
        // In the file: no key or join row names the removed row.
        let schema = try SQLiteSchema(model: versions[1])
        guard case .joinTable(let join)? = schema.storage(ofRelationship: "tags", ofEntity: "Note") else {
            Issue.record("Note.tags has no join table")
            return
        }
        let (pinned, pairs) = try DatabaseQueue(path: url.path).read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(ZPINNED) FROM ZFOLDER"),
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(join.table)"))
        }
        #expect(pinned == 1 && pairs == 8)
    }

    /// `-com.apple.CoreData.MigrationDebug 1`: the steps and the time, in Core Data's words.
    @Test func migrationDebugLogsTheSteps() throws {
        let capture = SQLDebugLogTests.Capture()
        let (oldLevel, oldLogger) = (CoreDataDebug.migrationDebugLevel, CoreDataDebug.logger)
        CoreDataDebug.migrationDebugLevel = 1
        CoreDataDebug.logger = Logger(label: "test") { _ in SQLDebugLogTests.CapturingHandler(capture: capture) }
        defer { (CoreDataDebug.migrationDebugLevel, CoreDataDebug.logger) = (oldLevel, oldLogger) }
        let changed = MigrationModels()
        changed.note.properties += [NSAttributeDescription(name: "subtitle", type: .stringAttributeType)]
        let url = TestStack.temporaryStoreURL()
        _ = try Self.migrated(to: changed.model(), url: url)
        let lines = capture.all.filter { $0.1["store"] == .string(url.path) }.map(\.0)
        #expect(lines.first == "CoreData: annotation: (migration) will attempt automatic schema migration")
        #expect(lines.contains { $0.hasPrefix("CoreData: annotation: (migration) inferring a mapping model") })
        #expect(lines.last?.hasPrefix("CoreData: annotation: (migration) in-place migration completed successfully in")
                    == true)
    }

    /// The column names of `table` in the file at `url`.
    static func columns(_ url: URL, _ table: String) throws -> [String] {
        try DatabaseQueue(path: url.path).read { db in try db.columns(in: table).map(\.name) }
    }

    /// Inserts an object of `entity` and saves: new primary keys after the migrated ones.
    static func insertAndSave(_ context: NSManagedObjectContext, _ entity: String) throws {
        try context.performAndWait { () throws in
            let object = NSEntityDescription.insertNewObject(forEntityName: entity, into: context)
            try context.save()
            #expect(object.objectID.isTemporaryID == false)
        }
    }
}
