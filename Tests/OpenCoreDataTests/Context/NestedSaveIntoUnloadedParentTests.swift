import Foundation
import Testing
@testable import OpenCoreDataCore

/// A child saves changes of objects its parent has not loaded: the parent
/// makes its own object for each and holds the child's changes as its own
/// unsaved changes ("save() only updates that context; you must save up the
/// chain", coredata-behaviour.md §3.2). The parent takes such a record whole
/// when the child changed attributes only and read the row the coordinator
/// still caches; these tests hold that shortcut to what storing the changes
/// one by one gives, and show where it must not be taken.
@Suite struct NestedSaveIntoUnloadedParentTests {
    /// The child sets album "a"'s sheets to 7 and saves; the root has no
    /// object for "a" until then.
    static func childChangesSheets(_ root: NSManagedObjectContext, _ child: NSManagedObjectContext) throws
        -> NSManagedObjectID {
        try child.performAndWait { () throws -> NSManagedObjectID in
            let album = try NestedContextTests.album("a", in: child)
            album.setValue(Int32(7), forKey: "sheets")
            try child.save()
            return album.objectID
        }
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func theParentHoldsTheChildsChangeAsItsOwn(kind: TestStack.StoreKind) throws {
        let (root, child) = try NestedContextTests.stack(kind)
        let id = try Self.childChangesSheets(root, child)
        try root.performAndWait { () throws in
            let album = try #require(root.registeredObject(for: id))
            #expect(!album.isFault && album.isUpdated && root.updatedObjects == [album])
            #expect(album.value(forKey: "name") as? String == "a")
            #expect(album.value(forKey: "sheets") as? Int32 == 7)
            #expect(album.changedValues().keys.sorted() == ["sheets"])
            #expect(album.changedValues()["sheets"] as? Int32 == 7)
            #expect(album.committedValues(forKeys: ["sheets"])["sheets"] as? Int32 == 1)
            // Rolling the parent back forgets the change: it was never saved to the store.
            root.rollback()
            #expect(!root.hasChanges && album.value(forKey: "sheets") as? Int32 == 1)
        }
        #expect(try NestedContextTests.storedNames(root) == ["a", "b"])
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func theParentSavesTheChildsChangeToTheStore(kind: TestStack.StoreKind) throws {
        let (root, child) = try NestedContextTests.stack(kind)
        _ = try Self.childChangesSheets(root, child)
        try root.performAndWait { try root.save() }
        let reader = try TestStack.reader(of: root)
        let sheets = try reader.performAndWait {
            try NestedContextTests.albums(reader).map { $0.value(forKey: "sheets") as? Int32 }
        }
        #expect(sheets == [7, 2])
    }

    /// Another context of the coordinator saved album "a" after the child
    /// read it: the parent's object starts from that newer record and takes
    /// the child's change on top, so the parent's save meets no conflict and
    /// keeps both changes (the child's record is not newer than the store).
    @Test func aRecordSavedSinceTheChildReadItIsTheParentsBase() throws {
        let (root, child) = try NestedContextTests.stack(.sqlite)
        let read = try child.performAndWait { try NestedContextTests.album("a", in: child) }
        let other = TestStack.sibling(of: root)
        try other.performAndWait { () throws in
            try NestedContextTests.album("a", in: other).setValue("renamed", forKey: "name")
            try other.save()
        }
        let id = try child.performAndWait { () throws -> NSManagedObjectID in
            #expect(read.value(forKey: "name") as? String == "a")
            read.setValue(Int32(7), forKey: "sheets")
            try child.save()
            return read.objectID
        }
        try root.performAndWait { () throws in
            let album = try #require(root.registeredObject(for: id))
            #expect(album.value(forKey: "name") as? String == "renamed")
            #expect(album.changedValues().keys.sorted() == ["sheets"])
            try root.save()
        }
        let reader = try TestStack.reader(of: root)
        let stored = try reader.performAndWait {
            try NestedContextTests.albums(reader, "sheets == 7").map { $0.value(forKey: "name") as? String }
        }
        #expect(stored == ["renamed"])
    }

    /// An `awakeFromFetch()` that sets a value when the parent loads the
    /// object: the child's change is stored on top of it, and both show.
    @Test func valuesSetByAwakeFromFetchStay() throws {
        let root = try TestStack.context(
            TestStack.albumsModel(albumClass: "OpenCoreDataTests.AwakeStampingAlbum"), .sqlite)
        try root.performAndWait { () throws in
            TestStack.insert("Album", into: root, ["name": "a", "sheets": Int32(1)])
            try root.save()
            root.reset()
        }
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = root
        let id = try Self.childChangesSheets(root, child)
        try root.performAndWait { () throws in
            let album = try #require(root.registeredObject(for: id))
            #expect(album.value(forKey: "sheets") as? Int32 == 7)
            #expect(album.value(forKey: "name") as? String == "awoken")
            #expect(album.isUpdated && album.changedValues()["sheets"] as? Int32 == 7)
        }
    }

    /// A relationship change takes the general path: the parent's object
    /// points at the parent's own album object.
    @Test(arguments: TestStack.StoreKind.allCases)
    func aRelationshipChangePointsAtTheParentsObjects(kind: TestStack.StoreKind) throws {
        let (root, child) = try NestedContextTests.stack(kind)
        let photoID = try child.performAndWait { () throws -> NSManagedObjectID in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            request.predicate = NSPredicate(format: "name == 'a1'")
            let photo = try #require(try child.fetch(request).first)
            photo.setValue(try NestedContextTests.album("b", in: child), forKey: "album")
            try child.save()
            return photo.objectID
        }
        try root.performAndWait { () throws in
            let photo = try #require(root.registeredObject(for: photoID))
            let album = try #require(photo.value(forKey: "album") as? NSManagedObject)
            #expect(album.managedObjectContext === root && album.value(forKey: "name") as? String == "b")
            try root.save()
        }
    }
}

/// An album whose `awakeFromFetch()` sets its name with a primitive setter,
/// as such overrides may, in a context without a parent only.
final class AwakeStampingAlbum: NSManagedObject {
    override func awakeFromFetch() {
        super.awakeFromFetch()
        if managedObjectContext?.parent == nil { setPrimitiveValue("awoken", forKey: "name") }
    }
}
