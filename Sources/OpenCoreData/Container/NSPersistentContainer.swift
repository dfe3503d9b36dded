/// The whole Core Data stack in one object: model, coordinator, stores and a
/// main-queue context (Apple's NSPersistentContainer).
///
///     let container = NSPersistentContainer(name: "FrozenTime")
///     container.loadPersistentStores { description, error in … }
///     let album = NSEntityDescription.insertNewObject(forEntityName: "Album", into: container.viewContext)
open class NSPersistentContainer: NSObject, @unchecked Sendable {
    /// The container's name: the model's name, and the default store file's.
    public let name: String
    /// The model the stores hold.
    public let managedObjectModel: NSManagedObjectModel
    /// The coordinator of the container's stores.
    public let persistentStoreCoordinator: NSPersistentStoreCoordinator
    /// The stores `loadPersistentStores` adds; one SQLite store at
    /// `defaultDirectoryURL()/<name>.sqlite` unless changed before loading.
    open var persistentStoreDescriptions: [NSPersistentStoreDescription]
    /// Why the model could not be found, reported by `loadPersistentStores`.
    private var modelError: NSError?

    /// The main-queue context, for the user interface and simple tools.
    public private(set) lazy var viewContext: NSManagedObjectContext = {
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = persistentStoreCoordinator
        context.name = "viewContext"
        return context
    }()

    /// The folder stores go in by default: the user's application-support
    /// folder (`~/.local/share` on Linux), created if needed.
    open class func defaultDirectoryURL() -> URL {
        let base = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        try? FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        return base
    }

    /// A container for the model named `name`: `name.xcdatamodeld`, `name.momd` or
    /// `name.xcdatamodel` among the resources of the main bundle, of any loaded bundle or of the
    /// SwiftPM resource bundles beside the executable (an app's or a test bundle's), or in the
    /// current folder. When none is found, `loadPersistentStores` reports an error that lists
    /// the folders searched.
    public convenience init(name: String) {
        let found = Self.modelURL(named: name)
        var model: NSManagedObjectModel?
        var error: NSError?
        if let found {
            do { model = try NSManagedObjectModel.load(contentsOf: found) } catch let loadError {
                error = NSError.coreData(NSCoreDataError,
                    "The model \(found.path) could not be read: \((loadError as NSError).localizedDescription)")
            }
        } else {
            let searched = Self.searchFolders().map(\.path).joined(separator: ", ")
            error = NSError.coreData(NSCoreDataError,
                "No model named '\(name)' (\(name).xcdatamodeld, \(name).momd or \(name).xcdatamodel) was found in "
                + "\(searched). Add it to the target's resources or pass the model to init(name:managedObjectModel:).")
        }
        self.init(name: name, managedObjectModel: model ?? NSManagedObjectModel())
        modelError = error
    }

    /// A container for `model`, named `name`: the designated initializer, which subclasses override
    /// or call (Apple's `init(name:managedObjectModel:)`).
    public init(name: String, managedObjectModel model: NSManagedObjectModel) {
        self.name = name
        self.managedObjectModel = model
        persistentStoreCoordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        persistentStoreDescriptions = [NSPersistentStoreDescription(
            url: Self.defaultDirectoryURL().appendingPathComponent(name + ".sqlite"))]
        super.init()
    }

    /// Adds every described store, calling `block` once per description with
    /// the error adding it threw, if any. Synchronous unless a description asks
    /// for `shouldAddStoreAsynchronously`.
    open func loadPersistentStores(completionHandler block: @escaping (NSPersistentStoreDescription, Error?) -> Void) {
        for description in persistentStoreDescriptions {
            if description.shouldAddStoreAsynchronously {
                // Core Data's handler is not @Sendable either: the caller
                // owns what it captures, as with Apple's asynchronous loading.
                nonisolated(unsafe) let handler = block
                DispatchQueue.global().async { self.add(description, reportingTo: handler) }
            } else {
                add(description, reportingTo: block)
            }
        }
    }

    private func add(_ description: NSPersistentStoreDescription, reportingTo block: (NSPersistentStoreDescription, Error?) -> Void) {
        if let modelError { return block(description, modelError) }
        do {
            if let staged = description.options[NSPersistentStoreStagedMigrationManagerOptionKey]
                as? NSStagedMigrationManager, let url = description.url {
                try staged.migrateStore(at: url, type: description.type, options: description.storeOptions,
                                        to: managedObjectModel, containerName: name)
            }
            try persistentStoreCoordinator.addPersistentStore(
                ofType: description.type, configurationName: description.configuration,
                at: description.url, options: description.storeOptions)
            block(description, nil)
        } catch {
            block(description, error)
        }
    }

    /// A new private-queue context on the container's coordinator.
    open func newBackgroundContext() -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = persistentStoreCoordinator
        return context
    }

    /// Runs `block` on a new private-queue context, on that context's queue.
    open func performBackgroundTask(_ block: @escaping @Sendable (NSManagedObjectContext) -> Void) {
        let context = newBackgroundContext()
        context.perform { block(context) }
    }

    /// Runs `block` on a new private-queue context and returns its result
    /// or error; a block that throws nothing needs no `try` (Apple's
    /// `async rethrows`, here typed throws).
    public func performBackgroundTask<T, E: Error>(_ block: @escaping (NSManagedObjectContext) throws(E) -> T)
        async throws(E) -> T {
        let context = newBackgroundContext()
        return try await context.perform { () throws(E) -> T in try block(context) }
    }

    // MARK: Finding the model

    static func modelURL(named name: String) -> URL? {
        for folder in searchFolders() {
            for candidate in [name + ".xcdatamodeld", name + ".momd", name + ".xcdatamodel"] {
                let url = folder.appendingPathComponent(candidate)
                if FileManager.default.fileExists(atPath: url.path) { return url }
            }
        }
        return nil
    }

    /// Where models are looked for. SwiftPM on Linux puts a target's resources in
    /// `<Package>_<Target>.resources` beside the executable (the `.xctest` one for tests), which
    /// `Bundle.allBundles` does not list.
    static func searchFolders() -> [URL] {
        let bundles = [Bundle.main] + Bundle.allBundles
        var folders = bundles.compactMap(\.resourceURL)
        if let executableFolder = Bundle.main.executableURL?.deletingLastPathComponent() {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: executableFolder.path)) ?? []
            for name in names.sorted() where name.hasSuffix(".resources") || name.hasSuffix(".bundle") {
                folders.append(executableFolder.appendingPathComponent(name, isDirectory: true))
            }
        }
        folders.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        var seen: Set<String> = []
        return folders.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }
}
