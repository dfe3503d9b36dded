//
//  Album+CoreDataClass.swift
//  Gallery
//
//  This file was automatically generated and should not be edited.
//

import Foundation
import CoreData

@objc(Album)
public class Album: NSManagedObject {

}
