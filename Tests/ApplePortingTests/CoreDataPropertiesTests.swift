// Xcode's "+CoreDataProperties.swift" pattern with only the import and the attribute names changed: properties
// declared in extensions with `@Managed` (was `@NSManaged`), and the generated relationship functions with
// `@ManagedAccessor` (was `@objc(addPhotosObject:) @NSManaged`), as docs/Porting.md says.
import XCTest
import Foundation
import OpenCoreData

extension PortingAlbum {
    @Managed public var title: String?
    @Managed public var photos: NSSet?
}

// MARK: Generated accessors for photos
extension PortingAlbum {
    @ManagedAccessor public func addToPhotos(_ value: PortingPhoto)
    @ManagedAccessor public func removeFromPhotos(_ value: PortingPhoto)
    @ManagedAccessor public func addToPhotos(_ values: NSSet)
    @ManagedAccessor public func removeFromPhotos(_ values: NSSet)
}

extension PortingPhoto {
    @Managed public var album: PortingAlbum?
}

final class CoreDataPropertiesTests: XCTestCase {
    private var container: NSPersistentContainer!

    override func setUpWithError() throws {
        container = NSPersistentContainer(name: "PortingModel")
        container.persistentStoreDescriptions.first?.url = URL(fileURLWithPath: "/dev/null")
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
    }

    func testPropertiesDeclaredInAnExtensionAreStoredAndSaved() throws {
        let context = container.viewContext
        let album = PortingAlbum(context: context)
        album.title = "Holidays"
        XCTAssertEqual(album.value(forKey: "title") as? String, "Holidays")
        XCTAssertTrue(context.insertedObjects.contains(album))
        try context.save()
        context.refresh(album, mergeChanges: false)
        XCTAssertEqual(album.title, "Holidays")
    }

    func testGeneratedAccessorsChangeTheRelationshipAndItsInverse() throws {
        let context = container.viewContext
        let album = PortingAlbum(context: context)
        let one = PortingPhoto(context: context), two = PortingPhoto(context: context)
        let three = PortingPhoto(context: context)
        album.addToPhotos(one)
        XCTAssertTrue(one.album === album)
        album.addToPhotos(NSSet(array: [two, three]))
        XCTAssertEqual(album.photos?.count, 3)
        album.removeFromPhotos(one)
        XCTAssertNil(one.album)
        album.removeFromPhotos(NSSet(array: [two]))
        XCTAssertEqual(album.photos?.allObjects as? [PortingPhoto], [three])
        try context.save()
        XCTAssertTrue(three.album === album)
    }
}
