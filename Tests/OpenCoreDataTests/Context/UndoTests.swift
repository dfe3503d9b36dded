import Foundation
import Testing
@testable import OpenCoreDataCore

/// Undo and redo through a context's undo manager.
///
/// Facts from Apple's documentation: a context's `undoManager` is nil by default on iOS
/// (https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/undomanager);
/// `processPendingChanges()` "causes changes to registered managed objects to be recorded with the undo manager"
/// (…/nsmanagedobjectcontext/processpendingchanges()); `undo()` asks the undo manager "to reverse the latest
/// uncommitted changes applied to objects in the object graph" (…/nsmanagedobjectcontext/undo()); `rollback()`
/// "removes everything from the undo stack" (…/nsmanagedobjectcontext/rollback()).
@Suite struct UndoTests {
    /// A context with an undo manager whose store holds album "a" with photos p0, p1, p2; the album, loaded.
    private static func albumWithPhotos(_ kind: TestStack.StoreKind)
        throws -> (NSManagedObjectContext, NSManagedObject) {
        let context = try TestStack.context(TestStack.albumsModel(), kind)
        let album = try context.performAndWait { () throws in
            let album = TestStack.insert("Album", into: context, ["name": "a", "sheets": Int32(1)])
            for index in 0..<3 { TestStack.insert("Photo", into: context, ["name": "p\(index)", "album": album]) }
            try context.save()
            context.undoManager = UndoManager()
            return album
        }
        return (context, album)
    }

    /// What a fresh context reads: album names → photo names.
    private static func stored(_ context: NSManagedObjectContext) throws -> [String: [String]] {
        let reader = try TestStack.reader(of: context)
        return try reader.performAndWait {
            var result: [String: [String]] = [:]
            for album in try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album")) {
                result[album.value(forKey: "name") as? String ?? "nil"] =
                    TestStack.names(TestStack.set(album, "photos")).sorted()
            }
            return result
        }
    }

    @Test func aContextHasNoUndoManagerByDefaultAndUndoDoesNothing() throws {
        let context = try TestStack.context(TestStack.albumsModel())
        try context.performAndWait { () throws in
            #expect(context.undoManager == nil)
            let album = TestStack.insert("Album", into: context, ["name": "a"])
            context.undo()
            #expect(context.insertedObjects == [album])
        }
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func anAttributeChangeIsUndoneAndRedone(kind: TestStack.StoreKind) throws {
        let (context, album) = try Self.albumWithPhotos(kind)
        context.performAndWait {
            album.setValue("b", forKey: "name")
            context.undo()
            #expect(album.value(forKey: "name") as? String == "a")
            #expect(!context.hasChanges)
            #expect(context.undoManager?.canRedo == true)
            context.redo()
            #expect(album.value(forKey: "name") as? String == "b")
            #expect(context.updatedObjects == [album])
        }
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func anInsertIsUndoneAndRedoneWithItsRelationships(kind: TestStack.StoreKind) throws {
        let (context, album) = try Self.albumWithPhotos(kind)
        try context.performAndWait { () throws in
            let photo = TestStack.insert("Photo", into: context, ["name": "new", "album": album])
            context.undo()
            #expect(context.insertedObjects.isEmpty)
            #expect(TestStack.set(album, "photos").count == 3)
            context.redo()
            #expect(context.insertedObjects == [photo])
            #expect(photo.value(forKey: "album") as? NSManagedObject === album)
            #expect(TestStack.set(album, "photos").contains(photo))
            try context.save()
        }
        #expect(try Self.stored(context)["a"] == ["new", "p0", "p1", "p2"])
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func aCascadingDeleteIsUndoneWhole(kind: TestStack.StoreKind) throws {
        let (context, album) = try Self.albumWithPhotos(kind)
        try context.performAndWait { () throws in
            let photos = TestStack.set(album, "photos")
            context.delete(album)
            context.processPendingChanges()
            #expect(context.deletedObjects.count == 4)
            context.undo()
            #expect(context.deletedObjects.isEmpty)
            #expect(TestStack.set(album, "photos") == photos)
            #expect(photos.allSatisfy { $0.value(forKey: "album") as? NSManagedObject === album })
            try context.save()
        }
        #expect(try Self.stored(context) == ["a": ["p0", "p1", "p2"]])
    }

    /// Redo deletes again what undo brought back (redo replays the group
    /// undo reverted; https://developer.apple.com/documentation/foundation/undomanager):
    /// a deleted photo, undone, redone, undone, redone and saved.
    @Test(arguments: TestStack.StoreKind.allCases)
    func aDeleteIsUndoneAndRedone(kind: TestStack.StoreKind) throws {
        let (context, album) = try Self.albumWithPhotos(kind)
        try context.performAndWait { () throws in
            let photo = try #require(TestStack.set(album, "photos").first)
            context.delete(photo)
            context.processPendingChanges()
            context.undo()
            #expect(context.deletedObjects.isEmpty && !photo.isDeleted)
            #expect(TestStack.set(album, "photos").contains(photo))
            context.redo()
            #expect(context.deletedObjects == [photo])
            #expect(!TestStack.set(album, "photos").contains(photo))
            context.undo()
            #expect(context.deletedObjects.isEmpty && TestStack.set(album, "photos").count == 3)
            context.redo()
            try context.save()
        }
        #expect(try Self.stored(context)["a"]?.count == 2)
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func undoingASavedChangeMakesItAChangeToSave(kind: TestStack.StoreKind) throws {
        let (context, album) = try Self.albumWithPhotos(kind)
        try context.performAndWait { () throws in
            album.setValue("b", forKey: "name")
            try context.save()
            context.undo()
            #expect(album.value(forKey: "name") as? String == "a")
            #expect(context.hasChanges)
            try context.save()
        }
        #expect(try Self.stored(context).keys.sorted() == ["a"])
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func undoingASavedDeleteBringsTheObjectsBack(kind: TestStack.StoreKind) throws {
        let (context, album) = try Self.albumWithPhotos(kind)
        try context.performAndWait { () throws in
            context.delete(album)
            try context.save()
            context.undo()
            #expect(album.managedObjectContext === context && album.isInserted)
            #expect(album.value(forKey: "name") as? String == "a")
            try context.save()
        }
        #expect(try Self.stored(context) == ["a": ["p0", "p1", "p2"]])
    }

    @Test func eachEventIsOneGroupUnlessTheApplicationGroups() throws {
        let (context, album) = try Self.albumWithPhotos(.inMemory)
        context.performAndWait {
            let manager = context.undoManager!
            album.setValue("b", forKey: "name")
            context.processPendingChanges()
            album.setValue(Int32(2), forKey: "sheets")
            context.undo()
            #expect(album.value(forKey: "name") as? String == "b")
            #expect(album.value(forKey: "sheets") as? Int32 == 1)
            context.undo()
            #expect(album.value(forKey: "name") as? String == "a")

            manager.beginUndoGrouping()
            album.setValue("c", forKey: "name")
            context.processPendingChanges()
            album.setValue(Int32(3), forKey: "sheets")
            context.processPendingChanges()
            manager.endUndoGrouping()
            context.undo()
            #expect(album.value(forKey: "name") as? String == "a")
            #expect(album.value(forKey: "sheets") as? Int32 == 1)
        }
    }

    @Test func changesMadeWithRegistrationDisabledStay() throws {
        let (context, album) = try Self.albumWithPhotos(.inMemory)
        context.performAndWait {
            context.undoManager!.disableUndoRegistration()
            album.setValue("b", forKey: "name")
            context.processPendingChanges()
            context.undoManager!.enableUndoRegistration()
            #expect(context.undoManager?.canUndo == false)
            context.undo()
            #expect(album.value(forKey: "name") as? String == "b")
        }
    }

    @Test func rollbackAndResetEmptyTheUndoStack() throws {
        let (context, album) = try Self.albumWithPhotos(.inMemory)
        context.performAndWait {
            album.setValue("b", forKey: "name")
            context.processPendingChanges()
            #expect(context.undoManager?.canUndo == true)
            context.rollback()
            #expect(context.undoManager?.canUndo == false)
            album.setValue("c", forKey: "name")
            context.processPendingChanges()
            context.reset()
            #expect(context.undoManager?.canUndo == false)
        }
    }
}

/// The undo manager on its own (Foundation's UndoManager API, which Foundation on Linux lacks).
@Suite struct UndoManagerTests {
    private final class Counter { var value = 0 }

    private static func increment(_ counter: Counter, by step: Int, _ manager: UndoManager) {
        counter.value += step
        manager.registerUndo(withTarget: counter) { increment($0, by: -step, manager) }
    }

    @Test func registeredActionsUndoAndRedoAGroupAtATime() {
        let manager = UndoManager(), counter = Counter()
        manager.beginUndoGrouping()
        Self.increment(counter, by: 1, manager)
        Self.increment(counter, by: 10, manager)
        manager.endUndoGrouping()
        manager.setActionName("Add")
        Self.increment(counter, by: 100, manager) // opens a group of its own, closed by undo()
        #expect(manager.canUndo && !manager.canRedo)
        manager.undo()
        #expect(counter.value == 11)
        #expect(manager.undoActionName == "Add" && manager.undoMenuItemTitle == "Undo Add")
        manager.undo()
        #expect(counter.value == 0)
        #expect(manager.redoActionName == "Add")
        manager.redo()
        #expect(counter.value == 11)
        manager.redo()
        #expect(counter.value == 111)
        #expect(!manager.canRedo)
        manager.undo()
        Self.increment(counter, by: 5, manager) // a new change forgets what could be redone
        #expect(!manager.canRedo)
    }

    @Test func levelsOfUndoKeepsTheNewestGroups() {
        let manager = UndoManager(), counter = Counter()
        manager.levelsOfUndo = 2
        for step in [1, 10, 100] {
            manager.beginUndoGrouping()
            Self.increment(counter, by: step, manager)
            manager.endUndoGrouping()
        }
        manager.undo()
        manager.undo()
        manager.undo()
        #expect(counter.value == 1)
    }

    @Test func actionsOfARemovedTargetAreForgottenAndTargetsAreNotRetained() {
        let manager = UndoManager(), kept = Counter()
        var dropped: Counter? = Counter()
        weak let released = dropped
        manager.beginUndoGrouping()
        Self.increment(kept, by: 1, manager)
        Self.increment(dropped!, by: 1, manager)
        manager.endUndoGrouping()
        dropped = nil
        #expect(released == nil)
        manager.removeAllActions(withTarget: kept)
        #expect(!manager.canUndo)
        #expect(kept.value == 1)
    }

    @Test func undoAndRedoPostTheirNotifications() {
        let manager = UndoManager(), counter = Counter()
        let names: [Notification.Name] = [.NSUndoManagerWillUndoChange, .NSUndoManagerDidUndoChange,
                                          .NSUndoManagerWillRedoChange, .NSUndoManagerDidRedoChange]
        nonisolated(unsafe) var seen: [Notification.Name] = []
        let observers = names.map { name in
            NotificationCenter.default.addObserver(forName: name, object: manager, queue: nil) { seen.append($0.name) }
        }
        defer { observers.forEach(NotificationCenter.default.removeObserver) }
        Self.increment(counter, by: 1, manager)
        manager.undo()
        manager.redo()
        #expect(seen == names)
    }
}
