import Foundation
import Testing
@testable import OpenCoreDataCore

/// Optimistic locking and the five merge policies. Two contexts read the
/// same album; one saves a change, then the other saves its own. Facts from
/// Apple's documentation (coredata-wave2.md §4.2–4.3): NSErrorMergePolicy is
/// the default and fails the save with 133020 and the NSMergeConflicts under
/// NSPersistentStoreSaveConflictsErrorKey; the by-property policies merge
/// property by property (store trump: external changes win; object trump:
/// in-memory changes win); overwrite saves the whole in-memory object;
/// rollback discards the in-memory changes of the conflicting objects; a
/// conflict's newVersionNumber is 0 when the record was deleted.
@Suite struct MergePolicyTests {
    /// Two sibling contexts that both read album "a" (sheets 1) at version 1.
    private typealias Readers = (first: NSManagedObjectContext, second: NSManagedObjectContext,
                                 albums: (NSManagedObject, NSManagedObject))

    private static func twoReaders(_ kind: TestStack.StoreKind) throws -> Readers {
        let first = try TestStack.context(TestStack.albumsModel(), kind)
        try first.performAndWait { () throws in
            TestStack.insert("Album", into: first, ["name": "a", "sheets": Int32(1)])
            try first.save()
            first.reset()
        }
        let second = TestStack.sibling(of: first)
        let one = try first.performAndWait { try Self.album(in: first) }
        let two = try second.performAndWait { try Self.album(in: second) }
        return (first, second, (one, two))
    }

    private static func album(in context: NSManagedObjectContext) throws -> NSManagedObject {
        let found = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album"))
        try #require(found.count == 1)
        _ = found[0].value(forKey: "name")
        return found[0]
    }

    /// The album as a fresh context reads it from the store: name and sheets.
    private static func stored(_ context: NSManagedObjectContext) throws -> (String?, Int32?)? {
        let reader = try TestStack.reader(of: context)
        return try reader.performAndWait {
            let albums = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album"))
            return albums.first.map { ($0.value(forKey: "name") as? String, $0.value(forKey: "sheets") as? Int32) }
        }
    }

    /// The conflicts a failed save reports.
    private static func conflicts(_ error: NSError) -> [NSMergeConflict] {
        error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict] ?? []
    }

    /// The first context renames the album to "fromA" and sets sheets to 2, and saves.
    private static func firstSaves(_ first: NSManagedObjectContext, _ album: NSManagedObject) throws {
        try first.performAndWait { () throws in
            album.setValue("fromA", forKey: "name")
            album.setValue(Int32(2), forKey: "sheets")
            try first.save()
        }
    }

    /// The second context, with `policy`, renames its album to "fromB" and saves.
    private static func secondSaves(_ second: NSManagedObjectContext, _ album: NSManagedObject, policy: Any) throws {
        try second.performAndWait { () throws in
            second.mergePolicy = policy
            album.setValue("fromB", forKey: "name")
            try second.save()
        }
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func theDefaultPolicyFailsTheSaveWithTheConflicts(kind: TestStack.StoreKind) throws {
        let (first, second, (one, two)) = try Self.twoReaders(kind)
        #expect((second.mergePolicy as? NSMergePolicy) === NSMergePolicy.error)
        try Self.firstSaves(first, one)
        try second.performAndWait { () throws in
            two.setValue("fromB", forKey: "name")
            let error = try #require(throws: NSError.self) { try second.save() }
            #expect(error.domain == NSCocoaErrorDomain && error.code == NSManagedObjectMergeError)
            let conflicts = Self.conflicts(error)
            #expect(conflicts.count == 1)
            let conflict = try #require(conflicts.first)
            #expect(conflict.sourceObject === two)
            #expect(conflict.oldVersionNumber == 1 && conflict.newVersionNumber == 2)
            #expect(conflict.objectSnapshot?["name"] as? String == "a")
            #expect(conflict.persistedSnapshot?["name"] as? String == "fromA")
            #expect(conflict.persistedSnapshot?["sheets"] as? Int32 == 2)
            // Nothing was written, and the context keeps its change.
            #expect(two.hasChanges && two.value(forKey: "name") as? String == "fromB")
        }
        #expect(try Self.stored(first)?.0 == "fromA")
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func objectTrumpKeepsThisContextsChangesAndTheStoresOthers(kind: TestStack.StoreKind) throws {
        let (first, second, (one, two)) = try Self.twoReaders(kind)
        try Self.firstSaves(first, one)
        try Self.secondSaves(second, two, policy: NSMergeByPropertyObjectTrumpMergePolicy)
        try second.performAndWait { () throws in
            #expect(two.value(forKey: "name") as? String == "fromB")
            #expect(two.value(forKey: "sheets") as? Int32 == 2)
            #expect(!two.hasChanges)
        }
        let stored = try #require(try Self.stored(first))
        #expect(stored.0 == "fromB" && stored.1 == 2)
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func storeTrumpKeepsWhatTheStoreChanged(kind: TestStack.StoreKind) throws {
        let (first, second, (one, two)) = try Self.twoReaders(kind)
        try Self.firstSaves(first, one)
        try Self.secondSaves(second, two, policy: NSMergePolicy.mergeByPropertyStoreTrump)
        try second.performAndWait { () throws in
            #expect(two.value(forKey: "name") as? String == "fromA")
        }
        let stored = try #require(try Self.stored(first))
        #expect(stored.0 == "fromA" && stored.1 == 2)
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func overwriteSavesTheWholeObject(kind: TestStack.StoreKind) throws {
        let (first, second, (one, two)) = try Self.twoReaders(kind)
        try Self.firstSaves(first, one)
        try Self.secondSaves(second, two, policy: NSOverwriteMergePolicy)
        #expect(second.performAndWait { !two.hasChanges })
        // sheets was never changed here: its value as this context read it overwrites the store's 2.
        let stored = try #require(try Self.stored(first))
        #expect(stored.0 == "fromB" && stored.1 == 1)
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func rollbackDiscardsThisContextsChanges(kind: TestStack.StoreKind) throws {
        let (first, second, (one, two)) = try Self.twoReaders(kind)
        try Self.firstSaves(first, one)
        try Self.secondSaves(second, two, policy: NSRollbackMergePolicy)
        try second.performAndWait { () throws in
            #expect(two.value(forKey: "name") as? String == "fromA")
            #expect(two.value(forKey: "sheets") as? Int32 == 2)
            #expect(!two.hasChanges && !second.hasChanges)
        }
        let stored = try #require(try Self.stored(first))
        #expect(stored.0 == "fromA" && stored.1 == 2)
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func aRecordDeletedElsewhereConflictsWithVersionZero(kind: TestStack.StoreKind) throws {
        let (first, second, (one, two)) = try Self.twoReaders(kind)
        try first.performAndWait { () throws in
            first.delete(one)
            try first.save()
        }
        try second.performAndWait { () throws in
            two.setValue("fromB", forKey: "name")
            let error = try #require(throws: NSError.self) { try second.save() }
            let conflict = try #require(Self.conflicts(error).first)
            #expect(conflict.newVersionNumber == 0 && conflict.oldVersionNumber == 1)
            #expect(conflict.persistedSnapshot == nil)
            // With a policy that lets the save go on, the object follows its record.
            second.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
            try second.save()
            #expect(two.managedObjectContext == nil)
        }
        #expect(try Self.stored(first) == nil)
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func deletingARecordChangedElsewhereConflicts(kind: TestStack.StoreKind) throws {
        let (first, second, (one, two)) = try Self.twoReaders(kind)
        try Self.firstSaves(first, one)
        try second.performAndWait { () throws in
            second.delete(two)
            let error = try #require(throws: NSError.self) { try second.save() }
            #expect(error.code == NSManagedObjectMergeError)
            second.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
            try second.save()
        }
        #expect(try Self.stored(first) == nil)
    }

    /// `detectConflicts(for:)` makes an unchanged object's record part of the
    /// save's optimistic locking (Apple: "Marks an object for conflict detection").
    @Test(arguments: TestStack.StoreKind.allCases)
    func anUnchangedObjectMarkedForConflictDetectionConflicts(kind: TestStack.StoreKind) throws {
        let (first, second, (one, two)) = try Self.twoReaders(kind)
        try Self.firstSaves(first, one)
        try second.performAndWait { () throws in
            second.detectConflicts(for: two)
            TestStack.insert("Album", into: second, ["name": "other"])
            let error = try #require(throws: NSError.self) { try second.save() }
            let conflict = try #require(Self.conflicts(error).first)
            #expect(conflict.sourceObject === two && conflict.newVersionNumber == 2)
            second.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
            try second.save()
            // Nothing of it changed here, so the store's values are its values now.
            #expect(two.value(forKey: "name") as? String == "fromA" && !two.hasChanges)
            // The mark ended with the save: a later change elsewhere is no conflict of the next one.
            TestStack.insert("Album", into: second, ["name": "third"])
        }
        try Self.firstSaves(first, one)
        try second.performAndWait { try second.save() }
        let albums = NSFetchRequest<NSManagedObject>(entityName: "Album")
        let count = try first.performAndWait { try first.count(for: albums) }
        #expect(count == 3)
    }

    /// Two coordinators on one SQLite file, as two processes are: neither sees
    /// the other's row cache, so the conflict is found by the file's `Z_OPT`
    /// inside the saving transaction (coredata-wave2.md §4.3: `UPDATE … WHERE
    /// … AND Z_OPT = X`).
    @Test func aSaveByAnotherCoordinatorOnTheFileConflicts() throws {
        let first = try TestStack.context(TestStack.albumsModel(), .sqlite)
        try first.performAndWait { () throws in
            TestStack.insert("Album", into: first, ["name": "a", "sheets": Int32(1)])
            try first.save()
            first.reset()
        }
        let second = try TestStack.reader(of: first)
        #expect(second.persistentStoreCoordinator !== first.persistentStoreCoordinator)
        let one = try first.performAndWait { try Self.album(in: first) }
        let two = try second.performAndWait { try Self.album(in: second) }
        try Self.firstSaves(first, one)
        try second.performAndWait { () throws in
            two.setValue("fromB", forKey: "name")
            let error = try #require(throws: NSError.self) { try second.save() }
            #expect(error.code == NSManagedObjectMergeError)
            let conflict = try #require(Self.conflicts(error).first)
            #expect(conflict.sourceObject === two && conflict.oldVersionNumber == 1 && conflict.newVersionNumber == 2)
            second.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
            try second.save()
        }
        // Object trump: this context's name, the other's sheets.
        #expect(try Self.stored(first)?.0 == "fromB")
        #expect(try Self.stored(first)?.1 == 2)
    }

    /// The same with the other writer in another process (HistoryWriter, mode "touch"): it changes the node this
    /// context read and changes too; the save conflicts through the file's Z_OPT, and object trump keeps this
    /// context's change beside the other process's.
    @Test func aSaveByAnotherProcessOnTheFileConflicts() throws {
        let url = TestStack.temporaryStoreURL()
        let context = try HistoryStack.context(url, model: try CrashModelForTests.make(),
                                               options: [NSPersistentHistoryTrackingKey: true as NSNumber])
        let node = try context.performAndWait { () throws in
            let node = NSEntityDescription.insertNewObject(forEntityName: "Node", into: context)
            node.setValue(Int64(1), forKey: "index")
            try context.save()
            return node
        }
        let process = Process()
        process.executableURL = RemoteChangeTests.writer
        process.arguments = [url.path, CrashModelForTests.url.path, "7", "other", "touch"]
        process.standardOutput = Pipe()
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        try context.performAndWait { () throws in
            node.setValue(Int64(2), forKey: "index")
            let error = try #require(throws: NSError.self) { try context.save() }
            #expect(error.code == NSManagedObjectMergeError)
            let conflict = try #require(Self.conflicts(error).first)
            #expect(conflict.sourceObject === node && conflict.newVersionNumber == 2)
            #expect(conflict.persistedSnapshot?["touched"] as? Int64 == 7)
            context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
            try context.save()
        }
        let reader = try TestStack.reader(of: context)
        try reader.performAndWait { () throws in
            let stored = try #require(try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Node")).first)
            #expect(stored.value(forKey: "index") as? Int64 == 2 && stored.value(forKey: "touched") as? Int64 == 7)
        }
    }

    /// A subclass sees the conflicts and may leave the resolution to its type.
    final class CountingPolicy: NSMergePolicy, @unchecked Sendable {
        nonisolated(unsafe) var seen: [NSMergeConflict] = []
        override func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws {
            seen += list
            try super.resolve(optimisticLockingConflicts: list)
        }
    }

    @Test func aSubclassResolvesThroughItsOverride() throws {
        let (first, second, (one, two)) = try Self.twoReaders(.sqlite)
        try Self.firstSaves(first, one)
        let policy = CountingPolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
        try Self.secondSaves(second, two, policy: policy)
        #expect(policy.seen.count == 1 && policy.seen.first?.sourceObject === two)
        #expect(try Self.stored(first)?.0 == "fromB")
    }

    @Test func savesWithoutConflictsAreUntouchedByThePolicy() throws {
        let (first, second, (one, two)) = try Self.twoReaders(.sqlite)
        let policy = CountingPolicy(merge: .errorMergePolicyType)
        try Self.secondSaves(second, two, policy: policy)
        // The first context saves on top of the second's save after reading it again.
        try first.performAndWait { () throws in
            first.refresh(one, mergeChanges: false)
            one.setValue(Int32(9), forKey: "sheets")
            try first.save()
        }
        #expect(policy.seen.isEmpty)
        let stored = try #require(try Self.stored(first))
        #expect(stored.0 == "fromB" && stored.1 == 9)
    }

    @Test func thePolicyTypesAndSharedPoliciesAreApples() {
        #expect(NSMergePolicyType.errorMergePolicyType.rawValue == 0)
        #expect(NSMergePolicyType.mergeByPropertyStoreTrumpMergePolicyType.rawValue == 1)
        #expect(NSMergePolicyType.mergeByPropertyObjectTrumpMergePolicyType.rawValue == 2)
        #expect(NSMergePolicyType.overwriteMergePolicyType.rawValue == 3)
        #expect(NSMergePolicyType.rollbackMergePolicyType.rawValue == 4)
        let shared: [(Any, NSMergePolicy, NSMergePolicyType)] = [
            (NSErrorMergePolicy, .error, .errorMergePolicyType),
            (NSMergeByPropertyStoreTrumpMergePolicy, .mergeByPropertyStoreTrump,
             .mergeByPropertyStoreTrumpMergePolicyType),
            (NSMergeByPropertyObjectTrumpMergePolicy, .mergeByPropertyObjectTrump,
             .mergeByPropertyObjectTrumpMergePolicyType),
            (NSOverwriteMergePolicy, .overwrite, .overwriteMergePolicyType),
            (NSRollbackMergePolicy, .rollback, .rollbackMergePolicyType),
        ]
        for (global, policy, type) in shared {
            #expect((global as? NSMergePolicy) === policy && policy.mergeType == type)
        }
    }
}
