/// Connects contexts to stores (Apple's NSPersistentStoreCoordinator).
///
/// The coordinator freezes its model, routes each entity's records to the
/// store whose configuration holds it, and serialises store access with one
/// lock, so contexts on different queues may share it.
open class NSPersistentStoreCoordinator: NSObject, @unchecked Sendable {
    /// The model of every store; immutable from the coordinator's creation on.
    public let managedObjectModel: NSManagedObjectModel

    private let lock = NSRecursiveLock()
    private var stores: [NSPersistentStore] = []

    /// A name for debugging.
    public var name: String?

    /// The records objects of this coordinator's contexts hold, for firing
    /// faults without reading the store.
    let rowCache = StoreRowCache()

    /// A coordinator for `model`, which it freezes (Core Data forbids editing
    /// a model once a coordinator uses it).
    ///
    /// Apple declares `public init(managedObjectModel model: NSManagedObjectModel)`; `required` here
    /// so that `type(of: coordinator).init(managedObjectModel:)` compiles as it does for Apple's
    /// Objective-C initializer.
    public required init(managedObjectModel model: NSManagedObjectModel) {
        model.freeze()
        managedObjectModel = model
        super.init()
        ManagedObjectClasses.noteModel(model)
    }

    /// The stores, in the order they were added.
    public var persistentStores: [NSPersistentStore] { lock.withLock { stores } }

    /// Runs `body` with exclusive access to the stores.
    func performStoreAccess<T>(_ body: () throws -> T) rethrows -> T {
        try lock.withLock(body)
    }

    // MARK: Adding and removing stores

    /// Adds a store of `type` at `url` for `configuration` (nil: every entity)
    /// and returns it. Throws NSPersistentStoreInvalidTypeError (134000) for an
    /// unknown type, or whatever opening the store throws.
    @discardableResult
    public func addPersistentStore(type: NSPersistentStore.StoreType, configuration: String? = nil,
                                   at storeURL: URL, options: [AnyHashable: Any]? = nil) throws -> NSPersistentStore {
        try addPersistentStore(ofType: type.rawValue, configurationName: configuration, at: storeURL, options: options)
    }

    /// The older spelling of `addPersistentStore(type:configuration:at:options:)`;
    /// a nil URL is accepted for in-memory stores.
    @discardableResult
    public func addPersistentStore(ofType storeType: String, configurationName configuration: String?,
                                   at storeURL: URL?, options: [AnyHashable: Any]?) throws -> NSPersistentStore {
        // A model built in code is checked the way Xcode checks a model file,
        // so that a broken one fails here with a message instead of misbehaving later;
        // a frozen model that passed once is not checked again (a failure is not remembered).
        do {
            _ = try managedObjectModel.derived("validated") { try managedObjectModel.validateAcceptingXcodeWarnings() }
        } catch {
            throw error as NSError
        }
        guard let storeClass = Self.registeredStoreTypesByName[storeType] else {
            throw NSError.coreData(NSPersistentStoreInvalidTypeError, "Unknown store type '\(storeType)'.")
        }
        if let configuration, managedObjectModel.entities(forConfigurationName: configuration) == nil {
            throw NSError.coreData(NSPersistentStoreInvalidTypeError, "The model has no configuration named '\(configuration)'.")
        }
        let store = storeClass.init(persistentStoreCoordinator: self, configurationName: configuration,
                                    at: storeURL ?? URL(fileURLWithPath: "/dev/null"), options: options)
        try store.loadMetadata()
        if store.metadata[NSStoreModelVersionHashesKey] == nil {
            store.metadata[NSStoreModelVersionHashesKey] = managedObjectModel.entityVersionHashesByName
        }
        postStoresChange(willChange: true, added: [store])
        lock.withLock { stores.append(store) }
        postStoresChange(willChange: false, added: [store])
        return store
    }

    /// Removes `store`; objects from it can no longer be read or saved.
    public func remove(_ store: NSPersistentStore) throws {
        guard persistentStores.contains(where: { $0 === store }) else {
            throw NSError.coreData(NSPersistentStoreOperationError, "The store is not in this coordinator.")
        }
        NotificationCenter.default.post(name: .NSPersistentStoreCoordinatorWillRemoveStore, object: self)
        postStoresChange(willChange: true, removed: [store])
        try lock.withLock {
            guard let index = stores.firstIndex(where: { $0 === store }) else {
                throw NSError.coreData(NSPersistentStoreOperationError, "The store is not in this coordinator.")
            }
            stores.remove(at: index)
            store.persistentStoreCoordinator = nil
        }
        // Faults fired from the cache do not ask for their store: none may find a row of this one.
        rowCache.forgetRecords(ofStore: store.identifier)
        postStoresChange(willChange: false, removed: [store])
    }

    /// The store whose `url` is `url`, if any.
    public func persistentStore(for url: URL) -> NSPersistentStore? {
        persistentStores.first { $0.url == url }
    }

    /// The metadata of `store`.
    public func metadata(for store: NSPersistentStore) -> [String: Any] {
        lock.withLock { store.metadata }
    }

    /// Replaces the metadata of `store` (saved with its next save).
    public func setMetadata(_ metadata: [String: Any]?, for store: NSPersistentStore) {
        lock.withLock { store.metadata = metadata ?? [:] }
    }

    // MARK: Object IDs

    /// The ID that `url` (from `uriRepresentation()`) names, or nil when no
    /// store of this coordinator holds such a record kind. Costs a scan of the stores.
    public func managedObjectID(forURIRepresentation url: URL) -> NSManagedObjectID? {
        guard url.scheme == "x-coredata", let host = url.host, !host.isEmpty else { return nil }
        let parts = url.path.split(separator: "/")
        guard parts.count == 2, parts[1].first == "p", let pk = Int64(parts[1].dropFirst()),
              let entity = managedObjectModel.entitiesByName[String(parts[0])],
              let store = persistentStores.first(where: { $0.identifier == host }) else { return nil }
        return store.objectID(for: entity, primaryKey: pk)
    }

    /// The store new objects of `entity` go to: the first that holds the entity.
    func store(for entity: NSEntityDescription) -> NSPersistentStore? {
        persistentStores.first { $0.holds(entity) }
    }

    // MARK: Store types

    private static let registryLock = NSLock()
    nonisolated(unsafe) private static var registeredStoreTypes: [String: NSPersistentStore.Type] = [
        NSInMemoryStoreType: InMemoryStore.self,
        NSSQLiteStoreType: SQLiteStore.self,
    ]

    /// Makes `storeClass` the class of stores of type `storeType` (nil unregisters it).
    public static func registerStoreClass(_ storeClass: AnyClass?, type storeType: NSPersistentStore.StoreType) {
        registryLock.withLock { registeredStoreTypes[storeType.rawValue] = storeClass as? NSPersistentStore.Type }
    }

    /// The registered store types and their classes.
    public static var registeredStoreTypesByName: [String: NSPersistentStore.Type] {
        registryLock.withLock { registeredStoreTypes }
    }
}
