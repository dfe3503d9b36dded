//
//  Album+CoreDataProperties.swift
//  Gallery
//
//  This file was automatically generated and should not be edited.
//

import Foundation
import OpenCoreData


extension Album {

    @nonobjc public class func fetchRequest() -> NSFetchRequest<Album> {
        return NSFetchRequest<Album>(entityName: "Album")
    }

    @Managed public var createdAt: Date?
    @Managed public var title: String
    @Managed public var photos: NSSet?

}

// MARK: Generated accessors for photos
extension Album {

    @ManagedAccessor public func addToPhotos(_ value: Photo)

    @ManagedAccessor public func removeFromPhotos(_ value: Photo)

    @ManagedAccessor public func addToPhotos(_ values: NSSet)

    @ManagedAccessor public func removeFromPhotos(_ values: NSSet)

}

extension Album : Identifiable {

}
