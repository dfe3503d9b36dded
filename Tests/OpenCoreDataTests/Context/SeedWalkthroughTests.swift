import Testing
@testable import OpenCoreDataCore

/// The walk-throughs of shared/seeds, replayed against each store type;
/// readers of saved data open SQLite stores again.
@Suite struct SeedWalkthroughTests {
    /// Seed 000/003 (FrozenTime): photos added to an album with
    /// `addPhotosObject:`, saved, loaded back, sorted by name, and the album
    /// deleted with Cascade taking its photos.
    @Test(arguments: TestStack.StoreKind.allCases)
    func albumsWithPhotosCascade(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(TestStack.albumsModel(), kind)
        let album = TestStack.insert("Album", into: context, ["name": "Trip"])
        for index in [3, 1, 2] {
            let photo = NSEntityDescription.insertNewObject(forEntityName: "Photo", into: context)
            photo.setValue(0, forKey: "index") // Int converts to Integer 16
            photo.setValue(String(format: "%04i", index), forKey: "name")
            photo.setValue("/photos/\(index)", forKey: "path")
            album.mutableSetValue(forKey: "photos").add(photo)
            #expect(photo.value(forKey: "album") as? NSManagedObject === album) // inverse set at once
        }
        album.setValue(3, forKey: "sheets")
        try context.save()

        // Load from another context, as the seed's table view does.
        let reader = try TestStack.reader(of: context)
        let albums = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album"))
        #expect(albums.count == 1)
        let loaded = try #require(albums.first)
        #expect(loaded.value(forKey: "sheets") as? Int32 == 3)
        // sortedArrayUsingDescriptors by name: by hand until NSSortDescriptor arrives.
        let sorted = TestStack.set(loaded, "photos").sorted { ($0.value(forKey: "name") as! String) < ($1.value(forKey: "name") as! String) }
        #expect(sorted.map { $0.value(forKey: "name") as? String } == ["0001", "0002", "0003"])
        #expect(sorted.map { $0.value(forKey: "path") as? String } == ["/photos/1", "/photos/2", "/photos/3"])

        // Delete the album: Cascade deletes its photos (reference §2.1, CDPG-REL).
        reader.delete(loaded)
        reader.processPendingChanges()
        #expect(sorted.allSatisfy { $0.isDeleted })
        try reader.save()
        #expect(try reader.count(for: NSFetchRequest<NSManagedObject>(entityName: "Photo")) == 0)
        // Fetches read the store, so the first context sees the deletion too,
        // although its registered album object was not merged (reference §3.1).
        #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Album")) == 0)
        #expect(album.managedObjectContext === context && !album.isDeleted)
    }

    /// Seed 001: Unit.items with Deny. Deleting the Kg unit while items use it
    /// fails at save with 1600 ("a validation error when the context was
    /// saved"); once the items are moved to another unit the save succeeds.
    @Test(arguments: TestStack.StoreKind.allCases)
    func denyUntilItemsAreMoved(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(TestStack.shoppingModel(unitRule: .denyDeleteRule), kind)
        let kg = TestStack.insert("Unit", into: context, ["name": "Kg"])
        let pound = TestStack.insert("Unit", into: context, ["name": "pound"])
        let onions = TestStack.insert("Item", into: context, ["name": "onions", "unit": kg])
        let corn = TestStack.insert("Item", into: context, ["name": "corn", "unit": kg])
        try context.save()
        #expect(TestStack.names(TestStack.set(kg, "items")) == ["corn", "onions"])

        context.delete(kg)
        context.processPendingChanges()
        #expect(onions.value(forKey: "unit") as? NSManagedObject === kg) // Deny does nothing until save
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSValidationRelationshipDeniedDeleteError)
        #expect(error.userInfo[NSValidationObjectErrorKey] as? NSManagedObject === kg)
        #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "items")
        #expect(kg.isDeleted && context.hasChanges) // a failed save leaves the context as it was
        #expect(try TestStack.reader(of: context).count(for: NSFetchRequest<NSManagedObject>(entityName: "Unit")) == 2)

        onions.setValue(pound, forKey: "unit")
        corn.setValue(pound, forKey: "unit")
        #expect(TestStack.set(kg, "items").isEmpty)
        try context.save()
        let checker = try TestStack.reader(of: context)
        let units = try checker.fetch(NSFetchRequest<NSManagedObject>(entityName: "Unit"))
        #expect(TestStack.names(units) == ["pound"])
        #expect(TestStack.names(TestStack.set(units[0], "items")) == ["corn", "onions"])
    }

    /// Seed 001/000 rule text: Nullify sets the employees' department to nil;
    /// No Action leaves them "believing they belong to that department".
    @Test(arguments: [NSDeleteRule.nullifyDeleteRule, .noActionDeleteRule], TestStack.StoreKind.allCases)
    func departmentDeletion(rule: NSDeleteRule, kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(TestStack.companyModel(rule: rule), kind)
        let department = TestStack.insert("Department", into: context, ["name": "R&D"])
        let ada = TestStack.insert("Employee", into: context, ["name": "Ada", "department": department])
        let bob = TestStack.insert("Employee", into: context, ["name": "Bob", "department": department, "manager": ada])
        try context.save()
        let departmentID = department.objectID

        context.delete(department)
        try context.save()
        #expect(ada.isDeleted == false && bob.isDeleted == false)
        #expect(TestStack.names(TestStack.set(ada, "reports")) == ["Bob"]) // other relationships untouched
        let reader = try TestStack.reader(of: context)
        let employees = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Employee"))
        #expect(TestStack.names(employees) == ["Ada", "Bob"])
        if rule == .nullifyDeleteRule {
            #expect(ada.value(forKey: "department") == nil)
            #expect(employees.allSatisfy { $0.value(forKey: "department") == nil })
        } else {
            #expect(ada.value(forKey: "department") as? NSManagedObject === department)
            // The stored reference dangles: it names a record that no longer exists.
            let stale = try #require(employees.first?.value(forKey: "department") as? NSManagedObject)
            #expect(stale.objectID == departmentID)
            #expect(throws: NSError.self) { try reader.existingObject(with: departmentID) }
        }
    }

    /// Seed 004: Quake.countries ⟷ Country.quakes, many-to-many.
    @Test(arguments: TestStack.StoreKind.allCases)
    func quakesAndCountriesManyToMany(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(TestStack.quakesModel(), kind)
        let japan = TestStack.insert("Country", into: context, ["name": "Japan"])
        let russia = TestStack.insert("Country", into: context, ["name": "Russia"])
        let q1 = TestStack.insert("Quake", into: context, ["magnitude": 7.1, "place": "Sea of Japan"])
        let q2 = TestStack.insert("Quake", into: context, ["magnitude": 5.0, "place": "Honshu"])
        q1.setValue(NSSet(array: [japan, russia]), forKey: "countries")
        q2.mutableSetValue(forKey: "countries").add(japan)
        #expect(TestStack.set(japan, "quakes") == [q1, q2])
        #expect(TestStack.set(russia, "quakes") == [q1])
        try context.save()

        let reader = try TestStack.reader(of: context)
        let countries = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Country"))
        let loadedJapan = try #require(countries.first { $0.value(forKey: "name") as? String == "Japan" })
        #expect(Set(TestStack.set(loadedJapan, "quakes").map { $0.value(forKey: "place") as! String }) == ["Sea of Japan", "Honshu"])

        // Removing from one side removes from the other (Nullify on delete likewise).
        japan.mutableSetValue(forKey: "quakes").remove(q1)
        #expect(TestStack.set(q1, "countries") == [russia])
        context.delete(russia)
        context.processPendingChanges()
        #expect(TestStack.set(q1, "countries").isEmpty)
        try context.save()
        let checker = try TestStack.reader(of: context) // objects keep only a weak reference to their context
        let refetched = try checker.fetch(NSFetchRequest<NSManagedObject>(entityName: "Quake"))
        #expect(refetched.map { TestStack.set($0, "countries").count }.sorted() == [0, 1])
    }
}
