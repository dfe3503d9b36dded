import Foundation
import Testing
@testable import OpenCoreDataCore

/// A context's inserted/updated/deleted lists keep their membership as marks
/// on the objects (`ContextObjectList`), and an event's inserted, changed and
/// updated lists as event numbers (`ContextEvent`). These tests walk the
/// paths that change membership (insert, change, delete, undelete, save,
/// undo, redo, rollback, reset, a child's save into its parent) and check
/// after each step that every mark agrees with the list's contents and with
/// the object's `isInserted`/`isUpdated`/`isDeleted` flags.
@Suite struct ChangeTrackingMarksTests {
    /// Checks the marks of every object in `objects` (and of every object the lists hold) against the lists.
    private static func expectConsistent(_ context: NSManagedObjectContext, _ objects: [NSManagedObject],
                                         _ step: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let lists = [context.inserted, context.updated, context.deleted]
        let all = objects + lists.flatMap(\.objects)
        for list in lists {
            let members = list.objects.map(ObjectIdentifier.init)
            #expect(Set(members).count == members.count, "\(step): \(list.kind) holds an object twice",
                    sourceLocation: sourceLocation)
            for object in all {
                let listed = list.objects.contains { $0 === object }
                #expect(list.contains(object) == listed,
                        "\(step): \(list.kind) mark of \(object.objectID) says \(!listed), the list \(listed)",
                        sourceLocation: sourceLocation)
            }
        }
        for object in all where object.managedObjectContext === context {
            #expect(context.inserted.contains(object) == object.isInserted, "\(step): inserted flag",
                    sourceLocation: sourceLocation)
            #expect(context.updated.contains(object) == object.isUpdated, "\(step): updated flag",
                    sourceLocation: sourceLocation)
            #expect(context.deleted.contains(object) == object.isDeletedFlag, "\(step): deleted flag",
                    sourceLocation: sourceLocation)
        }
        #expect(context.insertedObjects.count == context.inserted.count, "\(step)", sourceLocation: sourceLocation)
        let event = context.event
        for (name, list) in [("inserted", event.inserted), ("changed", event.changed), ("updated", event.updated)] {
            let members = list.map(ObjectIdentifier.init)
            #expect(Set(members).count == members.count, "\(step): the event's \(name) list holds an object twice",
                    sourceLocation: sourceLocation)
        }
        #expect(event.inserted.allSatisfy(event.wasInserted), "\(step)", sourceLocation: sourceLocation)
        #expect(!event.updated.contains { event.wasInserted($0) }, "\(step)", sourceLocation: sourceLocation)
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func marksFollowInsertChangeDeleteSaveUndoRollbackAndReset(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(TestStack.albumsModel(), kind)
        try context.performAndWait { () throws in
            context.undoManager = UndoManager()
            let album = TestStack.insert("Album", into: context, ["name": "a"])
            let p0 = TestStack.insert("Photo", into: context, ["name": "p0", "album": album])
            let p1 = TestStack.insert("Photo", into: context, ["name": "p1", "album": album])
            var objects = [album, p0, p1]
            Self.expectConsistent(context, objects, "insert")
            #expect(context.inserted.count == 3)

            try context.save()
            Self.expectConsistent(context, objects, "save")
            #expect(!context.hasChanges)

            p0.setValue("p0'", forKey: "name")
            p0.setValue("p0''", forKey: "name")
            context.delete(p1)
            let p2 = TestStack.insert("Photo", into: context, ["name": "p2", "album": album])
            objects.append(p2)
            Self.expectConsistent(context, objects, "change, delete, insert")
            context.processPendingChanges()
            Self.expectConsistent(context, objects, "end of event")
            #expect(context.updated.contains(p0) && context.updated.contains(album))
            #expect(context.deleted.contains(p1) && context.inserted.contains(p2))

            context.undo()
            Self.expectConsistent(context, objects, "undo")
            #expect(!context.deleted.contains(p1) && !context.inserted.contains(p2))
            context.redo()
            Self.expectConsistent(context, objects, "redo")
            #expect(context.inserted.contains(p2))

            // An object inserted and deleted before a save is forgotten, then may be inserted again.
            let p3 = TestStack.insert("Photo", into: context, ["name": "p3"])
            objects.append(p3)
            context.delete(p3)
            Self.expectConsistent(context, objects, "insert then delete")
            context.insert(p3)
            Self.expectConsistent(context, objects, "undelete")
            context.processPendingChanges()
            Self.expectConsistent(context, objects, "undelete, end of event")

            context.rollback()
            Self.expectConsistent(context, objects, "rollback")
            #expect(!context.hasChanges)

            p0.setValue("again", forKey: "name")
            context.delete(album)
            context.processPendingChanges()
            Self.expectConsistent(context, objects, "cascade")
            try context.save()
            Self.expectConsistent(context, objects, "save of deletes")

            let p4 = TestStack.insert("Photo", into: context, ["name": "p4"])
            objects.append(p4)
            context.reset()
            Self.expectConsistent(context, objects, "reset")
            #expect(!objects.contains { context.inserted.contains($0) || context.updated.contains($0) })
        }
    }

    @Test func marksFollowAChildsSaveIntoItsParent() throws {
        let parent = try TestStack.context(TestStack.albumsModel(), .sqlite)
        let (albumID, photoIDs) = try parent.performAndWait { () throws in
            let album = TestStack.insert("Album", into: parent, ["name": "a"])
            let photos = (0..<2).map { TestStack.insert("Photo", into: parent, ["name": "p\($0)", "album": album]) }
            try parent.save()
            return (album.objectID, photos.map(\.objectID))
        }
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        try child.performAndWait { () throws in
            let album = try child.existingObject(with: albumID)
            let photos = try photoIDs.map(child.existingObject(with:))
            album.setValue("b", forKey: "name")
            child.delete(photos[0])
            let added = TestStack.insert("Photo", into: child, ["name": "new", "album": album])
            child.processPendingChanges()
            Self.expectConsistent(child, [album, added] + photos, "child changes")
            try child.save()
            Self.expectConsistent(child, [album, added] + photos, "child save")
            #expect(!child.hasChanges)
        }
        try parent.performAndWait { () throws in
            let objects = Array(parent.registeredObjects)
            Self.expectConsistent(parent, objects, "parent after the child's save")
            #expect(parent.inserted.count == 1 && parent.deleted.count == 1)
            #expect(parent.updated.objects.contains { $0.objectID == albumID })
            try parent.save()
            Self.expectConsistent(parent, objects, "parent save")
            #expect(!parent.hasChanges)
        }
    }
}
