/// How a persistent container adds one store: its type, location,
/// configuration and options (Apple's NSPersistentStoreDescription).
open class NSPersistentStoreDescription: NSObject, NSCopying, @unchecked Sendable {
    /// The store type; SQLite unless set.
    open var type: String = NSSQLiteStoreType
    /// The model configuration whose entities the store holds; nil for all.
    open var configuration: String?
    /// The store file's location.
    open var url: URL?
    /// The options passed to `addPersistentStore`, keyed by option name.
    open private(set) var options: [String: NSObject] = [:]

    /// Sets (or removes, for nil) one store option.
    open func setOption(_ option: NSObject?, forKey key: String) { options[key] = option }

    /// Whether the store is opened read-only (`NSReadOnlyPersistentStoreOption`).
    open var isReadOnly: Bool {
        get { (options[NSReadOnlyPersistentStoreOption] as? NSNumber)?.boolValue ?? false }
        set { setOption(NSNumber(value: newValue), forKey: NSReadOnlyPersistentStoreOption) }
    }

    /// Seconds to wait for a locked SQLite file (`NSPersistentStoreTimeoutOption`); 240 by default, as in Core Data.
    open var timeout: TimeInterval {
        get { (options[NSPersistentStoreTimeoutOption] as? NSNumber)?.doubleValue ?? 240 }
        set { setOption(NSNumber(value: newValue), forKey: NSPersistentStoreTimeoutOption) }
    }

    /// SQLite pragmas applied when the store opens (`NSSQLitePragmasOption`).
    open var sqlitePragmas: [String: NSObject] {
        (options[NSSQLitePragmasOption] as? NSDictionary).map { dictionary in
            var pragmas: [String: NSObject] = [:]
            for (key, value) in dictionary { if let key = key as? String, let value = value as? NSObject { pragmas[key] = value } }
            return pragmas
        } ?? [:]
    }

    /// Sets (or removes, for nil) one SQLite pragma.
    open func setValue(_ value: NSObject?, forPragmaNamed name: String) {
        var pragmas = sqlitePragmas
        pragmas[name] = value
        setOption(NSDictionary(dictionary: pragmas), forKey: NSSQLitePragmasOption)
    }

    /// Whether `loadPersistentStores` adds this store on a background queue.
    open var shouldAddStoreAsynchronously = false
    /// The CloudKit container an NSPersistentCloudKitContainer mirrors the store to. Kept so that
    /// CloudKit stacks compile; nothing is mirrored on this platform.
    open var cloudKitContainerOptions: NSPersistentCloudKitContainerOptions?
    /// Whether a store of another model version is migrated to the model
    /// when added (`NSMigratePersistentStoresAutomaticallyOption`); true, as on Apple platforms.
    open var shouldMigrateStoreAutomatically = true
    /// Whether the mapping for that migration is inferred
    /// (`NSInferMappingModelAutomaticallyOption`, lightweight migration); true, as on Apple platforms.
    open var shouldInferMappingModelAutomatically = true

    /// A description of a SQLite store at `url`.
    public init(url: URL) {
        self.url = url
        super.init()
    }

    /// A description of an SQLite store in memory: its `url` is `/dev/null`, as in Core Data.
    public override init() {
        url = URL(fileURLWithPath: "/dev/null")
        super.init()
    }

    /// An independent copy of every setting, options dictionary included.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSPersistentStoreDescription()
        copy.type = type
        copy.configuration = configuration
        copy.url = url
        copy.options = options
        copy.shouldAddStoreAsynchronously = shouldAddStoreAsynchronously
        copy.shouldMigrateStoreAutomatically = shouldMigrateStoreAutomatically
        copy.shouldInferMappingModelAutomatically = shouldInferMappingModelAutomatically
        copy.cloudKitContainerOptions = cloudKitContainerOptions
        return copy
    }

    /// The options as `addPersistentStore` takes them, migration flags included.
    var storeOptions: [AnyHashable: Any] {
        var all: [AnyHashable: Any] = [:]
        for (key, value) in options { all[key] = value }
        all[NSMigratePersistentStoresAutomaticallyOption] = shouldMigrateStoreAutomatically
        all[NSInferMappingModelAutomaticallyOption] = shouldInferMappingModelAutomatically
        return all
    }

    /// The type and path, for logs.
    open override var description: String {
        "<NSPersistentStoreDescription> (type: \(type), url: \(url?.path ?? "nil"))"
    }
}

/// Option: SQLite pragmas to apply when the store opens (a dictionary).
public let NSSQLitePragmasOption = "NSSQLitePragmasOption"
/// Option: seconds to wait for a locked store file.
public let NSPersistentStoreTimeoutOption = "NSPersistentStoreTimeoutOption"
/// Option: migrate an older store to the model automatically.
public let NSMigratePersistentStoresAutomaticallyOption = "NSMigratePersistentStoresAutomaticallyOption"
/// Option: infer the mapping model for automatic migration.
public let NSInferMappingModelAutomaticallyOption = "NSInferMappingModelAutomaticallyOption"
/// Option: record persistent history (a Boolean `NSNumber`): each transaction of an SQLite store,
/// in Core Data's tables, read with `NSPersistentHistoryChangeRequest`. Costs one row per changed
/// record in each save (about a quarter more instructions for a save of new objects).
public let NSPersistentHistoryTrackingKey = "NSPersistentHistoryTrackingKey"
/// Option: post `NSPersistentStoreRemoteChange` notifications when a commit reaches an SQLite
/// store's file, from another process or coordinator (a Boolean `NSNumber`). Costs a file watch
/// and one small read per burst of writes.
public let NSPersistentStoreRemoteChangeNotificationPostOptionKey = "NSPersistentStoreRemoteChangeNotificationOptionKey"
