import Foundation
import Testing
@testable import OpenCoreDataCore

/// Nested contexts, from Apple's documentation of `save()` ("If the context's
/// parent store is another managed object context, then save() only updates
/// that context; you must save up the chain", coredata-behaviour.md §3.2) and
/// of nested reading ("if there are changes in the parent, you'll get the
/// changed version of the object", W. Young, "Core Data Growing Pains";
/// coredata-wave2.md §4.1), on the in-memory and the SQLite store.
@Suite struct NestedContextTests {
    /// A root context on a store holding albums "a" (1 sheet) and "b" (2
    /// sheets) with photos "a1", "a2" in "a"; and a child of it.
    static func stack(_ kind: TestStack.StoreKind,
                      childType: NSManagedObjectContextConcurrencyType = .privateQueueConcurrencyType)
        throws -> (root: NSManagedObjectContext, child: NSManagedObjectContext) {
        let root = try TestStack.context(TestStack.albumsModel(), kind)
        try root.performAndWait { () throws in
            let a = TestStack.insert("Album", into: root, ["name": "a", "sheets": Int32(1)])
            TestStack.insert("Album", into: root, ["name": "b", "sheets": Int32(2)])
            for name in ["a1", "a2"] { TestStack.insert("Photo", into: root, ["name": name, "album": a]) }
            try root.save()
            root.reset()
        }
        let child = NSManagedObjectContext(concurrencyType: childType)
        child.parent = root
        return (root, child)
    }

    static func albums(_ context: NSManagedObjectContext, _ format: String? = nil) throws -> [NSManagedObject] {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Album")
        request.predicate = format.map { NSPredicate(format: $0) }
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        return try context.fetch(request)
    }

    static func album(_ name: String, in context: NSManagedObjectContext) throws -> NSManagedObject {
        try #require(try albums(context, "name == '\(name)'").first)
    }

    /// What the store holds, through a context of its own.
    static func storedNames(_ root: NSManagedObjectContext, entity: String = "Album") throws -> [String] {
        let reader = try TestStack.reader(of: root)
        return try reader.performAndWait {
            TestStack.names(try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: entity)))
        }
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func aChildsSaveReachesItsParentOnly(kind: TestStack.StoreKind) throws {
        let (root, child) = try Self.stack(kind)
        #expect(child.parent === root && child.persistentStoreCoordinator === root.persistentStoreCoordinator)
        try child.performAndWait { () throws in
            TestStack.insert("Album", into: child, ["name": "c"])
            try Self.album("a", in: child).setValue(Int32(7), forKey: "sheets")
            try child.save()
            #expect(!child.hasChanges)
        }
        #expect(try Self.storedNames(root) == ["a", "b"])
        try root.performAndWait { () throws in
            #expect(root.insertedObjects.count == 1 && root.updatedObjects.count == 1)
            #expect(try Self.album("a", in: root).value(forKey: "sheets") as? Int32 == 7)
            try root.save()
        }
        #expect(try Self.storedNames(root) == ["a", "b", "c"])
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func aChildsFetchesSeeItsParentsUnsavedChanges(kind: TestStack.StoreKind) throws {
        let (root, child) = try Self.stack(kind)
        try root.performAndWait { () throws in
            try Self.album("a", in: root).setValue("a+", forKey: "name")
            root.delete(try Self.album("b", in: root))
            TestStack.insert("Album", into: root, ["name": "c", "sheets": Int32(3)])
        }
        try child.performAndWait { () throws in
            #expect(TestStack.names(try Self.albums(child)) == ["a+", "c"])
            #expect(TestStack.names(try Self.albums(child, "sheets >= 2")) == ["c"])
            #expect(try child.count(for: NSFetchRequest<NSManagedObject>(entityName: "Album")) == 2)
            let limited = NSFetchRequest<NSManagedObject>(entityName: "Album")
            limited.sortDescriptors = [NSSortDescriptor(key: "name", ascending: false)]
            limited.fetchLimit = 1
            #expect(TestStack.names(try child.fetch(limited)) == ["c"])
            // The child's own changes go on top of the parent's.
            try Self.album("c", in: child).setValue(Int32(0), forKey: "sheets")
            TestStack.insert("Album", into: child, ["name": "d", "sheets": Int32(9)])
            #expect(TestStack.names(try Self.albums(child, "sheets >= 2")) == ["d"])
            #expect(try child.count(for: NSFetchRequest<NSManagedObject>(entityName: "Album")) == 3)
            let ids = NSFetchRequest<NSManagedObjectID>(entityName: "Album")
            ids.resultType = .managedObjectIDResultType
            #expect(try child.fetch(ids).count == 3)
        }
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func faultsAndExistingObjectResolveThroughTheParent(kind: TestStack.StoreKind) throws {
        let (root, child) = try Self.stack(kind)
        let (aID, newID) = try root.performAndWait { () throws in
            let a = try Self.album("a", in: root)
            a.setValue(Int32(5), forKey: "sheets")
            let new = TestStack.insert("Album", into: root, ["name": "new"])
            return (a.objectID, new.objectID)
        }
        try child.performAndWait { () throws in
            let a = child.object(with: aID)
            #expect(a.isFault)
            #expect(a.value(forKey: "sheets") as? Int32 == 5 && !a.hasChanges)
            #expect(try child.existingObject(with: newID).value(forKey: "name") as? String == "new")
            #expect(newID.isTemporaryID)
            // To-many relationships read the parent's state too.
            #expect(TestStack.names(TestStack.set(a, "photos")) == ["a1", "a2"])
        }
        try root.performAndWait { () throws in
            root.delete(try Self.album("b", in: root))
            root.processPendingChanges()
        }
        let bID = try root.performAndWait { try #require(root.deletedObjects.first).objectID }
        child.performAndWait { () -> Void in
            #expect(throws: NSError.self) { try child.existingObject(with: bID) }
        }
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func relationshipsAndCascadesArePushedWhole(kind: TestStack.StoreKind) throws {
        let (root, child) = try Self.stack(kind)
        try child.performAndWait { () throws in
            let b = try Self.album("b", in: child)
            let photo = TestStack.insert("Photo", into: child, ["name": "b1"])
            photo.setValue(b, forKey: "album")
            child.delete(try Self.album("a", in: child))
            try child.save()
        }
        try root.performAndWait { () throws in
            // The cascade ran in the child; the parent got its result.
            #expect(root.deletedObjects.count == 3)
            let b = try Self.album("b", in: root)
            #expect(TestStack.names(TestStack.set(b, "photos")) == ["b1"])
            try root.save()
        }
        #expect(try Self.storedNames(root) == ["b"])
        #expect(try Self.storedNames(root, entity: "Photo") == ["b1"])
        let reader = try TestStack.reader(of: root)
        try reader.performAndWait { () throws in
            let b = try Self.album("b", in: reader)
            #expect(TestStack.names(TestStack.set(b, "photos")) == ["b1"])
        }
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func threeLevelsEachSeeTheLevelsAbove(kind: TestStack.StoreKind) throws {
        let (root, child) = try Self.stack(kind)
        let grandchild = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        grandchild.parent = child
        try root.performAndWait { try Self.album("a", in: root).setValue(Int32(10), forKey: "sheets") }
        child.performAndWait { _ = TestStack.insert("Album", into: child, ["name": "c"]) }
        try grandchild.performAndWait { () throws in
            #expect(TestStack.names(try Self.albums(grandchild)) == ["a", "b", "c"])
            #expect(try Self.album("a", in: grandchild).value(forKey: "sheets") as? Int32 == 10)
            try Self.album("c", in: grandchild).setValue(Int32(4), forKey: "sheets")
            try grandchild.save()
        }
        #expect(root.performAndWait { root.insertedObjects.isEmpty })
        try child.performAndWait { () throws in
            #expect(try Self.album("c", in: child).value(forKey: "sheets") as? Int32 == 4)
            try child.save()
        }
        try root.performAndWait { try root.save() }
        let reader = try TestStack.reader(of: root)
        try reader.performAndWait { () throws in
            #expect(try Self.album("c", in: reader).value(forKey: "sheets") as? Int32 == 4)
            #expect(try Self.album("a", in: reader).value(forKey: "sheets") as? Int32 == 10)
        }
    }

    /// Temporary IDs: an object a child inserted keeps its temporary ID when
    /// the parent saves it; changing and saving it again must update the
    /// saved record, not insert a second one. `obtainPermanentIDs(for:)`
    /// gives the child's object and the parent's the same permanent ID.
    @Test(arguments: TestStack.StoreKind.allCases)
    func temporaryIDsAcrossLevels(kind: TestStack.StoreKind) throws {
        let (root, child) = try Self.stack(kind)
        let c = try child.performAndWait { () throws in
            let c = TestStack.insert("Album", into: child, ["name": "c"])
            try child.save()
            return c
        }
        try root.performAndWait { () throws in
            #expect(root.registeredObject(for: c.objectID)?.isInserted == true)
            try root.save()
        }
        try child.performAndWait { () throws in
            c.setValue(Int32(6), forKey: "sheets")
            try child.save()
        }
        try root.performAndWait { try root.save() }
        #expect(try Self.storedNames(root) == ["a", "b", "c"])
        // Unlike Apple's, the child's object takes the permanent ID at its next call into the parent.
        try child.performAndWait { () throws in
            _ = try Self.albums(child)
            #expect(!c.objectID.isTemporaryID && child.object(with: c.objectID) === c)
        }
        let reader = try TestStack.reader(of: root)
        try reader.performAndWait { () throws in
            #expect(try Self.album("c", in: reader).value(forKey: "sheets") as? Int32 == 6)
        }
        let d = try child.performAndWait { () throws in
            let d = TestStack.insert("Album", into: child, ["name": "d"])
            try child.save()
            try child.obtainPermanentIDs(for: [d])
            #expect(!d.objectID.isTemporaryID)
            return d
        }
        try root.performAndWait { () throws in
            let mine = try #require(root.registeredObject(for: d.objectID))
            #expect(mine.isInserted && mine.value(forKey: "name") as? String == "d")
            try root.save()
        }
        #expect(try Self.storedNames(root) == ["a", "b", "c", "d"])
    }

    /// Xcode's stack: a main-queue context as the parent of a private-queue
    /// child that does its work in `perform` and saves; the main-queue parent
    /// answers on the main queue.
    @Test(arguments: TestStack.StoreKind.allCases)
    func aPrivateChildOfAMainQueueParent(kind: TestStack.StoreKind) async throws {
        let (root, _) = try Self.stack(kind)
        let view = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        view.parent = root
        let background = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        background.parent = view
        let names = try await background.perform {
            TestStack.insert("Album", into: background, ["name": "c"])
            try Self.album("a", in: background).setValue(Int32(2), forKey: "sheets")
            try background.save()
            return TestStack.names(try Self.albums(background))
        }
        #expect(names == ["a", "b", "c"])
        let sheets = try await view.perform {
            #expect(view.insertedObjects.count == 1 && view.updatedObjects.count == 1)
            try view.save()
            return try Self.album("a", in: view).value(forKey: "sheets") as? Int32
        }
        #expect(sheets == 2)
        try await root.perform { try root.save() }
        #expect(try Self.storedNames(root) == ["a", "b", "c"])
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func eachLevelPostsItsNotifications(kind: TestStack.StoreKind) throws {
        let (root, child) = try Self.stack(kind)
        let childNotes = NotificationRecorder([.NSManagedObjectContextWillSave, .NSManagedObjectContextDidSave],
                                              object: child)
        let rootNotes = NotificationRecorder([.NSManagedObjectContextObjectsDidChange,
                                              .NSManagedObjectContextDidSave], object: root)
        try child.performAndWait { () throws in
            TestStack.insert("Album", into: child, ["name": "c"])
            try child.save()
        }
        #expect(childNotes.names() == [Notification.Name.NSManagedObjectContextWillSave.rawValue,
                                       Notification.Name.NSManagedObjectContextDidSave.rawValue])
        root.performAndWait {
            #expect(rootNotes.names() == [Notification.Name.NSManagedObjectContextObjectsDidChange.rawValue])
            let inserted = rootNotes.notes.first?.userInfo?[NSInsertedObjectsKey] as? Set<NSManagedObject>
            #expect(TestStack.names(inserted ?? []) == ["c"])
        }
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func rollbackResetAndRefreshPerLevel(kind: TestStack.StoreKind) throws {
        let (root, child) = try Self.stack(kind)
        try root.performAndWait { try Self.album("a", in: root).setValue(Int32(3), forKey: "sheets") }
        let a = try child.performAndWait { () throws in
            let a = try Self.album("a", in: child)
            a.setValue(Int32(8), forKey: "sheets")
            child.rollback()
            // Back to the parent's state, not the store's.
            #expect(a.value(forKey: "sheets") as? Int32 == 3)
            return a
        }
        try root.performAndWait { try Self.album("a", in: root).setValue(Int32(4), forKey: "sheets") }
        try child.performAndWait { () throws in
            // A loaded object keeps its values until refreshed.
            #expect(try Self.album("a", in: child) === a)
            #expect(a.value(forKey: "sheets") as? Int32 == 3)
            child.refresh(a, mergeChanges: false)
            #expect(a.value(forKey: "sheets") as? Int32 == 4)
            a.setValue(Int32(9), forKey: "sheets")
            try child.save()
        }
        try root.performAndWait { () throws in
            #expect(try Self.album("a", in: root).value(forKey: "sheets") as? Int32 == 9)
            root.rollback()
            #expect(try Self.album("a", in: root).value(forKey: "sheets") as? Int32 == 1)
        }
        try child.performAndWait { () throws in
            child.reset()
            #expect(try Self.album("a", in: child).value(forKey: "sheets") as? Int32 == 1)
        }
    }

    /// "awakeFromInsert being called on NSManagedObject subclasses for each
    /// context in the parent chain" (Big Nerd Ranch Core Data Stack, via
    /// mjtsai.com 2015-09-23); the child's values win over what the parent's
    /// `awakeFromInsert` set.
    @Test func awakeFromInsertRunsInEachContextTheObjectEnters() throws {
        AwakeCountingAlbum.awakenings.withLock { $0 = 0 }
        let model = TestStack.albumsModel(albumClass: "OpenCoreDataTests.AwakeCountingAlbum")
        let root = try TestStack.context(model, .inMemory)
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = root
        try child.performAndWait { () throws in
            TestStack.insert("Album", into: child, ["name": "c", "sheets": Int32(5)])
            try child.save()
        }
        #expect(AwakeCountingAlbum.awakenings.withLock { $0 } == 2)
        try root.performAndWait { () throws in
            #expect(try Self.album("c", in: root).value(forKey: "sheets") as? Int32 == 5)
        }
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func childrenMergeWhatIsSavedIntoAndByTheirParent(kind: TestStack.StoreKind) throws {
        let (root, child) = try Self.stack(kind)
        let sibling = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        sibling.parent = root
        child.automaticallyMergesChangesFromParent = true
        let a = try child.performAndWait { () throws in
            let a = try Self.album("a", in: child)
            _ = a.value(forKey: "sheets")
            return a
        }
        try sibling.performAndWait { () throws in
            try Self.album("a", in: sibling).setValue(Int32(11), forKey: "sheets")
            try sibling.save()
        }
        child.performAndWait { #expect(a.value(forKey: "sheets") as? Int32 == 11) }
        try root.performAndWait { () throws in
            try Self.album("a", in: root).setValue(Int32(12), forKey: "sheets")
            try root.save()
        }
        child.performAndWait { #expect(a.value(forKey: "sheets") as? Int32 == 12) }
    }
}

/// Counts `awakeFromInsert()` calls for `awakeFromInsertRunsInEachContextTheObjectEnters`.
final class AwakeCountingAlbum: NSManagedObject {
    static let awakenings = Locked(0)

    override func awakeFromInsert() {
        super.awakeFromInsert()
        Self.awakenings.withLock { $0 += 1 }
        setPrimitiveValue(Int32(-1), forKey: "sheets")
    }
}
