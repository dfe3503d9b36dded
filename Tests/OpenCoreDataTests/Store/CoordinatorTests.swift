import Testing
@testable import OpenCoreDataCore

/// NSPersistentStoreCoordinator and the in-memory store (H-PSC; reference §3.4).
@Suite struct CoordinatorTests {
    @Test func addingAndRemovingStores() throws {
        let model = TestStack.albumsModel()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        #expect(!model.isEditable) // the coordinator freezes its model
        let store = try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        #expect(store.type == NSInMemoryStoreType && store.configurationName == "Default")
        #expect(coordinator.persistentStores.count == 1 && store.persistentStoreCoordinator === coordinator)
        let metadata = coordinator.metadata(for: store)
        #expect(UUID(uuidString: metadata[NSStoreUUIDKey] as? String ?? "") != nil)
        #expect(metadata[NSStoreTypeKey] as? String == NSInMemoryStoreType)
        #expect((metadata[NSStoreModelVersionHashesKey] as? [String: Data])?.keys.sorted() == ["Album", "Photo"])

        let second = try coordinator.addPersistentStore(type: .inMemory, at: URL(fileURLWithPath: "/dev/null"))
        #expect(second.identifier != store.identifier)
        try coordinator.remove(second)
        #expect(coordinator.persistentStores.map(\.identifier) == [store.identifier])
        #expect(throws: NSError.self) { try coordinator.remove(second) }
    }

    /// A save of objects whose store was removed (and let go) fails with
    /// NSPersistentStoreSaveError and saves nothing elsewhere; objects of
    /// the stores still there save as before.
    @Test func savingObjectsOfARemovedStoreFails() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: TestStack.albumsModel())
        try coordinator.addPersistentStore(type: .inMemory, at: URL(fileURLWithPath: "/dev/null"))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let album = TestStack.insert("Album", into: context, ["name": "A"])
            try context.save()
            album.setValue("B", forKey: "name")
            try coordinator.remove(coordinator.persistentStores[0])
            #expect(album.objectID.persistentStore == nil)
            let error = try #require(throws: NSError.self) { try context.save() }
            #expect(error.code == NSPersistentStoreSaveError && album.hasChanges)
        }
    }

    /// New objects with no store to go to: the save fails with
    /// NSPersistentStoreSaveError, naming the objects of the entity that has
    /// none, and the objects stay inserted with their temporary IDs.
    @Test func savingNewObjectsWithoutAStoreNamesThem() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: TestStack.albumsModel())
        try coordinator.addPersistentStore(type: .inMemory, at: URL(fileURLWithPath: "/dev/null"))
        try coordinator.remove(coordinator.persistentStores[0])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let first = TestStack.insert("Album", into: context, ["name": "A"])
            let photo = TestStack.insert("Photo", into: context, ["name": "P"])
            let second = TestStack.insert("Album", into: context, ["name": "B"])
            let error = try #require(throws: NSError.self) { try context.save() }
            #expect(error.code == NSPersistentStoreSaveError)
            let affected = try #require(error.userInfo[NSAffectedObjectsErrorKey] as? [NSManagedObject])
            #expect(Set(affected.map(ObjectIdentifier.init)) == [ObjectIdentifier(first), ObjectIdentifier(second)])
            #expect([first, photo, second].allSatisfy { $0.objectID.isTemporaryID && $0.isInserted })
        }
    }

    /// Faults fire from the coordinator's row cache without asking for their
    /// store; removing a store drops its rows there, so a fault of a removed
    /// store's object still finds nothing to load (an inaccessible fault
    /// reads nil), even while another context holds the same record's row.
    @Test func faultsOfARemovedStoreDoNotFireFromTheRowCache() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: TestStack.albumsModel())
        try coordinator.addPersistentStore(type: .inMemory, at: URL(fileURLWithPath: "/dev/null"))
        func context() -> NSManagedObjectContext {
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            return context
        }
        let (writer, reader) = (context(), context())
        let id = try writer.performAndWait {
            let album = TestStack.insert("Album", into: writer, ["name": "A"])
            try writer.save()
            return album.objectID
        }
        try reader.performAndWait {
            let cached = reader.object(with: id) // the writer's album keeps the row cached
            #expect(cached.value(forKey: "name") as? String == "A")
            reader.refresh(cached, mergeChanges: false)
            let fault = reader.object(with: id)
            #expect(fault.isFault)
            try coordinator.remove(coordinator.persistentStores[0])
            #expect(fault.value(forKey: "name") == nil)
        }
        withExtendedLifetime(writer) {}
    }

    @Test func unknownTypeOrConfiguration() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: TestStack.albumsModel())
        let error = try #require(throws: NSError.self) {
            try coordinator.addPersistentStore(ofType: "Nope", configurationName: nil, at: nil, options: nil)
        }
        #expect(error.code == NSPersistentStoreInvalidTypeError)
        #expect(throws: NSError.self) {
            try coordinator.addPersistentStore(type: .inMemory, configuration: "Missing", at: URL(fileURLWithPath: "/dev/null"))
        }
    }

    @Test func permanentKeysCountPerEntity() throws {
        let context = try TestStack.context(TestStack.albumsModel())
        let albums = (0..<3).map { _ in TestStack.insert("Album", into: context) }
        let photo = TestStack.insert("Photo", into: context)
        try context.save()
        #expect(albums.map { $0.objectID.uriRepresentation().lastPathComponent } == ["p1", "p2", "p3"])
        #expect(photo.objectID.uriRepresentation().lastPathComponent == "p1")
    }

    /// A save the store refuses changes nothing, in the store or the context.
    @Test func failedStoreSaveIsAtomic() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: TestStack.albumsModel())
        try coordinator.addPersistentStore(type: .inMemory, at: URL(fileURLWithPath: "/dev/null"),
                                           options: [NSReadOnlyPersistentStoreOption: true])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let album = TestStack.insert("Album", into: context, ["name": "A"])
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.code == NSPersistentStoreSaveError)
        #expect(album.isInserted && album.objectID.isTemporaryID && context.hasChanges)
        #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Album")) == 1) // pending only
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = coordinator
        #expect(try reader.count(for: NSFetchRequest<NSManagedObject>(entityName: "Album")) == 0)
    }

    /// The store keeps records, never objects: what it holds is snapshots.
    @Test func storeHoldsSnapshots() throws {
        let context = try TestStack.context(TestStack.albumsModel())
        let album = TestStack.insert("Album", into: context, ["name": "A"])
        let photo = TestStack.insert("Photo", into: context, ["album": album, "index": 2])
        try context.save()
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first)
        let records = try store.snapshots(for: [album.objectID, photo.objectID])
        #expect(records[album.objectID]?.toMany["photos"] == [photo.objectID])
        #expect(records[photo.objectID]?.toOne["album"] == album.objectID)
        #expect(records[photo.objectID]?.attributes["index"] as? Int16 == 2)
        #expect(records[album.objectID]?.version == 1)
        album.setValue("B", forKey: "name")
        try context.save()
        #expect(try store.snapshots(for: [album.objectID])[album.objectID]?.version == 2)
    }
}

/// A model that Xcode would refuse is refused when a store is added, as an
/// NSError that says what to fix.
@Suite struct CoordinatorModelValidationTests {
    @Test func invalidModelIsRejectedWhenAddingAStore() {
        let outside = NSEntityDescription(name: "NotInModel") // held here: descriptions point at each other weakly
        let orphan = NSEntityDescription(name: "Orphan", properties: [
            NSRelationshipDescription(name: "friend", destination: outside),
        ])
        let model = NSManagedObjectModel()
        model.entities = [orphan]
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        do {
            try coordinator.addPersistentStore(type: .inMemory, at: URL(fileURLWithPath: "/dev/null"))
            Issue.record("a model with a destination outside it was accepted")
        } catch let error as NSError {
            #expect(error.domain == NSCocoaErrorDomain && error.code == NSCoreDataError)
            #expect(error.localizedDescription.contains("friend") && error.localizedDescription.contains("NotInModel"))
        }
        #expect(coordinator.persistentStores.isEmpty)
    }
}
