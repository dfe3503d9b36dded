import Foundation
import Testing
@testable import OpenCoreDataCore

/// Fetched properties, as the Core Data Programming Guide ("Fetched
/// Properties") documents them: a fetch request whose predicate may name the
/// owner as `$FETCH_SOURCE`, "evaluated lazily, and subsequently cached",
/// re-evaluated after `refresh(_:mergeChanges:)`; the value is an array.
@Suite struct FetchedPropertyTests {
    /// Albums and photos (TestStack.albumsModel) plus Album.goodPhotos:
    /// photos of the album rated 4 or more, and Album.namesakes: photos named
    /// as the album (a key path through `$FETCH_SOURCE`).
    static func model() -> NSManagedObjectModel {
        let model = TestStack.albumsModel()
        let album = model.entitiesByName["Album"]!, photo = model.entitiesByName["Photo"]!
        photo.properties.append(TestStack.attribute("rating", .integer16AttributeType))
        func fetched(_ name: String, _ format: String) -> NSFetchedPropertyDescription {
            let property = NSFetchedPropertyDescription()
            property.name = name
            let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Photo")
            request.predicate = NSPredicate(format: format)
            property.fetchRequest = request
            return property
        }
        album.properties += [fetched("goodPhotos", "album == $FETCH_SOURCE AND rating >= 4"),
                             fetched("namesakes", "name == $FETCH_SOURCE.name")]
        return model
    }

    static func names(_ value: Any?) throws -> [String] {
        let objects = try #require(value as? [NSManagedObject])
        return TestStack.names(objects)
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func evaluatedLazilyCachedAndRefreshed(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(Self.model(), kind)
        try context.performAndWait { () throws in
            let a = TestStack.insert("Album", into: context, ["name": "a"])
            let b = TestStack.insert("Album", into: context, ["name": "b"])
            for (name, rating, album) in [("a", 5, a), ("x", 4, a), ("y", 1, a), ("z", 5, b)] {
                TestStack.insert("Photo", into: context, ["name": name, "rating": Int16(rating), "album": album])
            }
            try context.save()
            context.reset()
            let album = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album"))
                .first { $0.value(forKey: "name") as? String == "a" })
            #expect(try Self.names(album.value(forKey: "goodPhotos")) == ["a", "x"])
            #expect(try Self.names(album.value(forKey: "namesakes")) == ["a"])
            // A fetched property is not a change, and is not saved.
            #expect(!album.hasChanges && album.changedValues().isEmpty)
            // Cached: a new good photo is not seen until the album is refreshed.
            TestStack.insert("Photo", into: context, ["name": "w", "rating": Int16(4), "album": album])
            try context.save()
            #expect(try Self.names(album.value(forKey: "goodPhotos")) == ["a", "x"])
            context.refresh(album, mergeChanges: false)
            #expect(try Self.names(album.value(forKey: "goodPhotos")) == ["a", "w", "x"])
        }
    }

    /// A nested context evaluates a fetched property with its own objects,
    /// never the cache of its parent's object.
    @Test func aChildEvaluatesWithItsOwnObjects() throws {
        let root = try TestStack.context(Self.model(), .sqlite)
        try root.performAndWait { () throws in
            let a = TestStack.insert("Album", into: root, ["name": "a"])
            TestStack.insert("Photo", into: root, ["name": "p", "rating": Int16(5), "album": a])
            try root.save()
            _ = a.value(forKey: "goodPhotos")
            a.setValue("a2", forKey: "name")
        }
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = root
        try child.performAndWait { () throws in
            let album = try #require(try child.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album")).first)
            let photos = try #require(album.value(forKey: "goodPhotos") as? [NSManagedObject])
            #expect(photos.count == 1 && photos.allSatisfy { $0.managedObjectContext === child })
            #expect(try Self.names(album.value(forKey: "namesakes")) == [])
        }
    }
}
