//
//  Photo+CoreDataClass.swift
//  Gallery
//
//  This file was automatically generated and should not be edited.
//

import Foundation
import OpenCoreData

public class Photo: NSManagedObject {

}
