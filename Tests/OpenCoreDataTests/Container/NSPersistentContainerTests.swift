import Testing
@testable import OpenCoreDataCore

/// NSPersistentContainer as Apple documents it: model by name, one SQLite
/// store in defaultDirectoryURL() unless described otherwise, a main-queue
/// viewContext and private-queue background contexts.
@Suite struct NSPersistentContainerTests {
    static func inMemoryContainer() -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "FrozenTime", managedObjectModel: SeedModels.frozenTime())
        let description = NSPersistentStoreDescription()
        description.type = NSInMemoryStoreType
        container.persistentStoreDescriptions = [description]
        return container
    }

    @Test func defaultsFollowCoreData() {
        let container = NSPersistentContainer(name: "FrozenTime", managedObjectModel: SeedModels.frozenTime())
        let description = container.persistentStoreDescriptions.first
        #expect(container.persistentStoreDescriptions.count == 1)
        #expect(description?.type == NSSQLiteStoreType)
        #expect(description?.url == NSPersistentContainer.defaultDirectoryURL().appendingPathComponent("FrozenTime.sqlite"))
        #expect(description?.shouldMigrateStoreAutomatically == true && description?.shouldInferMappingModelAutomatically == true)
        #expect(description?.timeout == 240)
        #expect(container.viewContext.concurrencyType == .mainQueueConcurrencyType)
        #expect(container.newBackgroundContext().concurrencyType == .privateQueueConcurrencyType)
        #expect(container.viewContext.persistentStoreCoordinator === container.persistentStoreCoordinator)
    }

    @Test func descriptionOptions() {
        let description = NSPersistentStoreDescription(url: URL(fileURLWithPath: "/tmp/x.sqlite"))
        description.isReadOnly = true
        description.timeout = 5
        description.setValue("DELETE" as NSString, forPragmaNamed: "journal_mode")
        #expect(description.isReadOnly && description.timeout == 5)
        #expect(description.sqlitePragmas["journal_mode"] as? NSString == "DELETE")
        let copy = description.copy() as! NSPersistentStoreDescription
        #expect(copy.url == description.url && copy.isReadOnly && copy.sqlitePragmas.count == 1)
        #expect(description.storeOptions[NSReadOnlyPersistentStoreOption] as? NSNumber == true)
    }

    @Test func loadSaveAndFetchThroughTheViewContext() async throws {
        let container = Self.inMemoryContainer()
        var reported: [Error?] = []
        container.loadPersistentStores { _, error in reported.append(error) }
        #expect(reported.count == 1 && reported[0] == nil)
        #expect(container.persistentStoreCoordinator.persistentStores.count == 1)
        // On the main actor: the view context is a main-queue context, which Core Data lets code use directly
        // only on the main thread. Used from the cooperative pool, it raced its own end-of-turn processing on
        // the main queue (ThreadSanitizer, 2026-11-25).
        let box = UncheckedBox(container)
        try await MainActor.run {
            let context = box.value.viewContext
            let album = NSEntityDescription.insertNewObject(forEntityName: "Album", into: context)
            album.setValue("Holidays", forKey: "name")
            try context.save()
        }
        let names = try await container.performBackgroundTask { background in
            try background.fetch(NSFetchRequest<NSManagedObject>(entityName: "Album")).map { $0.value(forKey: "name") as? String }
        }
        #expect(names == ["Holidays"])
    }

    @Test func missingModelIsReportedWhenLoading() {
        let container = NSPersistentContainer(name: "NoSuchModel-\(UUID().uuidString)")
        var reported: [NSError] = []
        container.loadPersistentStores { _, error in if let error { reported.append(error as NSError) } }
        #expect(reported.count == 1)
        #expect(reported.first?.domain == NSCocoaErrorDomain && reported.first?.code == NSCoreDataError)
        #expect(reported.first?.localizedDescription.contains("No model named") == true)
    }

    @Test func findsTheModelByName() throws {
        let name = "OCDContainerTest-\(UUID().uuidString)"
        let url = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(name + ".xcdatamodel")
        try SeedModels.company().write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let container = NSPersistentContainer(name: name)
        #expect(container.managedObjectModel.isEqual(SeedModels.company()))
    }

    @Test func unknownStoreTypeIsReportedPerDescription() {
        let container = Self.inMemoryContainer()
        let bad = NSPersistentStoreDescription()
        bad.type = "NoSuchType"
        container.persistentStoreDescriptions.append(bad)
        var errors: [Int?] = []
        container.loadPersistentStores { _, error in errors.append((error as NSError?)?.code) }
        #expect(errors == [nil, NSPersistentStoreInvalidTypeError])
    }
}
