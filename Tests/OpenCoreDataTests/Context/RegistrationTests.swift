import Foundation
import Testing
@testable import OpenCoreDataCore

/// Which objects a context keeps. Core Data's contexts hold registered
/// objects weakly unless they have unsaved changes or
/// `retainsRegisteredObjects` is set ("Managed objects know what context
/// they're associated with, and contexts know what managed objects they
/// contain. By default, though, the references between a context and its
/// managed objects are weak": Apple, Core Data Programming Guide, "Object
/// Life Cycle—Memory Management"; NSManagedObjectContext.h, retainsRegisteredObjects).
@Suite struct RegistrationTests {
    static func savedContext(_ kind: TestStack.StoreKind, photos: Int = 10) throws -> NSManagedObjectContext {
        let context = try TestStack.context(TestStack.albumsModel(), kind)
        try context.performAndWait { () throws in
            for index in 0..<photos { TestStack.insert("Photo", into: context, ["name": "p\(index)", "index": index]) }
            try context.save()
        }
        return TestStack.sibling(of: context)
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func releasedUnchangedObjectsLeaveTheContext(kind: TestStack.StoreKind) throws {
        let context = try Self.savedContext(kind)
        try context.performAndWait { () throws in
            var photos: [NSManagedObject]? = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Photo"))
            let ids = photos!.map(\.objectID)
            #expect(context.registeredObjects.count == 10)
            #expect(context.registeredObject(for: ids[0]) === photos![0])
            photos = nil
            #expect(context.registeredObjects.isEmpty)
            #expect(context.registeredObject(for: ids[0]) == nil)
            // Asking again makes a new fault that reads the same record.
            #expect(context.object(with: ids[3]).value(forKey: "name") as? String == "p3")
        }
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func changedObjectsStayUntilSaved(kind: TestStack.StoreKind) throws {
        let context = try Self.savedContext(kind)
        try context.performAndWait { () throws in
            var photos: [NSManagedObject]? = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Photo"))
            photos![0].setValue("renamed", forKey: "name")
            let changedID = photos![0].objectID
            TestStack.insert("Album", into: context, ["name": "new"])
            photos = nil
            #expect(context.registeredObjects.count == 2)
            #expect(context.registeredObject(for: changedID)?.value(forKey: "name") as? String == "renamed")
            #expect(context.updatedObjects.count == 1 && context.insertedObjects.count == 1)
            try context.save()
            #expect(context.registeredObjects.isEmpty)
            let reader = try TestStack.reader(of: context)
            try reader.performAndWait { () throws in
                let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
                request.predicate = NSPredicate(format: "name == 'renamed'")
                #expect(try reader.count(for: request) == 1)
            }
        }
    }

    @Test func retainsRegisteredObjectsKeepsThem() throws {
        let context = try Self.savedContext(.sqlite)
        try context.performAndWait { () throws in
            var photos: [NSManagedObject]? = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Photo"))
            context.retainsRegisteredObjects = true
            let first = photos![0]
            photos = nil
            #expect(context.registeredObjects.count == 10)
            _ = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album"))
            #expect(context.registeredObject(for: first.objectID) === first)
            context.retainsRegisteredObjects = false
            #expect(context.registeredObjects.count == 1)
            withExtendedLifetime(first) {}
            context.retainsRegisteredObjects = true
            context.reset()
            #expect(context.registeredObjects.isEmpty)
        }
    }

    /// Faults made by `object(with:)` while the context retains its objects
    /// stay registered with nothing else holding them.
    @Test func retainedFaultsStayRegistered() throws {
        let context = try Self.savedContext(.sqlite)
        try context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObjectID>(entityName: "Photo")
            request.resultType = .managedObjectIDResultType
            let ids = try context.fetch(request)
            context.retainsRegisteredObjects = true
            for id in ids { #expect(context.object(with: id).isFault) }
            #expect(context.registeredObjects.count == 10)
            context.retainsRegisteredObjects = false
            #expect(context.registeredObjects.isEmpty)
        }
    }

    /// Related objects keep each other alive through their relationships, as
    /// in Core Data (the cycle breaks when one is refreshed into a fault).
    @Test func relationshipsKeepDestinationsRegistered() throws {
        let context = try TestStack.context(TestStack.albumsModel(), .sqlite)
        try context.performAndWait { () throws in
            let album = TestStack.insert("Album", into: context, ["name": "a"])
            TestStack.insert("Photo", into: context, ["name": "p"]).setValue(album, forKey: "album")
            try context.save()
            #expect(context.registeredObjects.count == 2)
            context.refresh(album, mergeChanges: false)
            #expect(context.registeredObjects.count == 1)
            #expect(TestStack.names(TestStack.set(album, "photos")) == ["p"])
        }
    }

    /// A save's deleted objects leave the registry, and the others stay, both
    /// when it deletes a few of the registered objects (each taken out) and
    /// when it deletes most of them (all taken out in one pass over the
    /// registry): the registered objects are the kept ones, a kept ID gives
    /// its own object, a deleted one no registered object.
    @Test(arguments: TestStack.StoreKind.allCases, [2, 9])
    func deletedObjectsLeaveTheRegistryAtTheSave(kind: TestStack.StoreKind, deleting count: Int) throws {
        let context = try Self.savedContext(kind, photos: 10)
        try context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            request.sortDescriptors = [NSSortDescriptor(key: "index", ascending: true)]
            let photos = try context.fetch(request)
            let (doomed, kept) = (photos.prefix(count), photos.dropFirst(count))
            for photo in doomed { context.delete(photo) }
            let deletedIDs = doomed.map(\.objectID)
            try context.save()
            #expect(context.registeredObjects == Set(kept))
            #expect(kept.allSatisfy { context.registeredObject(for: $0.objectID) === $0 })
            #expect(kept.allSatisfy { context.object(with: $0.objectID) === $0 })
            #expect(deletedIDs.allSatisfy { context.registeredObject(for: $0) == nil })
            #expect(doomed.allSatisfy { $0.managedObjectContext == nil })
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Photo")) == 10 - count)
            // Kept objects still change and save.
            kept.first?.setValue("renamed", forKey: "name")
            try context.save()
            #expect(context.registeredObjects.count == 10 - count)
        }
    }
}
