import Testing
@testable import OpenCoreDataCore

final class Album: NSManagedObject {
    @Managed var name: String?
    @Managed var sheets: Int32
    @Managed var photos: NSSet?

    @nonobjc class func fetchRequest() -> NSFetchRequest<Album> { NSFetchRequest<Album>(entityName: "Album") }
}

final class Photo: NSManagedObject {
    @Managed var name: String?
    @Managed("path") var location: String?
    @Managed var index: Int16
    @Managed var album: Album?

    nonisolated(unsafe) static var events: [String] = []
    override func awakeFromInsert() { super.awakeFromInsert(); Self.events.append("insert \(name ?? "")") }
    override func awakeFromFetch() { super.awakeFromFetch(); Self.events.append("fetch \(name ?? "")") }
    override func willSave() { super.willSave(); Self.events.append("willSave \(name ?? "")") }
    override func didSave() { super.didSave(); Self.events.append("didSave") }
    override func prepareForDeletion() { super.prepareForDeletion(); Self.events.append("prepareForDeletion \(name ?? "")") }
}

/// NSManagedObject: typed subclasses, key-value access, change tracking, IDs
/// (reference §3.4, §3.5; H-MO).
@Suite(.serialized) struct ManagedObjectTests {
    static func context() throws -> NSManagedObjectContext {
        try TestStack.context(TestStack.albumsModel(photoClass: "Photo", albumClass: "OpenCoreDataTests.Album"))
    }

    @Test func typedSubclassesThroughManaged() throws {
        let context = try Self.context()
        let album = Album(context: context)
        album.name = "Trip"
        album.sheets = 2
        let photo = Photo(context: context)
        photo.name = "0001"
        photo.location = "/p"
        photo.album = album
        #expect(photo.value(forKey: "path") as? String == "/p")
        #expect(photo.index == 0) // nil scalar reads 0
        #expect(album.photos?.count == 1) // inverse maintained
        #expect(Album.entity().name == "Album")
        #expect(Photo.fetchRequest().entityName == "Photo")
        try context.save()

        // Class lookup: objects fetched elsewhere come back as the registered classes.
        let reader = TestStack.sibling(of: context)
        let albums = try reader.fetch(Album.fetchRequest())
        #expect(albums.count == 1 && albums[0].sheets == 2)
        let photos = albums[0].photos?.allObjects as? [Photo]
        #expect(photos?.first?.name == "0001")
        #expect(photos?.first?.album === albums[0])
    }

    /// An object equals itself only, however it is given: as itself, as
    /// `NSObject` or `AnyObject`, in an `AnyHashable` or an optional; sets
    /// of objects reach `isEqual(_:)` on every probe that meets another one.
    @Test func isEqualIsIdentityHoweverTheObjectIsGiven() throws {
        let context = try TestStack.context(TestStack.albumsModel(albumClass: "Album"), .sqlite)
        let album = try #require(TestStack.insert("Album", into: context) as? Album)
        let other = TestStack.insert("Album", into: context)
        #expect(album.isEqual(album) && album.isEqual(album as NSObject) && album.isEqual(album as AnyObject))
        #expect(album.isEqual(album as NSManagedObject) && album.isEqual(AnyHashable(album)))
        #expect(album.isEqual(Optional(album) as Any) && album == (album as NSObject))
        #expect(!album.isEqual(other) && !album.isEqual(other as NSObject) && !album.isEqual(nil))
        #expect(!album.isEqual(album.objectID) && !album.isEqual("Album") && !album.isEqual(NSObject()))
        let objects = (0..<300).map { _ in TestStack.insert("Album", into: context) }
        let set = Set(sparse: objects)
        #expect(set.count == 300 && objects.allSatisfy(set.contains) && !set.contains(other))
    }

    /// A to-one set reads an object given as `NSManagedObject` where it lies; given any other way
    /// (as `NSObject`, in an optional, boxed by generic code, as a subclass) the cast finds it, with
    /// the same inverse maintenance. A nil in any form clears the relationship.
    @Test func aToOneTakesItsDestinationHoweverItIsGiven() throws {
        func erased<T>(_ value: T) -> Any { value }
        let context = try TestStack.context(TestStack.albumsModel(albumClass: "Album"), .sqlite)
        let album = TestStack.insert("Album", into: context)
        let forms: [Any?] = [album, album as NSObject, Optional(album) as Any, erased(album as Any),
                             album as AnyObject, try #require(album as? Album)]
        for (index, form) in forms.enumerated() {
            let photo = TestStack.insert("Photo", into: context)
            photo.setValue(form, forKey: "album")
            #expect(photo.value(forKey: "album") as? NSManagedObject === album, "form \(index)")
            #expect((album.value(forKey: "photos") as? NSSet)?.contains(photo) == true, "form \(index)")
            photo.setValue(index.isMultiple(of: 2) ? nil : Optional<NSManagedObject>.none as Any, forKey: "album")
            #expect(photo.value(forKey: "album") == nil, "form \(index)")
            #expect((album.value(forKey: "photos") as? NSSet)?.contains(photo) == false, "form \(index)")
        }
    }

    @Test func lifeCycleHooks() throws {
        let context = try Self.context()
        Photo.events = []
        let photo = Photo(context: context) // awakeFromInsert runs before the name is set
        photo.name = "a"
        try context.save()
        let reader = TestStack.sibling(of: context)
        let loaded = try #require(reader.fetch(NSFetchRequest<Photo>(entityName: "Photo")).first)
        _ = loaded.name
        reader.delete(loaded)
        try reader.save()
        #expect(Photo.events == ["insert ", "willSave a", "didSave", "fetch a", "prepareForDeletion a", "willSave a", "didSave"])
    }

    /// A Cascade to objects of a subclass reads their records and calls
    /// `prepareForDeletion()` on each, while it is still intact (H-MO): a
    /// subclass may read its values there, so its objects are not deleted as
    /// faults as plain ones are (Context+DeferredDeletes.swift).
    @Test func aCascadeToASubclassPreparesEachObjectForDeletion() throws {
        let writer = try TestStack.context(TestStack.albumsModel(photoClass: "Photo"), .sqlite)
        let album = TestStack.insert("Album", into: writer, ["name": "A"])
        for index in 0..<3 { TestStack.insert("Photo", into: writer, ["name": "p\(index)", "album": album]) }
        try writer.save()
        // Another coordinator: its row cache holds none of the photos, which come as faults.
        let reader = try TestStack.reader(of: writer)
        Photo.events = []
        let fetched = try #require(try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album")).first)
        reader.delete(fetched)
        reader.processPendingChanges()
        let photos = reader.deletedObjects.filter { $0 is Photo }
        #expect(photos.count == 3 && photos.allSatisfy { !$0.isFault })
        #expect(Photo.events.filter { $0.hasPrefix("prepareForDeletion") }.sorted()
                == ["prepareForDeletion p0", "prepareForDeletion p1", "prepareForDeletion p2"])
        try reader.save()
        #expect(try reader.count(for: NSFetchRequest<NSManagedObject>(entityName: "Photo")) == 0)
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func valuesConvertToTheAttributeType(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(TestStack.albumsModel(), kind)
        let photo = TestStack.insert("Photo", into: context)
        photo.setValue(7, forKey: "index")
        #expect(photo.value(forKey: "index") as? Int16 == 7)
        photo.setValue(NSNumber(value: 8), forKey: "index")
        #expect(photo.value(forKey: "index") as? Int16 == 8)
        photo.setValue(Optional<String>.none, forKey: "name")
        #expect(photo.value(forKey: "name") == nil)
    }

    /// Core Data refuses instances of an abstract entity; checked from the
    /// frozen lookups once a coordinator froze the model, from the entity before.
    @Test func anObjectOfAnAbstractEntityStopsTheProgram() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let model = TestStack.albumsModel()
            model.entitiesByName["Album"]?.isAbstract = true
            let context = try TestStack.context(model)
            _ = TestStack.insert("Album", into: context)
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("Can't create an object of abstract entity Album"))
        await #expect(processExitsWith: .failure) {
            let entity = NSEntityDescription(name: "Shape")
            entity.isAbstract = true
            _ = NSManagedObject(entity: entity, insertInto: nil)
        }
    }

    @Test func wrongTypeStopsTheProgram() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let context = try TestStack.context(TestStack.albumsModel())
            TestStack.insert("Photo", into: context).setValue("seven", forKey: "index")
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains(#"property = "index"; entity = "Photo"; desired type = Int16; given type = String"#))
        await #expect(processExitsWith: .failure) {
            let context = try TestStack.context(TestStack.albumsModel())
            _ = TestStack.insert("Photo", into: context).value(forKey: "colour")
        }
        await #expect(processExitsWith: .failure) {
            let context = try TestStack.context(TestStack.albumsModel())
            let photo = TestStack.insert("Photo", into: context)
            photo.setValue(TestStack.insert("Photo", into: context), forKey: "album") // a Photo is not an Album
        }
        await #expect(processExitsWith: .failure) { // 40000 does not fit Integer 16
            let context = try TestStack.context(TestStack.albumsModel())
            TestStack.insert("Photo", into: context).setValue(40_000, forKey: "index")
        }
    }

    /// Core Data refuses a relationship between objects of different contexts, and between an
    /// object with a context and one without; the contexts are compared without retaining them.
    @Test func aRelationshipAcrossContextsStopsTheProgram() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let model = TestStack.albumsModel()
            let one = try TestStack.context(model), other = try TestStack.context(model)
            TestStack.insert("Photo", into: one).setValue(TestStack.insert("Album", into: other), forKey: "album")
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("Illegal attempt to establish a relationship 'album' of entity Photo "
                                 + "between objects in different contexts"))
        await #expect(processExitsWith: .failure) {
            let model = TestStack.albumsModel()
            let context = try TestStack.context(model)
            let album = NSManagedObject(entity: try #require(model.entitiesByName["Album"]), insertInto: nil)
            TestStack.insert("Photo", into: context).setValue(album, forKey: "album")
        }
        let model = TestStack.albumsModel()
        let context = try TestStack.context(model)
        let photo = TestStack.insert("Photo", into: context), album = TestStack.insert("Album", into: context)
        photo.setValue(album, forKey: "album")
        #expect(photo.value(forKey: "album") as? NSManagedObject === album)
        let loose = NSManagedObject(entity: try #require(model.entitiesByName["Photo"]), insertInto: nil)
        let looseAlbum = NSManagedObject(entity: try #require(model.entitiesByName["Album"]), insertInto: nil)
        loose.setValue(looseAlbum, forKey: "album")
        #expect(loose.value(forKey: "album") as? NSManagedObject === looseAlbum)
    }

    /// An inserted object is registered before anything asks for its ID
    /// (the context makes the ID only then, `RegistryKey`): an ID asked for
    /// late finds the object, stays the same, and differs from every other
    /// object's; the save gives permanent IDs to all of them alike.
    @Test(arguments: [TestStack.StoreKind.inMemory, .sqlite])
    func temporaryIDsMadeLateFindTheirObjects(_ kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(TestStack.albumsModel(), kind)
        let albums = (0..<3).map { TestStack.insert("Album", into: context, ["name": "A\($0)"]) }
        #expect(context.registeredObjects.count == 3 && albums.allSatisfy(\.hasTemporaryID))
        let late = albums[1].objectID
        #expect(late.isTemporaryID && albums[1].objectID === late)
        #expect(context.registeredObject(for: late) === albums[1] && context.object(with: late) === albums[1])
        #expect(try context.existingObject(with: late) === albums[1])
        let others = [albums[0].objectID, albums[2].objectID]
        #expect(Set(others + [late]).count == 3 && others.allSatisfy { context.registeredObject(for: $0) != nil })
        try context.save()
        #expect(albums.allSatisfy { !$0.objectID.isTemporaryID && context.registeredObject(for: $0.objectID) === $0 })
        #expect(context.registeredObject(for: late) == nil)
        #expect(Set(albums.map(\.objectID)).count == 3)
        let never = TestStack.insert("Album", into: context, ["name": "B"])
        context.delete(never) // deleted before anything asked for its ID: it leaves the context
        context.processPendingChanges()
        #expect(!context.registeredObjects.contains(never) && never.managedObjectContext == nil)
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func objectIDsAndURIs(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(TestStack.albumsModel(), kind)
        let album = TestStack.insert("Album", into: context, ["name": "A"])
        let temporary = album.objectID
        #expect(temporary.isTemporaryID && temporary.persistentStore == nil)
        let uri = temporary.uriRepresentation().absoluteString
        #expect(uri.hasPrefix("x-coredata:///Album/t"))
        #expect(uri.count > "x-coredata:///Album/t".count + 36) // UUID plus a counter (reference §3.4)
        try context.obtainPermanentIDs(for: [album])
        #expect(!album.objectID.isTemporaryID && album.isInserted)
        #expect(context.registeredObject(for: album.objectID) === album)
        try context.save()
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first)
        #expect(album.objectID.uriRepresentation().absoluteString == "x-coredata://\(store.identifier!)/Album/p1")
        #expect(album.objectID.persistentStore === store && album.objectID.entity.name == "Album")

        let reader = TestStack.sibling(of: context)
        let again = try #require(reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album")).first)
        #expect(again.objectID == album.objectID && again.objectID.hashValue == album.objectID.hashValue)
        #expect(again !== album)
        let coordinator = try #require(context.persistentStoreCoordinator)
        #expect(coordinator.managedObjectID(forURIRepresentation: album.objectID.uriRepresentation()) == album.objectID)
        #expect(coordinator.managedObjectID(forURIRepresentation: temporary.uriRepresentation()) == nil)
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func changeTracking(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(TestStack.albumsModel(), kind)
        let album = TestStack.insert("Album", into: context, ["name": "A", "sheets": 1])
        #expect(album.isInserted && album.hasChanges && !album.isUpdated)
        #expect(Set(album.changedValues().keys) == ["name", "sheets"])
        try context.save()
        #expect(!album.hasChanges && album.changedValues().isEmpty && !album.hasPersistentChangedValues)

        album.setValue("B", forKey: "name")
        #expect(album.isUpdated && album.hasPersistentChangedValues)
        #expect(album.changedValues().keys.sorted() == ["name"])
        #expect(album.changedValuesForCurrentEvent()["name"] as? String == "B")
        #expect(album.committedValues(forKeys: ["name"])["name"] as? String == "A")
        context.processPendingChanges()
        #expect(album.changedValuesForCurrentEvent().isEmpty) // a new event began
        #expect(album.changedValues().keys.sorted() == ["name"])

        album.setValue("A", forKey: "name") // back to the saved value
        #expect(album.changedValues().isEmpty && !album.hasPersistentChangedValues)
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func primitiveAccessSkipsInverseMaintenance(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(TestStack.albumsModel(), kind)
        let album = TestStack.insert("Album", into: context)
        let photo = TestStack.insert("Photo", into: context)
        photo.setPrimitiveValue(album, forKey: "album")
        #expect(photo.primitiveValue(forKey: "album") as? NSManagedObject === album)
        #expect(TestStack.set(album, "photos").isEmpty)
        album.setValue("A", forKey: "name")
        #expect(photo.value(forKeyPath: "album.name") as? String == "A")
        #expect(album.value(forKeyPath: "photos.name") as? NSSet == NSSet())
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func faults(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(TestStack.albumsModel(), kind)
        let album = TestStack.insert("Album", into: context, ["name": "A"])
        try context.save()
        let reader = TestStack.sibling(of: context)
        let fault = reader.object(with: album.objectID)
        #expect(fault.isFault && fault.faultingState != 0)
        #expect(reader.object(with: album.objectID) === fault) // uniquing
        #expect(fault.value(forKey: "name") as? String == "A")
        #expect(!fault.isFault && fault.faultingState == 0)
        let fetched = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album"))
        #expect(fetched.first === fault)

        let third = TestStack.sibling(of: context)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Album")
        #expect(try third.fetch(request).allSatisfy(\.isFault)) // returnsObjectsAsFaults defaults to true
        let fourth = TestStack.sibling(of: context)
        request.returnsObjectsAsFaults = false
        #expect(try fourth.fetch(request).allSatisfy { !$0.isFault })
        #expect(try fourth.existingObject(with: album.objectID).value(forKey: "name") as? String == "A")
    }
}
