//
//  Photo+CoreDataProperties.swift
//  Gallery
//
//  This file was automatically generated and should not be edited.
//

import Foundation
import OpenCoreData


extension Photo {

    @nonobjc public class func fetchRequest() -> NSFetchRequest<Photo> {
        return NSFetchRequest<Photo>(entityName: "Photo")
    }

    @Managed public var rating: Int16
    @Managed public var takenAt: Date?
    @Managed public var title: String?
    @Managed public var album: Album?
    @Managed public var tags: NSSet?

}

// MARK: Generated accessors for tags
extension Photo {

    @ManagedAccessor public func addToTags(_ value: Tag)

    @ManagedAccessor public func removeFromTags(_ value: Tag)

    @ManagedAccessor public func addToTags(_ values: NSSet)

    @ManagedAccessor public func removeFromTags(_ values: NSSet)

}

extension Photo : Identifiable {

}
