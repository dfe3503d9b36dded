// CloudKit stacks compile unchanged and store locally: Linux has no CloudKit. Apple's CloudKit-only
// members that take or return CloudKit types (`record(for:)`, `databaseScope`) are left out.

/// A persistent container that Apple mirrors to CloudKit (Apple's NSPersistentCloudKitContainer).
/// On this platform it is an `NSPersistentContainer`: its stores are local only, and loading them
/// says once per process, on standard error, that CloudKit sync is not available.
open class NSPersistentCloudKitContainer: NSPersistentContainer, @unchecked Sendable {
    /// Adds the stores as `NSPersistentContainer` does, after saying (once) that they won't sync.
    open override func loadPersistentStores(
        completionHandler block: @escaping (NSPersistentStoreDescription, Error?) -> Void) {
        CloudKitAvailability.noteUnavailable()
        super.loadPersistentStores(completionHandler: block)
    }

    /// Apple creates the CloudKit schema for the model here; with no CloudKit there is nothing to
    /// create, so it returns without error.
    open func initializeCloudKitSchema(options: NSPersistentCloudKitContainerSchemaInitializationOptions = []) throws {
    }

    /// Whether the object's record may be changed: always, since no CloudKit share restricts it.
    open func canUpdateRecord(forManagedObjectWith objectID: NSManagedObjectID) -> Bool { true }

    /// Whether the object's record may be deleted: always, since no CloudKit share restricts it.
    open func canDeleteRecord(forManagedObjectWith objectID: NSManagedObjectID) -> Bool { true }

    /// Whether objects in `store` may be changed: unless the store is read-only.
    open func canModifyManagedObjects(in store: NSPersistentStore) -> Bool { !store.isReadOnly }
}

/// How `initializeCloudKitSchema(options:)` works (Apple's option set, same raw values).
public struct NSPersistentCloudKitContainerSchemaInitializationOptions: OptionSet, Sendable {
    /// The option set's bits.
    public let rawValue: UInt
    /// The options with bits `rawValue`.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// Validate the model and create the records without uploading them.
    public static let dryRun = NSPersistentCloudKitContainerSchemaInitializationOptions(rawValue: 1 << 1)
    /// Print the generated schema to the console.
    public static let printSchema = NSPersistentCloudKitContainerSchemaInitializationOptions(rawValue: 1 << 2)
}

/// Which CloudKit container a store mirrors to (Apple's NSPersistentCloudKitContainerOptions).
/// Kept on the store description; nothing is mirrored on this platform.
open class NSPersistentCloudKitContainerOptions: NSObject, @unchecked Sendable {
    /// The CloudKit container's identifier, such as `iCloud.com.example.App`.
    public let containerIdentifier: String

    /// Options for the CloudKit container `containerIdentifier`.
    public init(containerIdentifier: String) {
        self.containerIdentifier = containerIdentifier
        super.init()
    }
}

/// Says once per process that CloudKit sync does not happen here, so that a CloudKit stack ported
/// unchanged does not look as if it synced.
enum CloudKitAvailability {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var said = false

    /// Whether this call was the one that said it.
    @discardableResult
    static func noteUnavailable() -> Bool {
        let first = lock.withLock { () -> Bool in
            defer { said = true }
            return !said
        }
        guard first else { return false }
        let message = "OpenCoreData: CloudKit sync is not available on this platform; "
            + "NSPersistentCloudKitContainer stores its data locally only.\n"
        FileHandle.standardError.write(Data(message.utf8))
        return true
    }
}
