import Foundation
import Testing
@testable import OpenCoreDataCore

/// The model graph's back references (a property's and an index's `entity`,
/// a sub-entity's `superentity`, a relationship's `destinationEntity` and
/// `inverseRelationship`) read nil once their target is gone, as weak
/// references do, but point at their target's `ReferenceProxy`, so that
/// entities and relationships are never weakly referenced themselves:
/// retaining them stays on the runtime's fast path. The proxies are held
/// strongly, so reading a back reference takes no side table either.
@Suite struct BackReferenceTests {
    /// The runtime's weak count of an object nothing references weakly (the
    /// object's own count); a weak reference raises it.
    private static func isWeaklyReferenced(_ object: AnyObject) -> Bool {
        _getWeakRetainCount(object) > _getWeakRetainCount(NSObject())
    }

    @Test func theWeakCountSeesAWeakReference() {
        let object = NSObject()
        #expect(!Self.isWeaklyReferenced(object))
        weak let reference = object
        #expect(Self.isWeaklyReferenced(object) && reference != nil)
    }

    @Test func noEntityOrRelationshipOfAUsedModelIsWeaklyReferenced() throws {
        let context = try TestStack.albumsWithPhotos()
        let model = try #require(context.persistentStoreCoordinator?.managedObjectModel)
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            request.returnsObjectsAsFaults = false
            let photos = try context.fetch(request)
            #expect((photos.first?.value(forKey: "album") as? NSManagedObject)?.value(forKey: "name") != nil)
        }
        for entity in model.entities {
            #expect(!Self.isWeaklyReferenced(entity), "\(entity.name ?? "") is weakly referenced")
            // Nor their proxies: a weak hold on a proxy made every read of a back reference a side-table call.
            #expect(!Self.isWeaklyReferenced(entity.referenceProxy), "\(entity.name ?? "")'s proxy")
            #expect(entity.properties.allSatisfy { $0.entity === entity })
            for relationship in entity.relationshipsByName.values {
                #expect(!Self.isWeaklyReferenced(relationship), "\(relationship.name) is weakly referenced")
                #expect(!Self.isWeaklyReferenced(relationship.referenceProxy), "\(relationship.name)'s proxy")
            }
        }
        let photos = try #require(model.entitiesByName["Album"]?.relationshipsByName["photos"])
        #expect(photos.destinationEntity === model.entitiesByName["Photo"])
        #expect(photos.inverseRelationship === model.entitiesByName["Photo"]?.relationshipsByName["album"])

    }

    @Test func referencesBecomeNilWhenTheEntityGoes() {
        let property = TestStack.attribute("name", .stringAttributeType)
        let index = NSFetchIndexDescription(name: "byName", elements: nil)
        let sub = NSEntityDescription(name: "Sub")
        var relationship: NSRelationshipDescription?
        do {
            let entity = NSEntityDescription(name: "Gone")
            entity.properties = [property]
            entity.indexes = [index]
            entity.subentities = [sub]
            relationship = TestStack.relationship("to", to: entity)
            #expect(property.entity === entity && index.entity === entity && sub.superentity === entity)
            #expect(relationship?.destinationEntity === entity)
        }
        #expect(property.entity == nil && index.entity == nil && sub.superentity == nil)
        #expect(relationship?.destinationEntity == nil)
    }

    @Test func anInverseBecomesNilWhenItGoes() {
        let entity = NSEntityDescription(name: "E")
        let relationship = TestStack.relationship("to", to: entity)
        do {
            let inverse = TestStack.relationship("from", to: entity)
            TestStack.pair(relationship, inverse)
            #expect(relationship.inverseRelationship === inverse)
        }
        #expect(relationship.inverseRelationship == nil)
    }

    @Test func aDestinationCanBeChangedAndCleared() {
        let first = NSEntityDescription(name: "First"), second = NSEntityDescription(name: "Second")
        let relationship = TestStack.relationship("to", to: first)
        relationship.destinationEntity = second
        #expect(relationship.destinationEntity === second)
        relationship.destinationEntity = nil
        #expect(relationship.destinationEntity == nil)
        #expect(!Self.isWeaklyReferenced(first) && !Self.isWeaklyReferenced(second))
    }
}
