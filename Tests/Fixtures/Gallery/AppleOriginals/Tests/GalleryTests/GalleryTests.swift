import XCTest
import CoreData
@testable import Gallery

final class GalleryTests: XCTestCase {
    var controller: PersistenceController!
    var context: NSManagedObjectContext { controller.container.viewContext }

    override func setUp() {
        super.setUp()
        controller = PersistenceController(inMemory: true)
    }

    @discardableResult
    func makeAlbum(_ title: String, photos: [String]) -> Album {
        let album = Album(context: context)
        album.title = title
        album.createdAt = Date()
        for (index, name) in photos.enumerated() {
            let photo = Photo(context: context)
            photo.title = name
            photo.rating = Int16(index + 1)
            album.addToPhotos(photo)
        }
        return album
    }

    func testFetchWithPredicateAndSortDescriptors() throws {
        let alps = makeAlbum("Alps", photos: ["a.jpg", "b.jpg", "c.jpg"])
        makeAlbum("Sea", photos: ["d.jpg"])
        try context.save()

        let request: NSFetchRequest<Photo> = Photo.fetchRequest()
        request.predicate = NSPredicate(format: "album.title == %@ AND rating >= %d", "Alps", 2)
        request.sortDescriptors = [NSSortDescriptor(key: "rating", ascending: false)]
        let photos = try context.fetch(request)
        XCTAssertEqual(photos.map { $0.title }, ["c.jpg", "b.jpg"])
        XCTAssertEqual(photos.first?.album, alps)
        XCTAssertEqual(try context.count(for: Album.fetchRequest()), 2)
    }

    func testGeneratedAccessorsKeepInversesAndCascade() throws {
        let album = makeAlbum("Alps", photos: ["a.jpg", "b.jpg"])
        let photo = (album.photos as? Set<Photo>)!.first { $0.title == "a.jpg" }!
        album.removeFromPhotos(photo)
        XCTAssertNil(photo.album)
        XCTAssertEqual(album.photos?.count, 1)
        album.addToPhotos(photo)
        XCTAssertEqual(photo.album, album)
        try context.save()

        context.delete(album)
        try context.save()
        XCTAssertEqual(try context.count(for: Photo.fetchRequest()), 0)
    }

    func testHandWrittenClassWithManyToMany() throws {
        makeAlbum("Alps", photos: ["a.jpg", "b.jpg"])
        let tag = Tag(context: context)
        tag.name = "snow"
        XCTAssertNotNil(tag.createdAt)
        let photos = try context.fetch(Photo.fetchRequest())
        for photo in photos { photo.addToTags(tag) }
        XCTAssertEqual(tag.photos.count, 2)
        XCTAssertEqual(tag.label, "#snow (2)")
        try context.save()

        let request = Tag.fetchRequest()
        request.predicate = NSPredicate(format: "ANY photos.title == %@", "b.jpg")
        XCTAssertEqual(try context.fetch(request).map(\.name), ["snow"])
    }

    func testValidationErrorsAreNSErrors() {
        let tag = Tag(context: context)
        tag.name = "two words"
        XCTAssertThrowsError(try context.save()) { error in
            XCTAssertEqual((error as NSError).domain, "Gallery")
        }
        context.rollback()

        let photo = Photo(context: context)
        photo.rating = 9
        do {
            try context.save()
            XCTFail("A rating of 9 saved")
        } catch let error as NSError {
            XCTAssertEqual(error.code, NSValidationNumberTooLargeError)
            XCTAssertEqual(error.userInfo[NSValidationKeyErrorKey] as? String, "rating")
        }
    }

    func testBackgroundContextSaveReachesTheViewContext() throws {
        let background = controller.container.newBackgroundContext()
        background.performAndWait {
            let album = Album(context: background)
            album.title = "Imported"
            try! background.save()
        }
        let request: NSFetchRequest<Album> = Album.fetchRequest()
        request.predicate = NSPredicate(format: "title == %@", "Imported")
        XCTAssertEqual(try context.fetch(request).count, 1)
    }

    func testChildContextEditsAreDiscardedOrSaved() throws {
        let album = makeAlbum("Alps", photos: [])
        try context.save()

        let editor = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        editor.parent = context
        let draft = editor.object(with: album.objectID) as! Album
        draft.title = "Alps 2024"
        XCTAssertEqual(album.title, "Alps")
        try editor.save()
        XCTAssertEqual(album.title, "Alps 2024")
        XCTAssertTrue(context.hasChanges)
    }
}
