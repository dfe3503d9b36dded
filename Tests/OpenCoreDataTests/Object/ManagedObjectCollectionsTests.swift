import Foundation
import Testing
@testable import OpenCoreDataCore

/// The `NSSet` and `NSOrderedSet` a to-many relationship's value is made
/// into hold exactly its objects (the ordered one in order), and bridge to
/// Swift's collections as those made with `NSSet(array:)` do.
struct ManagedObjectCollectionsTests {
    @Test(arguments: [0, 1, 2, 100]) func setsHoldExactlyTheObjects(count: Int) {
        let entity = NSEntityDescription(name: "Item")
        let objects = (0..<count).map { _ in NSManagedObject(entity: entity, insertInto: nil) }
        let set = objects.asNSSet, ordered = objects.asNSOrderedSet
        #expect(set.count == count && ordered.count == count)
        #expect(objects.allSatisfy { set.contains($0) && ordered.contains($0) })
        #expect(!set.contains(NSManagedObject(entity: entity, insertInto: nil)))
        #expect((ordered.array as? [NSManagedObject])?.map(ObjectIdentifier.init) == objects.map(ObjectIdentifier.init))
        #expect((set as? Set<NSManagedObject>) == Set(objects))
        #expect(set.isEqual(NSSet(array: objects)) && ordered.isEqual(NSOrderedSet(array: objects)))
    }

    /// A to-many relationship read through `value(forKey:)` and
    /// `changedValues()` gives those sets.
    @Test func aToManyValueIsTheSetOfItsDestinations() throws {
        let context = try TestStack.context(TestStack.albumsModel())
        let album = TestStack.insert("Album", into: context, ["name": "a"])
        let photos = (0..<3).map { TestStack.insert("Photo", into: context, ["name": "p\($0)", "album": album]) }
        let value = try #require(album.value(forKey: "photos") as? NSSet)
        #expect((value as? Set<NSManagedObject>) == Set(photos))
        #expect((album.changedValues()["photos"] as? NSSet)?.count == 3)
    }
}
