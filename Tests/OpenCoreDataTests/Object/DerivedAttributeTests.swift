import Foundation
import Testing
@testable import OpenCoreDataCore

/// Derived attributes, with the expressions Apple's documentation of
/// NSDerivedAttributeDescription lists: "to-one keypath" (`name`,
/// `author.name`), "to-one keypath with a function" (`canonical:(name)`,
/// `uppercase:`, `lowercase:`), "to-many keypath with a function"
/// (`friends.@count`, `@sum`) and "time" (`now()`). Values are computed when
/// a save reaches the store.
@Suite struct DerivedAttributeTests {
    /// Albums and photos (TestStack.albumsModel) with a photo `rating` and derived attributes:
    /// Album.photoCount (`photos.@count`), Album.ratingSum (`photos.rating.@sum`),
    /// Album.searchName (`canonical:(name)`), Album.savedAt (`now()`),
    /// Photo.albumName (`album.name`), Photo.loudName (`uppercase:(name)`).
    static func model() -> NSManagedObjectModel {
        let model = TestStack.albumsModel()
        let album = model.entitiesByName["Album"]!, photo = model.entitiesByName["Photo"]!
        func derived(_ name: String, _ type: NSAttributeType, _ expression: String) -> NSDerivedAttributeDescription {
            let attribute = NSDerivedAttributeDescription()
            attribute.name = name
            attribute.attributeType = type
            attribute.isOptional = true
            attribute.derivationExpressionFormat = expression
            return attribute
        }
        album.properties += [derived("photoCount", .integer64AttributeType, "photos.@count"),
                             derived("ratingSum", .integer64AttributeType, "photos.rating.@sum"),
                             derived("searchName", .stringAttributeType, "canonical:(name)"),
                             derived("savedAt", .dateAttributeType, "now()")]
        photo.properties += [TestStack.attribute("rating", .integer16AttributeType),
                             derived("albumName", .stringAttributeType, "album.name"),
                             derived("loudName", .stringAttributeType, "uppercase:(name)")]
        return model
    }

    static func fetch(_ entity: String, _ name: String, in context: NSManagedObjectContext) throws -> NSManagedObject {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        request.predicate = NSPredicate(format: "name == %@", name)
        return try #require(try context.fetch(request).first)
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func computedAtSaveAndKeptCurrent(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(Self.model(), kind)
        try context.performAndWait { () throws in
            let album = TestStack.insert("Album", into: context, ["name": "Été"])
            for (name, rating) in [("p1", 3), ("p2", 4)] {
                TestStack.insert("Photo", into: context, ["name": name, "rating": Int16(rating), "album": album])
            }
            let before = Date()
            try context.save()
            #expect(album.value(forKey: "photoCount") as? Int64 == 2)
            #expect(album.value(forKey: "ratingSum") as? Int64 == 7)
            #expect(album.value(forKey: "searchName") as? String == "ete")
            #expect((album.value(forKey: "savedAt") as? Date).map { $0 >= before } == true)
            #expect(album.hasChanges == false)
        }
        // Read back from the store by another context: the values were saved.
        let reader = try TestStack.reader(of: context)
        try reader.performAndWait { () throws in
            #expect(try Self.fetch("Album", "Été", in: reader).value(forKey: "photoCount") as? Int64 == 2)
            let photo = try Self.fetch("Photo", "p1", in: reader)
            #expect(photo.value(forKey: "albumName") as? String == "Été")
            #expect(photo.value(forKey: "loudName") as? String == "P1")
            // Fetches can use them, as Apple's documentation intends.
            let counted = NSFetchRequest<NSManagedObject>(entityName: "Album")
            counted.predicate = NSPredicate(format: "photoCount == 2 AND searchName == 'ete'")
            #expect(try reader.count(for: counted) == 1)
        }
        try context.performAndWait { () throws in
            // A change through a relationship reaches the objects whose derivation reads it.
            let album = try Self.fetch("Album", "Été", in: context)
            album.setValue("Hiver", forKey: "name")
            context.delete(try Self.fetch("Photo", "p2", in: context))
            try context.save()
            #expect(album.value(forKey: "photoCount") as? Int64 == 1)
            #expect(album.value(forKey: "ratingSum") as? Int64 == 3)
            #expect(album.value(forKey: "searchName") as? String == "hiver")
            #expect(try Self.fetch("Photo", "p1", in: context).value(forKey: "albumName") as? String == "Hiver")
        }
        let second = try TestStack.reader(of: context)
        try second.performAndWait { () throws in
            #expect(try Self.fetch("Photo", "p1", in: second).value(forKey: "albumName") as? String == "Hiver")
        }
    }

    /// A save that changes nothing a derivation reads writes no derived value.
    @Test func unchangedDerivationsAreNotWritten() throws {
        let context = try TestStack.context(Self.model(), .sqlite)
        try context.performAndWait { () throws in
            let album = TestStack.insert("Album", into: context, ["name": "a"])
            let photo = TestStack.insert("Photo", into: context, ["name": "p", "album": album])
            try context.save()
            photo.setValue(Int16(2), forKey: "rating")
            try context.save()
            #expect(!album.hasChanges && album.value(forKey: "ratingSum") as? Int64 == 2)
            photo.setValue("q", forKey: "path")
            let changes = NotificationRecorder([.NSManagedObjectContextDidSave], object: context)
            try context.save()
            let updated = changes.notes.first?.userInfo?[NSUpdatedObjectsKey] as? Set<NSManagedObject>
            #expect(updated == [photo])
        }
    }
}
