import Testing
import GRDB
@testable import OpenCoreDataCore
import TestScratch

/// The SQLite store on its own: the file it creates, how values are written,
/// keys handed out, options, metadata and model compatibility.
@Suite struct SQLiteStoreTests {
    /// Thing (every attribute type) with sub-entity Gadget; Box ⟷ Thing ordered.
    static func model() -> NSManagedObjectModel {
        let thing = NSEntityDescription(name: "Thing"), gadget = NSEntityDescription(name: "Gadget"), box = NSEntityDescription(name: "Box")
        thing.subentities = [gadget]
        let things = TestStack.relationship("things", to: thing, toMany: true, ordered: true)
        let boxOf = TestStack.relationship("box", to: box)
        TestStack.pair(things, boxOf)
        let blob = TestStack.attribute("blob", .transformableAttributeType)
        thing.properties = [
            TestStack.attribute("name", .stringAttributeType), TestStack.attribute("small", .integer16AttributeType),
            TestStack.attribute("medium", .integer32AttributeType), TestStack.attribute("large", .integer64AttributeType),
            TestStack.attribute("ratio", .doubleAttributeType), TestStack.attribute("single", .floatAttributeType),
            TestStack.attribute("price", .decimalAttributeType), TestStack.attribute("flag", .booleanAttributeType),
            TestStack.attribute("when", .dateAttributeType), TestStack.attribute("bytes", .binaryDataAttributeType),
            TestStack.attribute("uuid", .UUIDAttributeType), TestStack.attribute("link", .URIAttributeType), blob, boxOf,
        ]
        gadget.properties = [TestStack.attribute("power", .integer32AttributeType)]
        box.properties = [TestStack.attribute("name", .stringAttributeType), things]
        let model = NSManagedObjectModel()
        model.entities = [box, thing, gadget]
        return model
    }

    static func raw(_ url: URL) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        return try DatabaseQueue(path: url.path, configuration: configuration)
    }

    static func url(of context: NSManagedObjectContext) -> URL {
        context.persistentStoreCoordinator!.persistentStores[0].url!
    }

    @Test func firstOpenCreatesCoreDataLayoutAndMetadata() throws {
        let context = try TestStack.context(Self.model(), .sqlite)
        let url = Self.url(of: context)
        let store = context.persistentStoreCoordinator!.persistentStores[0]
        try Self.raw(url).read { (db: Database) throws in
            #expect(try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal")
            #expect(try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") == 2)
            let keys = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
            #expect(keys.map { [$0[0], $0[1], $0[2], $0[3]] as [DatabaseValue] }
                == [[1, "Box", 0, 0], [2, "Thing", 0, 0], [3, "Gadget", 2, 0]].map { $0.map { ($0 as! DatabaseValueConvertible).databaseValue } })
            #expect(try String.fetchOne(db, sql: "SELECT Z_UUID FROM Z_METADATA") == store.identifier)
            #expect(try db.tableExists("ZTHING") && db.tableExists("ZBOX") && db.tableExists("Z_MODELCACHE"))
        }
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
        #expect(metadata[NSStoreTypeKey] as? String == "SQLite")
        #expect(metadata[NSStoreUUIDKey] as? String == store.identifier)
        #expect(metadata["NSStoreModelVersionHashesVersion"] as? Int == 3)
        #expect(metadata["_NSAutoVacuumLevel"] as? String == "2")
        #expect(metadata["NSStoreModelVersionIdentifiers"] as? [String] == [""])
        #expect((metadata[NSStoreModelVersionHashesKey] as? [String: Data])?.keys.sorted() == ["Box", "Gadget", "Thing"])
    }

    /// A file another program made, in WAL mode and without tables, has its header written with no
    /// auto-vacuum: the store vacuums it to make it incremental, as a file the store made itself is.
    @Test func anEmptyFileWrittenInWALModeBecomesIncremental() throws {
        let url = ScratchDirectory.url("empty-wal-\(UUID().uuidString).sqlite")
        try DatabaseQueue(path: url.path).writeWithoutTransaction { (db: Database) throws in
            #expect(try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal")
            #expect(try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") == 0)
        }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        try Self.raw(url).read { (db: Database) throws in
            #expect(try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") == 2)
            #expect(try db.tableExists("ZTHING"))
        }
    }

    @Test func valuesAreStoredAsCoreDataStoresThem() throws {
        let context = try TestStack.context(Self.model(), .sqlite)
        let date = Date(timeIntervalSinceReferenceDate: 767_991_550.119_197)
        let uuid = UUID()
        let values: [String: Any] = [
            "name": "Zoë", "small": Int16(-3), "medium": Int32(70_000), "large": Int64.max, "ratio": 0.25, "single": Float(1.5),
            "price": Decimal(string: "12.34")!, "flag": true, "when": date, "bytes": Data([0, 1, 2]), "uuid": uuid,
            "link": URL(string: "https://example.com/a?b=c")!, "blob": Data([9, 9]),
        ]
        let thing = TestStack.insert("Thing", into: context, values)
        try context.save()
        let pk = try #require(thing.objectID.primaryKey)
        try Self.raw(Self.url(of: context)).read { (db: Database) throws in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM ZTHING WHERE Z_PK = ?", arguments: [pk]))
            #expect(row["Z_ENT"] as Int == 2 && row["Z_OPT"] as Int == 1)
            #expect(row["ZWHEN"] as Double == 767_991_550.119_197)
            #expect(row["ZFLAG"] as Int == 1)
            #expect(row["ZUUID"] as Data == withUnsafeBytes(of: uuid.uuid) { Data($0) })
            #expect(row["ZLINK"] as String == "https://example.com/a?b=c")
            #expect(row["ZBYTES"] as Data == Data([0, 1, 2]))
            #expect(row["ZLARGE"] as Int64 == Int64.max)
            // Each kind SQLiteSlotBinding binds straight from the slot, sign and width kept.
            #expect(row["ZSMALL"] as Int64 == -3 && row["ZMEDIUM"] as Int64 == 70_000)
            #expect(row["ZRATIO"] as Double == 0.25 && row["ZSINGLE"] as Double == 1.5)
            #expect(try Int.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Thing'") == 1)
        }
        let reader = try TestStack.reader(of: context)
        let loaded = try #require(try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Thing")).first)
        for (key, value) in values {
            #expect(ValueEquality.equal(loaded.value(forKey: key), value), "\(key)")
        }
    }

    @Test func subEntitiesShareTheRootTableAndItsKeys() throws {
        let context = try TestStack.context(Self.model(), .sqlite)
        let plain = TestStack.insert("Thing", into: context, ["name": "plain"])
        let gadget = TestStack.insert("Gadget", into: context, ["name": "gadget", "power": 7])
        try context.save()
        #expect(Set([plain.objectID.primaryKey, gadget.objectID.primaryKey]) == [1, 2])
        let reader = try TestStack.reader(of: context)
        #expect(try reader.count(for: NSFetchRequest<NSManagedObject>(entityName: "Thing")) == 2)
        let onlyThings = NSFetchRequest<NSManagedObject>(entityName: "Thing")
        onlyThings.includesSubentities = false
        #expect(try reader.fetch(onlyThings).map(\.entity.name) == ["Thing"])
        let gadgets = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Gadget"))
        #expect(gadgets.map { $0.value(forKey: "power") as? Int32 } == [7])
        try Self.raw(Self.url(of: context)).read { (db: Database) throws in
            #expect(try Int.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Thing'") == 2)
            #expect(try Int.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Gadget'") == 0)
        }
    }

    @Test func orderedToManyKeepsOrderInMultiplesOf1024() throws {
        let context = try TestStack.context(Self.model(), .sqlite)
        let box = TestStack.insert("Box", into: context, ["name": "box"])
        let names = ["c", "a", "d", "b"]
        for name in names { box.mutableOrderedSetValue(forKey: "things").add(TestStack.insert("Thing", into: context, ["name": name])) }
        try context.save()
        try Self.raw(Self.url(of: context)).read { (db: Database) throws in
            #expect(try Int.fetchAll(db, sql: "SELECT Z_FOK_BOX FROM ZTHING ORDER BY Z_FOK_BOX") == [1024, 2048, 3072, 4096])
        }
        let things = box.mutableOrderedSetValue(forKey: "things")
        things.moveObjects(at: IndexSet(integer: 3), to: 0)
        try context.save()
        let reader = try TestStack.reader(of: context)
        let loaded = try #require(try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Box")).first)
        let order = (loaded.value(forKey: "things") as! NSOrderedSet).array.map { ($0 as! NSManagedObject).value(forKey: "name") as! String }
        #expect(order == ["b", "c", "a", "d"])
    }

    @Test func updatesBumpZOPTAndDeletesRemoveRows() throws {
        let context = try TestStack.context(Self.model(), .sqlite)
        let thing = TestStack.insert("Thing", into: context, ["name": "one"])
        try context.save()
        thing.setValue("two", forKey: "name")
        try context.save()
        let pk = thing.objectID.primaryKey!
        try Self.raw(Self.url(of: context)).read { (db: Database) throws in
            #expect(try Row.fetchOne(db, sql: "SELECT Z_OPT, ZNAME FROM ZTHING WHERE Z_PK = ?", arguments: [pk]).map { [$0[0], $0[1]] as [DatabaseValue] } == [2.databaseValue, "two".databaseValue])
        }
        context.delete(thing)
        try context.save()
        try Self.raw(Self.url(of: context)).read { (db: Database) throws in #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZTHING") == 0) }
    }

    /// A save that fails part-way (a value the store cannot write comes last)
    /// leaves the file as it was: none of its rows, keys or versions.
    @Test func failedSaveLeavesTheFileAsBefore() throws {
        let context = try TestStack.context(Self.model(), .sqlite)
        let kept = TestStack.insert("Thing", into: context, ["name": "kept"])
        try context.save()
        kept.setValue("changed", forKey: "name")
        for index in 0..<20 { _ = TestStack.insert("Thing", into: context, ["name": "new \(index)"]) }
        _ = TestStack.insert("Thing", into: context, ["name": "bad", "blob": NSObject()])
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.domain == NSCocoaErrorDomain && error.code == NSPersistentStoreSaveError)
        let reader = try TestStack.reader(of: context)
        let stored = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Thing"))
        #expect(stored.map { $0.value(forKey: "name") as? String } == ["kept"])
        try Self.raw(Self.url(of: context)).read { (db: Database) throws in
            #expect(try Int.fetchOne(db, sql: "SELECT Z_OPT FROM ZTHING") == 1)
        }
    }

    @Test func incompatibleModelThrows134100WithoutTouchingTheFile() throws {
        let context = try TestStack.context(Self.model(), .sqlite)
        _ = TestStack.insert("Thing", into: context, ["name": "one"])
        try context.save()
        let url = Self.url(of: context)
        let before = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)

        let changed = Self.model()
        changed.entitiesByName["Box"]!.properties.append(TestStack.attribute("color", .stringAttributeType))
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: changed)
        let error = try #require(throws: NSError.self) { try coordinator.addPersistentStore(type: .sqlite, at: url) }
        #expect(error.domain == NSCocoaErrorDomain && error.code == NSPersistentStoreIncompatibleVersionHashError)
        #expect((error.userInfo["metadata"] as? [String: Any])?[NSStoreUUIDKey] as? String == before[NSStoreUUIDKey] as? String)
        #expect(coordinator.persistentStores.isEmpty)
        let after = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        #expect(NSDictionary(dictionary: after).isEqual(to: before))
    }

    @Test func metadataSetByTheApplicationPersistsAtSave() throws {
        let context = try TestStack.context(Self.model(), .sqlite)
        let coordinator = context.persistentStoreCoordinator!
        let store = coordinator.persistentStores[0]
        var metadata = coordinator.metadata(for: store)
        metadata["AppVersion"] = "1.2"
        coordinator.setMetadata(metadata, for: store)
        try context.save() // nothing changed but metadata: still written
        _ = TestStack.insert("Box", into: context, ["name": "b"])
        try context.save()
        let read = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: store.url!)
        #expect(read["AppVersion"] as? String == "1.2")
        #expect(read[NSStoreUUIDKey] as? String == store.identifier)
    }

    @Test func optionsPragmasReadOnlyAndTimeout() throws {
        let url = TestStack.temporaryStoreURL()
        let model = Self.model()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: [
            NSSQLitePragmasOption: ["journal_mode": "DELETE", "synchronous": "OFF"], NSPersistentStoreTimeoutOption: 5,
        ])
        try Self.raw(url).read { (db: Database) throws in #expect(try String.fetchOne(db, sql: "PRAGMA journal_mode") == "delete") }
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        _ = TestStack.insert("Box", into: context, ["name": "b"])
        try context.save()

        let readOnly = NSPersistentStoreCoordinator(managedObjectModel: model)
        try readOnly.addPersistentStore(type: .sqlite, at: url, options: [NSReadOnlyPersistentStoreOption: true])
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = readOnly
        #expect(try reader.count(for: NSFetchRequest<NSManagedObject>(entityName: "Box")) == 1)
        _ = TestStack.insert("Box", into: reader, ["name": "refused"])
        #expect(throws: NSError.self) { try reader.save() }

        let bad = NSPersistentStoreCoordinator(managedObjectModel: model)
        #expect(throws: NSError.self) {
            try bad.addPersistentStore(type: .sqlite, at: url, options: [NSSQLitePragmasOption: ["journal_mode": "WAL; DROP TABLE ZBOX"]])
        }
        #expect(throws: NSError.self) {
            try bad.addPersistentStore(type: .sqlite, at: TestStack.temporaryStoreURL(), options: [NSReadOnlyPersistentStoreOption: true])
        }
    }
}

extension SQLiteStoreTests {
    /// count(for:) counts in SQL with the predicate, entity range and window,
    /// and agrees with the fetch; with unsaved changes the context counts.
    @Test func countsInSQL() throws {
        let context = try TestStack.context(Self.model(), .sqlite)
        for index in 0..<30 { _ = TestStack.insert(index % 3 == 0 ? "Gadget" : "Thing", into: context, ["name": "n\(index)", "large": Int64(index)]) }
        try context.save()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Thing")
        #expect(try context.count(for: request) == 30)
        request.predicate = NSPredicate(format: "large >= 10 AND name BEGINSWITH 'n'")
        #expect(try context.count(for: request) == 20)
        request.fetchOffset = 15
        request.fetchLimit = 10
        #expect(try context.count(for: request) == 5 && context.fetch(request).count == 5)
        request.includesSubentities = false
        request.fetchOffset = 0
        request.fetchLimit = 0
        #expect(try context.count(for: request) == context.fetch(request).count)
        _ = TestStack.insert("Thing", into: context, ["name": "n99", "large": Int64(99)])
        #expect(try context.count(for: request) == 15) // 14 saved Things from 10 on, and the unsaved one
    }
}

extension SQLiteStoreTests {
    /// With fetchBatchSize the fetch reads no records; the first fault of a
    /// batch reads the batch, the others are served from it.
    @Test func batchedFaultsReadOneBatchAtATime() throws {
        let context = try TestStack.context(Self.model(), .sqlite)
        for index in 0..<1000 { _ = TestStack.insert("Thing", into: context, ["name": "n\(index)", "large": Int64(index)]) }
        try context.save()
        let reader = try TestStack.reader(of: context)
        let store = try #require(reader.persistentStoreCoordinator?.persistentStores.first as? SQLiteStore)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Thing")
        request.sortDescriptors = [NSSortDescriptor(key: "large", ascending: true)]
        request.fetchBatchSize = 100
        let things = try reader.fetch(request)
        #expect(things.count == 1000 && things.allSatisfy(\.isFault) && store.waitingRecordCount == 0)
        #expect(things[0].value(forKey: "large") as? Int64 == 0)
        #expect(store.waitingRecordCount == 99)
        #expect(things[1].value(forKey: "name") as? String == "n1" && store.waitingRecordCount == 98)
        #expect(things[500].value(forKey: "large") as? Int64 == 500 && store.waitingRecordCount == 99)
        #expect(things.map { $0.value(forKey: "large") as? Int64 } == (0..<1000).map { Int64($0) })

        // Without a batch size the fetch reads every record at once and hands
        // each to its fault: firing them all reads nothing more.
        reader.reset()
        request.fetchBatchSize = 0
        let all = try reader.fetch(request)
        let before = store.recordQueryCount
        #expect(all.allSatisfy(\.isFault) && store.waitingRecordCount == 0)
        #expect(all.map { $0.value(forKey: "large") as? Int64 } == (0..<1000).map { Int64($0) })
        #expect(store.recordQueryCount == before)
    }
}

extension SQLiteStoreTests {
    @Test func metadataOfAFileWithoutAddingIt() throws {
        let context = try TestStack.context(Self.model(), .sqlite)
        let url = Self.url(of: context)
        var metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        let uuid = metadata[NSStoreUUIDKey] as? String
        metadata["Note"] = "written from outside"
        metadata[NSStoreUUIDKey] = nil
        try NSPersistentStoreCoordinator.setMetadata(metadata, forPersistentStoreOfType: NSSQLiteStoreType, at: url)
        let read = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        #expect(read["Note"] as? String == "written from outside" && read[NSStoreUUIDKey] as? String == uuid)
        let missing = TestStack.temporaryStoreURL()
        let error = try #require(throws: NSError.self) { try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: missing) }
        #expect(error.code == CocoaError.fileReadNoSuchFile.rawValue)
    }
}

extension SQLiteStoreTests {
    /// A store in a new file that waits 0.2 s for a lock held elsewhere
    /// (NSPersistentStoreTimeoutOption), and a second connection to the file
    /// that can hold a transaction across calls.
    static func storeWithOtherConnection() throws -> (NSPersistentStoreCoordinator, DatabaseQueue) {
        let url = TestStack.temporaryStoreURL()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model())
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: [NSPersistentStoreTimeoutOption: 0.2])
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        return (coordinator, try DatabaseQueue(path: url.path, configuration: configuration))
    }

    /// A save waits NSPersistentStoreTimeoutOption seconds for a lock held
    /// elsewhere, then fails with 134090 and changes nothing.
    @Test func lockedFileTimesOut() throws {
        let (coordinator, other) = try Self.storeWithOtherConnection()
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try other.inDatabase { try $0.execute(sql: "BEGIN IMMEDIATE") }
        _ = TestStack.insert("Box", into: context, ["name": "waits"])
        let start = Date()
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.code == NSPersistentStoreTimeoutError && Date().timeIntervalSince(start) >= 0.2)
        try other.inDatabase { try $0.execute(sql: "ROLLBACK") }
        try context.save()
        #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Box")) == 1)
    }
}

extension SQLiteStoreTests {
    /// The record operations read on the pool's writer connection between
    /// the coordinator's operations (SQLiteStore.readOneQuery). In WAL mode
    /// such a read neither waits for another connection's open write
    /// transaction nor sees it, and a read leaves no statement open that
    /// would keep the connection on an old state of the file: after the
    /// other connection commits, fetches, counts and faults see its rows.
    @Test func readsSeeCommittedRowsWhileAnotherConnectionWrites() throws {
        // A read that waited for the other connection's lock would fail after 0.2 s (134090).
        let (coordinator, other) = try Self.storeWithOtherConnection()
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let id = try context.performAndWait {
            let box = TestStack.insert("Box", into: context, ["name": "before"])
            try context.save()
            return box.objectID
        }
        try other.inDatabase { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            try db.execute(sql: "UPDATE ZBOX SET ZNAME = 'after', Z_OPT = Z_OPT + 1")
            try db.execute(sql: """
                INSERT INTO ZBOX (Z_PK, Z_ENT, Z_OPT, ZNAME) SELECT MAX(Z_PK) + 1, Z_ENT, 1, 'second' FROM ZBOX
                """)
        }
        func names(_ context: NSManagedObjectContext) throws -> [String] {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Box")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            request.returnsObjectsAsFaults = false
            return try context.fetch(request).map { $0.value(forKey: "name") as! String }
        }
        let during = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        during.persistentStoreCoordinator = coordinator
        let seenDuring = try during.performAndWait {
            (try names(during), try during.count(for: NSFetchRequest<NSManagedObject>(entityName: "Box")))
        }
        #expect(seenDuring.0 == ["before"] && seenDuring.1 == 1)
        try other.inDatabase { try $0.execute(sql: "COMMIT") }
        let after = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        after.persistentStoreCoordinator = coordinator
        let seenAfter = try after.performAndWait {
            (try names(after), try after.count(for: NSFetchRequest<NSManagedObject>(entityName: "Box")))
        }
        #expect(seenAfter.0 == ["after", "second"] && seenAfter.1 == 2)
        // A fault fired alone reads the committed row too (the row cache holds the newer version now).
        let faulting = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        faulting.persistentStoreCoordinator = coordinator
        let fault = faulting.performAndWait {
            let box = faulting.object(with: id)
            return (box.isFault, box.value(forKey: "name") as? String)
        }
        #expect(fault.0 && fault.1 == "after")
    }
}
