//
//  Photo+CoreDataClass.swift
//  Gallery
//
//  This file was automatically generated and should not be edited.
//

import Foundation
import CoreData

@objc(Photo)
public class Photo: NSManagedObject {

}
