import Testing
@testable import OpenCoreDataCore

/// Records notifications posted by one object.
final class NotificationRecorder: @unchecked Sendable {
    private(set) var notes: [Notification] = []
    private var tokens: [NSObjectProtocol] = []

    init(_ names: [Notification.Name], object: AnyObject) {
        for name in names {
            tokens.append(NotificationCenter.default.addObserver(forName: name, object: object, queue: nil) { [unowned self] in
                self.notes.append($0)
            })
        }
    }

    deinit { tokens.forEach(NotificationCenter.default.removeObserver) }

    func names() -> [String] { notes.map(\.name.rawValue) }
}

/// Context API: notifications (reference §3.7), refresh/rollback/reset
/// (§3.3), lookup and uniquing (§3.1, §3.5), inverse maintenance,
/// concurrency (§3.1) and merging.
@Suite struct ContextBehaviourTests {
    /// Entities by name come from the model of the context's coordinator as it is now (the context keeps that
    /// model unretained beside the coordinator), and from the root's for a nested context.
    @Test func entitiesByNameComeFromTheCurrentCoordinatorsModel() throws {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        #expect(NSEntityDescription.entity(forEntityName: "Album", in: context) == nil)
        let albums = NSPersistentStoreCoordinator(managedObjectModel: TestStack.albumsModel())
        context.persistentStoreCoordinator = albums
        #expect(NSEntityDescription.entity(forEntityName: "Album", in: context) === albums.managedObjectModel
            .entitiesByName["Album"])
        let boxes = NSPersistentStoreCoordinator(managedObjectModel: SQLiteStoreTests.model())
        context.persistentStoreCoordinator = boxes
        #expect(NSEntityDescription.entity(forEntityName: "Album", in: context) == nil)
        let box = try #require(NSEntityDescription.entity(forEntityName: "Box", in: context))
        #expect(box === boxes.managedObjectModel.entitiesByName["Box"])
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = context
        #expect(NSEntityDescription.entity(forEntityName: "Box", in: child) === box)
        child.performAndWait {
            let made = NSEntityDescription.insertNewObject(forEntityName: "Box", into: child)
            #expect(made.entity === box)
        }
        context.persistentStoreCoordinator = nil
        #expect(NSEntityDescription.entity(forEntityName: "Box", in: context) == nil)
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func notifications(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(TestStack.albumsModel(), kind)
        let recorder = NotificationRecorder([.NSManagedObjectContextObjectsDidChange, .NSManagedObjectContextWillSave,
                                             .NSManagedObjectContextDidSave, NSManagedObjectContext.didSaveObjectIDsNotification],
                                            object: context)
        let album = TestStack.insert("Album", into: context, ["name": "A"])
        context.processPendingChanges()
        #expect(recorder.names() == ["NSObjectsChangedInManagingContextNotification"])
        #expect(recorder.notes[0].userInfo?[NSInsertedObjectsKey] as? Set<NSManagedObject> == [album])
        context.processPendingChanges() // nothing changed: no notification
        #expect(recorder.notes.count == 1)

        try context.save()
        #expect(recorder.names().suffix(3) == ["NSManagingContextWillSaveChangesNotification",
                                              "NSManagingContextDidSaveChangesNotification",
                                              "NSManagedObjectContextDidSaveObjectIDsNotification"])
        #expect(recorder.notes[1].userInfo == nil) // WillSave has no userInfo
        #expect(recorder.notes[2].userInfo?[NSInsertedObjectsKey] as? Set<NSManagedObject> == [album])
        #expect(recorder.notes[3].userInfo?[NSInsertedObjectIDsKey] as? Set<NSManagedObjectID> == [album.objectID])
        #expect(!album.objectID.isTemporaryID)

        album.setValue("B", forKey: "name")
        context.delete(TestStack.insert("Album", into: context)) // inserted and deleted: forgotten
        context.processPendingChanges()
        let change = try #require(recorder.notes.last?.userInfo)
        #expect(change[NSUpdatedObjectsKey] as? Set<NSManagedObject> == [album])
        #expect(change[NSInsertedObjectsKey] == nil && change[NSDeletedObjectsKey] == nil)
        #expect(context.insertedObjects.isEmpty && context.deletedObjects.isEmpty)

        context.reset()
        #expect(recorder.notes.last?.userInfo?[NSInvalidatedAllObjectsKey] as? [NSManagedObjectID] == [album.objectID])
        #expect(album.managedObjectContext == nil && context.registeredObjects.isEmpty && !context.hasChanges)
    }

    /// A save's ObjectsDidChange (its last event's changes) and DidSave (all
    /// saved changes) share a set only when they hold the same objects
    /// (`NotificationSets`): each notification still names its own objects.
    @Test(arguments: TestStack.StoreKind.allCases)
    func aSaveSharesNotificationSetsOnlyForTheSameObjects(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(TestStack.albumsModel(), kind)
        let (a, b) = (TestStack.insert("Album", into: context), TestStack.insert("Album", into: context))
        try context.save()
        let recorder = NotificationRecorder([.NSManagedObjectContextObjectsDidChange, .NSManagedObjectContextDidSave],
                                            object: context)
        a.setValue("A", forKey: "name")
        context.processPendingChanges()
        b.setValue("B", forKey: "name")
        let e = TestStack.insert("Album", into: context)
        try context.save()
        let change = try #require(recorder.notes.dropFirst().first?.userInfo)
        #expect(change[NSUpdatedObjectsKey] as? Set<NSManagedObject> == [b])
        #expect(change[NSInsertedObjectsKey] as? Set<NSManagedObject> == [e])
        let saved = try #require(recorder.notes.last?.userInfo)
        #expect(saved[NSUpdatedObjectsKey] as? Set<NSManagedObject> == [a, b])
        #expect(saved[NSInsertedObjectsKey] as? Set<NSManagedObject> == [e])
        #expect(saved[NSDeletedObjectsKey] as? Set<NSManagedObject> == [])

        // Changed in the save's one event: both notifications hold the same objects.
        a.setValue("A2", forKey: "name")
        b.setValue("B2", forKey: "name")
        try context.save()
        #expect(recorder.names().suffix(2) == ["NSObjectsChangedInManagingContextNotification",
                                              "NSManagingContextDidSaveChangesNotification"])
        let sameChange = try #require(recorder.notes.dropLast().last?.userInfo)
        let sameSave = try #require(recorder.notes.last?.userInfo)
        #expect(sameChange[NSUpdatedObjectsKey] as? Set<NSManagedObject> == [a, b])
        #expect(sameSave[NSUpdatedObjectsKey] as? Set<NSManagedObject> == [a, b])
        #expect(sameSave[NSInsertedObjectsKey] as? Set<NSManagedObject> == [])
        #expect(context.savesNotificationSets == nil) // let go with the save
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func refreshAndRollback(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(TestStack.albumsModel(), kind)
        let album = TestStack.insert("Album", into: context, ["name": "A", "sheets": 1])
        try context.save()
        let other = TestStack.sibling(of: context)
        let copy = try other.existingObject(with: album.objectID)
        copy.setValue(5, forKey: "sheets")
        try other.save()

        album.setValue("Local", forKey: "name")
        context.refresh(album, mergeChanges: true) // store values, then local changes on top
        #expect(album.value(forKey: "sheets") as? Int32 == 5)
        #expect(album.value(forKey: "name") as? String == "Local" && album.isUpdated)
        context.refresh(album, mergeChanges: false) // changes dropped, object becomes a fault
        #expect(album.isFault && !album.isUpdated && !context.hasChanges)
        #expect(album.value(forKey: "name") as? String == "A")

        album.setValue("Changed", forKey: "name")
        let added = TestStack.insert("Photo", into: context, ["album": album])
        context.rollback()
        #expect(album.value(forKey: "name") as? String == "A" && TestStack.set(album, "photos").isEmpty)
        #expect(added.managedObjectContext == nil && !context.hasChanges)

        album.setValue("Again", forKey: "name")
        context.refreshAllObjects()
        #expect(album.value(forKey: "name") as? String == "Again")
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func lookupAndUniquing(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(TestStack.albumsModel(), kind)
        let album = TestStack.insert("Album", into: context, ["name": "A"])
        #expect(context.registeredObject(for: album.objectID) === album)
        try context.save()
        let fetched = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album"))
        #expect(fetched.count == 1 && fetched[0] === album) // one object per ID per context
        #expect(context.object(with: album.objectID) === album)
        #expect(try context.existingObject(with: album.objectID) === album)

        context.delete(album)
        try context.save()
        let error = try #require(throws: NSError.self) { try context.existingObject(with: album.objectID) }
        #expect(error.code == NSManagedObjectReferentialIntegrityError)
        #expect(context.registeredObject(for: album.objectID) == nil)
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func inverseMaintenanceMovesObjects(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(TestStack.companyModel(rule: .nullifyDeleteRule), kind)
        let a = TestStack.insert("Department", into: context, ["name": "A"])
        let b = TestStack.insert("Department", into: context, ["name": "B"])
        let ada = TestStack.insert("Employee", into: context, ["name": "Ada", "department": a])
        #expect(TestStack.set(a, "employees") == [ada])
        b.mutableSetValue(forKey: "employees").add(ada) // moves Ada from A to B
        #expect(ada.value(forKey: "department") as? NSManagedObject === b && TestStack.set(a, "employees").isEmpty)
        // Reflexive: manager ⟷ reports.
        let bob = TestStack.insert("Employee", into: context, ["name": "Bob", "manager": ada])
        #expect(TestStack.set(ada, "reports") == [bob])
        bob.setValue(bob, forKey: "manager")
        #expect(TestStack.set(ada, "reports").isEmpty && TestStack.set(bob, "reports") == [bob])
        b.setValue(nil, forKey: "employees")
        #expect(ada.value(forKey: "department") == nil)
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func propagationOnlyAtSaveWhenAsked(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(TestStack.albumsModel(), kind)
        context.propagatesDeletesAtEndOfEvent = false
        let album = TestStack.insert("Album", into: context)
        let photo = TestStack.insert("Photo", into: context, ["album": album])
        try context.save()
        context.delete(album)
        context.processPendingChanges()
        #expect(!photo.isDeleted) // H-MOC: NO → "only during a save operation"
        try context.save()
        #expect(photo.managedObjectContext == nil)
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func queues(kind: TestStack.StoreKind) async throws {
        let context = try TestStack.context(TestStack.albumsModel(), kind)
        let names = try await context.perform {
            let album = TestStack.insert("Album", into: context, ["name": "A"])
            try context.save()
            return [album.value(forKey: "name") as! String]
        }
        #expect(names == ["A"])
        let count = context.performAndWait {
            context.performAndWait { // reentrant: runs inline
                (try? context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Album"))) ?? -1
            }
        }
        #expect(count == 1)
        await #expect(throws: NSError.self) {
            try await context.perform { throw NSError.coreData(NSCoreDataError, "boom") }
        }
        await withCheckedContinuation { continuation in
            context.perform {
                _ = TestStack.insert("Album", into: context) // perform ends with processPendingChanges
                continuation.resume()
            }
        }
        #expect(context.performAndWait { context.insertedObjects.count } == 1)
        #expect(NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType).concurrencyType == .mainQueueConcurrencyType)
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func mergeChangesFromAnotherContext(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(TestStack.albumsModel(), kind)
        let album = TestStack.insert("Album", into: context, ["name": "A"])
        let photo = TestStack.insert("Photo", into: context, ["album": album, "name": "p"])
        try context.save()
        let other = TestStack.sibling(of: context)
        let recorder = NotificationRecorder([.NSManagedObjectContextDidSave], object: other)
        let otherAlbum = try other.existingObject(with: album.objectID)
        otherAlbum.setValue("Renamed", forKey: "name")
        other.delete(try other.existingObject(with: photo.objectID))
        try other.save()
        context.mergeChanges(fromContextDidSave: try #require(recorder.notes.first))
        #expect(album.value(forKey: "name") as? String == "Renamed")
        #expect(TestStack.set(album, "photos").isEmpty)
        #expect(photo.managedObjectContext == nil && !context.hasChanges)
    }
}
