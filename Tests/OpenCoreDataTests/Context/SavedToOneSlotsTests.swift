import Testing
import GRDB
@testable import OpenCoreDataCore

/// A save writes each to-one destination of a saved object into its slot as
/// the destination's ID, and keeps the destination beside the slots, as a
/// fetched object keeps what its to-one slots resolved to: the object's slots
/// are then its saved record, and become its row without a copy
/// (`SavePlan.writeToOnesAsIDs`). When the write fails, the objects get their
/// destinations back, since the IDs the plan gave name no record.
@Suite struct SavedToOneSlotsTests {
    static func saved(_ context: NSManagedObjectContext, _ sql: String) throws -> Int64? {
        try SQLiteStoreTests.raw(SQLiteStoreTests.url(of: context)).read { (db: Database) throws in
            try Int64.fetchOne(db, sql: sql)
        }
    }

    @Test func aSavedObjectsSlotsAreItsRowAndItKeepsItsDestination() throws {
        let context = try TestStack.context(SQLiteStoreTests.model(), .sqlite)
        let thing = TestStack.insert("Thing", into: context, ["name": "t"])
        weak var weakBox: NSManagedObject?
        do {
            let box = TestStack.insert("Box", into: context, ["name": "b"])
            thing.setValue(box, forKey: "box")
            weakBox = box
            try context.save()
        }
        // Only the thing holds the box now (the registry does not retain, the row cache holds IDs).
        let box = try #require(weakBox)
        #expect(thing.value(forKey: "box") as? NSManagedObject === box)
        #expect((box.value(forKey: "things") as? NSOrderedSet)?.array.first as? NSManagedObject === thing)
        #expect(!box.objectID.isTemporaryID)
        let row = try #require(thing.committedRow)
        #expect(thing.values.slots.buffer === row, "the saved slots were copied")
        #expect(try Self.saved(context, "SELECT ZBOX FROM ZTHING") == box.objectID.primaryKey)
        // A change after the save copies the slots; the row keeps what was saved.
        let other = TestStack.insert("Box", into: context, ["name": "c"])
        thing.setValue(other, forKey: "box")
        #expect(thing.values.slots.buffer !== row)
        #expect(thing.changedValues()["box"] as? NSManagedObject === other)
        try context.save()
        #expect(try Self.saved(context, "SELECT ZBOX FROM ZTHING") == other.objectID.primaryKey)
        #expect((box.value(forKey: "things") as? NSOrderedSet)?.count == 0)
    }

    /// The store refuses the record (a unique index the model does not declare), after the plan gave the box a
    /// key: the thing holds the box again, and the save that follows writes the key the box is saved with.
    @Test func aRefusedWriteGivesTheObjectsTheirDestinationsBack() throws {
        let context = try TestStack.context(SQLiteStoreTests.model(), .sqlite)
        _ = TestStack.insert("Thing", into: context, ["name": "taken"])
        try context.save()
        try DatabaseQueue(path: SQLiteStoreTests.url(of: context).path).write { db in
            try db.execute(sql: "CREATE UNIQUE INDEX ZTHING_UNIQUE_NAME ON ZTHING (ZNAME)")
        }
        let box = TestStack.insert("Box", into: context, ["name": "b"])
        let thing = TestStack.insert("Thing", into: context, ["name": "taken", "box": box])
        let slot = try #require(thing.entity.slotLayout.slotsByName["box"])
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.code == NSManagedObjectConstraintMergeError)
        #expect(thing.values.toOne(at: slot).object === box)
        #expect(box.objectID.isTemporaryID && thing.hasChanges && box.hasChanges)
        // The IDs the abandoned plan gave the new objects are gone with it (`SavePlan.abandon()`).
        #expect(box.plannedPermanentID == nil && thing.plannedPermanentID == nil)
        #expect(thing.value(forKey: "box") as? NSManagedObject === box)
        thing.setValue("free", forKey: "name")
        try context.save()
        let key = try #require(box.objectID.primaryKey)
        #expect(key > 1, "the refused save handed out the first key")
        #expect(try Self.saved(context, "SELECT ZBOX FROM ZTHING WHERE ZNAME = 'free'") == key)
        #expect(thing.value(forKey: "box") as? NSManagedObject === box)
        #expect(box.plannedPermanentID == nil && thing.plannedPermanentID == nil, "a committed plan keeps no IDs")
    }

    /// `obtainPermanentIDs(for:)` gives an object listed twice one ID, and takes one key for it: the first
    /// key of a new store, and the next new object's key follows it.
    @Test func obtainingIDsForAnObjectListedTwiceTakesOneKey() throws {
        let context = try TestStack.context(SQLiteStoreTests.model(), .sqlite)
        let box = TestStack.insert("Box", into: context, ["name": "b"])
        try context.obtainPermanentIDs(for: [box, box])
        let key = try #require(box.objectID.primaryKey)
        #expect(key == 1, "listing the object twice took a second key")
        #expect(!box.objectID.isTemporaryID && context.object(with: box.objectID) === box)
        let next = TestStack.insert("Box", into: context, ["name": "c"])
        try context.save()
        #expect(next.objectID.primaryKey == key + 1)
        #expect(box.objectID.primaryKey == key)
    }

    /// A version conflict makes the save plan again, with new keys for the objects it inserts: the object
    /// whose to-one points at one of them must not keep the key of the first plan.
    @Test func aSavePlannedAgainAfterAConflictWritesTheNewKeys() throws {
        let context = try TestStack.context(SQLiteStoreTests.model(), .sqlite)
        context.mergePolicy = NSMergePolicy.mergeByPropertyObjectTrump
        let thing = TestStack.insert("Thing", into: context, ["name": "t"])
        try context.save()
        try DatabaseQueue(path: SQLiteStoreTests.url(of: context).path).write { db in
            try db.execute(sql: "UPDATE ZTHING SET Z_OPT = Z_OPT + 1, ZSMALL = 7")
        }
        let box = TestStack.insert("Box", into: context, ["name": "b"])
        thing.setValue(box, forKey: "box")
        try context.save()
        let key = try #require(box.objectID.primaryKey)
        #expect(key > 1, "the conflicting save was not planned twice")
        #expect(try Self.saved(context, "SELECT ZBOX FROM ZTHING") == key)
        #expect(try Self.saved(context, "SELECT ZSMALL FROM ZTHING") == 7)
        #expect(thing.value(forKey: "box") as? NSManagedObject === box)
    }
}

/// `setValue(_:forKey:)` of a to-one records its change through the set itself (`setDestination`), not
/// `willChangeValue`/`didChangeValue` around it; a set to the destination the object has is still a
/// change, as in Core Data, whose generated setters call them for any set.
@Suite struct ToOneSetChangeTests {
    @Test func aToOneSetRecordsTheChangeAndASetToTheSameDestinationCountsToo() throws {
        let context = try TestStack.context(SQLiteStoreTests.model(), .sqlite)
        let box = TestStack.insert("Box", into: context, ["name": "b"])
        let thing = TestStack.insert("Thing", into: context, ["name": "t", "box": box])
        try context.save()
        #expect(!thing.hasChanges && !box.hasChanges)

        thing.setValue(box, forKey: "box")
        #expect(thing.isUpdated && context.updatedObjects == [thing])
        #expect(thing.changedValues().isEmpty, "nothing differs from the saved values")
        #expect(!box.hasChanges, "the inverse did not change")
        context.rollback()

        let other = TestStack.insert("Box", into: context, ["name": "c"])
        thing.setValue(other, forKey: "box")
        #expect(thing.isUpdated && box.isUpdated && other.isInserted)
        #expect(thing.changedValues()["box"] as? NSManagedObject === other)
        #expect(thing.changedValuesForCurrentEvent()["box"] as? NSManagedObject === other)
        #expect((box.value(forKey: "things") as? NSOrderedSet)?.count == 0)
        #expect((other.value(forKey: "things") as? NSOrderedSet)?.array.first as? NSManagedObject === thing)
        try context.save()
        #expect(try SavedToOneSlotsTests.saved(context, "SELECT ZBOX FROM ZTHING") == other.objectID.primaryKey)
    }
}
