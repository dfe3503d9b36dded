import Foundation
import Testing
@testable import OpenCoreDataCore

/// Uniqueness constraints at save, resolved by the merge policies.
///
/// Facts: a save checks the constraints, not an insert; with the default NSErrorMergePolicy the save fails with
/// NSManagedObjectConstraintMergeError (133021) and the NSConstraintConflicts under "conflictList"
/// (https://dorianroy.com/blog/2015/09/how-to-implement-unique-constraints-in-core-data-with-ios-9/ ; the
/// Stack Overflow answer quoted at https://exchangetuts.com/how-to-implement-the-new-core-data-model-builder-unique-
/// property-in-ios-90-beta-1640304423917627). A context-level conflict has no database object and several
/// conflicting objects; a database-level one has the stored record's object and snapshot and one conflicting object
/// (https://developer.apple.com/documentation/coredata/nsconstraintconflict ; coredata-behaviour.md §3).
/// NSMergeByPropertyObjectTrumpMergePolicy keeps the stored object and gives it the new object's values, nil ones
/// included, and its to-many destinations added to the stored ones: what code written for Apple's policy relies on
/// (rileytestut/Roxas RSTRelationshipPreservingMergePolicy.m restores to-one values the policy set to nil on the
/// database object; AltStore's MergePolicy.swift deletes the database object's old to-many destinations before
/// calling super, because they would otherwise stay).
@Suite struct UniquenessConstraintTests {
    /// Albums unique by name, photos unique by name and path together.
    private static func model() -> NSManagedObjectModel {
        let model = TestStack.albumsModel()
        model.entitiesByName["Album"]!.uniquenessConstraints = [["name"]]
        model.entitiesByName["Photo"]!.uniquenessConstraints = [["name", "path"]]
        return model
    }

    /// A context whose store holds album "a" (sheets 1) with photos p1 and p2; the context is reset.
    private static func storedAlbum(_ kind: TestStack.StoreKind) throws -> (NSManagedObjectContext, NSManagedObjectID) {
        let context = try TestStack.context(model(), kind)
        let id = try context.performAndWait { () throws in
            let album = TestStack.insert("Album", into: context, ["name": "a", "sheets": Int32(1)])
            for name in ["p1", "p2"] { TestStack.insert("Photo", into: context, ["name": name, "album": album]) }
            try context.save()
            context.reset()
            return album.objectID
        }
        return (context, id)
    }

    /// The albums a fresh context reads: name → (sheets, photo names).
    private static func stored(_ context: NSManagedObjectContext) throws -> [String: (Int32?, [String])] {
        let reader = try TestStack.reader(of: context)
        return try reader.performAndWait {
            var result: [String: (Int32?, [String])] = [:]
            for album in try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album")) {
                result[album.value(forKey: "name") as? String ?? "nil"] =
                    (album.value(forKey: "sheets") as? Int32, TestStack.names(TestStack.set(album, "photos")).sorted())
            }
            return result
        }
    }

    private static func photoCount(_ context: NSManagedObjectContext) throws -> Int {
        let reader = try TestStack.reader(of: context)
        return try reader.performAndWait { try reader.count(for: NSFetchRequest<NSManagedObject>(entityName: "Photo")) }
    }

    private static func conflicts(_ error: NSError) -> [NSConstraintConflict] {
        error.userInfo["conflictList"] as? [NSConstraintConflict] ?? []
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func twoNewObjectsWithTheSameValuesFailTheSaveWithAContextLevelConflict(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(Self.model(), kind)
        try context.performAndWait { () throws in
            let one = TestStack.insert("Album", into: context, ["name": "a"])
            let two = TestStack.insert("Album", into: context, ["name": "a"])
            let error = try #require(throws: NSError.self) { try context.save() }
            #expect(error.domain == NSCocoaErrorDomain && error.code == NSManagedObjectConstraintMergeError)
            #expect(error.localizedDescription.contains("Album (name = a)"))
            let conflicts = Self.conflicts(error)
            try #require(conflicts.count == 1)
            #expect(conflicts[0].databaseObject == nil && conflicts[0].databaseSnapshot == nil)
            #expect(conflicts[0].conflictingObjects == [one, two])
            #expect(conflicts[0].constraint == ["name"])
            #expect(conflicts[0].constraintValues["name"] as? String == "a")
            #expect(conflicts[0].conflictingSnapshots.allSatisfy { $0.isEmpty })
            // Nothing was saved; the context keeps its changes.
            #expect(context.insertedObjects.count == 2)
        }
        #expect(try Self.stored(context).isEmpty)
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func aNewObjectWithAStoredRecordsValuesFailsTheSaveWithADatabaseLevelConflict(kind: TestStack.StoreKind) throws {
        let (context, storedID) = try Self.storedAlbum(kind)
        try context.performAndWait { () throws in
            let new = TestStack.insert("Album", into: context, ["name": "a", "sheets": Int32(5)])
            let error = try #require(throws: NSError.self) { try context.save() }
            #expect(error.code == NSManagedObjectConstraintMergeError)
            let conflicts = Self.conflicts(error)
            try #require(conflicts.count == 1)
            #expect(conflicts[0].databaseObject?.objectID == storedID)
            #expect(conflicts[0].databaseSnapshot?["name"] as? String == "a")
            #expect(conflicts[0].databaseSnapshot?["sheets"] as? Int32 == 1)
            #expect(conflicts[0].conflictingObjects == [new])
        }
        #expect(try Self.stored(context)["a"]?.0 == 1)
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func objectTrumpGivesTheStoredObjectTheNewValuesAndRelationships(kind: TestStack.StoreKind) throws {
        let (context, storedID) = try Self.storedAlbum(kind)
        try context.performAndWait { () throws in
            context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
            let new = TestStack.insert("Album", into: context, ["name": "a", "sheets": Int32(5)])
            TestStack.insert("Photo", into: context, ["name": "p3", "album": new])
            try context.save()
            #expect(new.isDeleted || new.managedObjectContext == nil)
            let survivor = context.object(with: storedID)
            #expect(survivor.value(forKey: "sheets") as? Int32 == 5)
        }
        let albums = try Self.stored(context)
        #expect(albums.count == 1)
        #expect(albums["a"]?.0 == 5)
        #expect(albums["a"]?.1 == ["p1", "p2", "p3"])
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func objectTrumpCopiesNilValuesToo(kind: TestStack.StoreKind) throws {
        let (context, _) = try Self.storedAlbum(kind)
        try context.performAndWait { () throws in
            context.mergePolicy = NSMergePolicy.mergeByPropertyObjectTrump
            TestStack.insert("Album", into: context, ["name": "a"])
            try context.save()
        }
        #expect(try Self.stored(context)["a"]?.0 == nil)
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func storeTrumpKeepsTheStoredValuesAndGainsTheNewRelationships(kind: TestStack.StoreKind) throws {
        let (context, _) = try Self.storedAlbum(kind)
        try context.performAndWait { () throws in
            context.mergePolicy = NSMergeByPropertyStoreTrumpMergePolicy
            let new = TestStack.insert("Album", into: context, ["name": "a", "sheets": Int32(5)])
            TestStack.insert("Photo", into: context, ["name": "p3", "album": new])
            try context.save()
        }
        let albums = try Self.stored(context)
        #expect(albums["a"]?.0 == 1)
        #expect(albums["a"]?.1 == ["p1", "p2", "p3"])
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func overwriteReplacesTheStoredValuesAndToManyRelationships(kind: TestStack.StoreKind) throws {
        let (context, _) = try Self.storedAlbum(kind)
        try context.performAndWait { () throws in
            context.mergePolicy = NSOverwriteMergePolicy
            let new = TestStack.insert("Album", into: context, ["name": "a", "sheets": Int32(5)])
            TestStack.insert("Photo", into: context, ["name": "p3", "album": new])
            try context.save()
        }
        let albums = try Self.stored(context)
        #expect(albums["a"]?.0 == 5)
        #expect(albums["a"]?.1 == ["p3"])
        #expect(try Self.photoCount(context) == 3) // p1 and p2 are kept, without an album
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func rollbackDiscardsTheNewObjectWithItsDeleteRules(kind: TestStack.StoreKind) throws {
        let (context, _) = try Self.storedAlbum(kind)
        try context.performAndWait { () throws in
            context.mergePolicy = NSRollbackMergePolicy
            let new = TestStack.insert("Album", into: context, ["name": "a", "sheets": Int32(5)])
            TestStack.insert("Photo", into: context, ["name": "p3", "album": new])
            try context.save()
        }
        let albums = try Self.stored(context)
        #expect(albums["a"]?.0 == 1)
        #expect(albums["a"]?.1 == ["p1", "p2"])
        #expect(try Self.photoCount(context) == 2) // the new album's photos cascaded with it
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func objectTrumpBetweenNewObjectsKeepsTheFirstWithTheLastOnesValues(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(Self.model(), kind)
        try context.performAndWait { () throws in
            context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
            let first = TestStack.insert("Album", into: context, ["name": "a", "sheets": Int32(1)])
            let second = TestStack.insert("Album", into: context, ["name": "a", "sheets": Int32(2)])
            TestStack.insert("Photo", into: context, ["name": "p1", "album": first])
            TestStack.insert("Photo", into: context, ["name": "p2", "album": second])
            try context.save()
            #expect(first.managedObjectContext === context && !first.isDeleted)
            #expect(second.managedObjectContext == nil || second.isDeleted)
        }
        let albums = try Self.stored(context)
        #expect(albums.count == 1)
        #expect(albums["a"]?.0 == 2)
        #expect(albums["a"]?.1 == ["p1", "p2"])
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func missingValuesConflictWithNothing(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(Self.model(), kind)
        try context.performAndWait { () throws in
            TestStack.insert("Album", into: context)
            TestStack.insert("Album", into: context)
            TestStack.insert("Photo", into: context, ["name": "x"])
            TestStack.insert("Photo", into: context, ["name": "x"])
            try context.save()
        }
        #expect(try Self.photoCount(context) == 2)
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func aCompoundConstraintConflictsOnlyWhenAllValuesAreShared(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(Self.model(), kind)
        try context.performAndWait { () throws in
            TestStack.insert("Photo", into: context, ["name": "x", "path": "/1"])
            TestStack.insert("Photo", into: context, ["name": "x", "path": "/2"])
            try context.save()
            TestStack.insert("Photo", into: context, ["name": "x", "path": "/2"])
            let error = try #require(throws: NSError.self) { try context.save() }
            let conflicts = Self.conflicts(error)
            #expect(conflicts.count == 1 && conflicts[0].constraint == ["name", "path"])
            #expect(conflicts[0].databaseSnapshot?["path"] as? String == "/2")
        }
        #expect(try Self.photoCount(context) == 2)
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func aValueGivenUpInTheSameSaveIsFree(kind: TestStack.StoreKind) throws {
        let (context, storedID) = try Self.storedAlbum(kind)
        try context.performAndWait { () throws in
            context.object(with: storedID).setValue("renamed", forKey: "name")
            TestStack.insert("Album", into: context, ["name": "a", "sheets": Int32(7)])
            try context.save()
        }
        let albums = try Self.stored(context)
        #expect(albums["renamed"]?.0 == 1 && albums["a"]?.0 == 7)
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func renamingAStoredObjectOntoAnotherOnesValueConflicts(kind: TestStack.StoreKind) throws {
        let (context, storedID) = try Self.storedAlbum(kind)
        try context.performAndWait { () throws in
            TestStack.insert("Album", into: context, ["name": "b"])
            try context.save()
            let b = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album"))
                .first { $0.value(forKey: "name") as? String == "b" }!
            b.setValue("a", forKey: "name")
            let error = try #require(throws: NSError.self) { try context.save() }
            let conflicts = Self.conflicts(error)
            #expect(conflicts.first?.databaseObject?.objectID == storedID)
            #expect(conflicts.first?.conflictingObjects == [b])
        }
    }

    /// A policy as apps write them (w2p's CustomMergePolicy): keep the stored values where the new object has
    /// none, then let object trump do the rest.
    private final class KeepingStoredValuesPolicy: NSMergePolicy, @unchecked Sendable {
        nonisolated(unsafe) var seen: [NSConstraintConflict] = []

        init() { super.init(merge: .mergeByPropertyObjectTrumpMergePolicyType) }

        override func resolve(constraintConflicts list: [NSConstraintConflict]) throws {
            seen += list
            for conflict in list {
                guard let database = conflict.databaseObject else { continue }
                for object in conflict.conflictingObjects {
                    for key in object.entity.attributesByName.keys where object.value(forKey: key) == nil {
                        object.setValue(database.value(forKey: key), forKey: key)
                    }
                }
            }
            try super.resolve(constraintConflicts: list)
        }
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func aSubclassResolvesConstraintConflictsThroughItsOverride(kind: TestStack.StoreKind) throws {
        let (context, _) = try Self.storedAlbum(kind)
        let policy = KeepingStoredValuesPolicy()
        try context.performAndWait { () throws in
            context.mergePolicy = policy
            TestStack.insert("Album", into: context, ["name": "a"])
            try context.save()
        }
        #expect(policy.seen.count == 1)
        #expect(try Self.stored(context)["a"]?.0 == 1)
    }

    /// What another coordinator stored between the check and the write is refused by the store itself (SQLite's
    /// unique index; the in-memory store's own check), so a race never stores a duplicate.
    @Test(arguments: TestStack.StoreKind.allCases)
    func theStoreRefusesADuplicateItIsHandedDirectly(kind: TestStack.StoreKind) throws {
        let (context, _) = try Self.storedAlbum(kind)
        let coordinator = try #require(context.persistentStoreCoordinator)
        let store = coordinator.persistentStores[0]
        let entity = try #require(coordinator.managedObjectModel.entitiesByName["Album"])
        let pk = try store.newPrimaryKeys(for: entity, count: 1)[0]
        var changes = StoreChangeSet()
        changes.inserted = [StoreSnapshot(objectID: store.objectID(for: entity, primaryKey: pk),
                                          attributes: ["name": "a"])]
        #expect(throws: StoreConstraintViolation.self) { try store.save(changes) }
        #expect(try Self.stored(context).count == 1)
    }
}
