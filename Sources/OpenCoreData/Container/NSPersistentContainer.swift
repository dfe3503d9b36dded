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
    private let modelError: NSError?

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

    /// A container for the model named `name`: `name.xcdatamodeld` or
    /// `name.xcdatamodel` among the resources of the main bundle or any loaded
    /// bundle, or in the current folder. When none is found,
    /// `loadPersistentStores` reports the error.
    public convenience init(name: String) {
        if let url = Self.modelURL(named: name), let model = try? NSManagedObjectModel.load(contentsOf: url) {
            self.init(name: name, managedObjectModel: model, modelError: nil)
        } else {
            let searched = Self.searchFolders().map(\.path).joined(separator: ", ")
            let error = NSError.coreData(NSCoreDataError,
                "No model named '\(name)' (\(name).xcdatamodeld or \(name).xcdatamodel) was found in \(searched). Add it to the target's resources or pass the model to init(name:managedObjectModel:).")
            self.init(name: name, managedObjectModel: NSManagedObjectModel(), modelError: error)
        }
    }

    /// A container for `model`, named `name`.
    public convenience init(name: String, managedObjectModel model: NSManagedObjectModel) {
        self.init(name: name, managedObjectModel: model, modelError: nil)
    }

    private init(name: String, managedObjectModel model: NSManagedObjectModel, modelError: NSError?) {
        self.name = name
        self.managedObjectModel = model
        self.modelError = modelError
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

    /// Runs `block` on a new private-queue context and returns its result.
    public func performBackgroundTask<T: Sendable>(_ block: @escaping @Sendable (NSManagedObjectContext) throws -> T) async throws -> T {
        let context = newBackgroundContext()
        return try await context.perform { try block(context) }
    }

    // MARK: Finding the model

    static func modelURL(named name: String) -> URL? {
        for folder in searchFolders() {
            for candidate in [name + ".xcdatamodeld", name + ".xcdatamodel"] {
                let url = folder.appendingPathComponent(candidate)
                if FileManager.default.fileExists(atPath: url.path) { return url }
            }
        }
        return nil
    }

    private static func searchFolders() -> [URL] {
        let bundles = [Bundle.main] + Bundle.allBundles
        return bundles.compactMap(\.resourceURL) + [URL(fileURLWithPath: FileManager.default.currentDirectoryPath)]
    }
}
