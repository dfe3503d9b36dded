/// A store that keeps managed objects' records (Apple's NSPersistentStore).
///
/// Concrete stores (the in-memory store, the SQLite store) subclass it and
/// override the record operations below; the coordinator calls them one at a
/// time, under its lock, so a store needs no locking of its own.
open class NSPersistentStore: NSObject, @unchecked Sendable {
    /// The store type, e.g. `NSInMemoryStoreType`.
    open var type: String { "" }

    /// The configuration of the model whose entities the store holds; nil for all.
    public let configurationName: String

    /// Where the store lives; `/dev/null` style URLs for in-memory stores.
    public var url: URL?

    /// The options the store was added with.
    public let options: [AnyHashable: Any]?

    /// The coordinator that uses the store.
    public internal(set) weak var persistentStoreCoordinator: NSPersistentStoreCoordinator?

    /// Whether saves are refused.
    public var isReadOnly: Bool = false

    /// The store's identifier, `NSStoreUUIDKey` of its metadata; part of every
    /// permanent object ID's URI.
    public var identifier: String! {
        get { cachedIdentifier }
        set { metadata[NSStoreUUIDKey] = newValue }
    }

    /// How many saves this process made to the store: with the file's
    /// modification date, what tells a cache of results that the store changed.
    var generation = 0

    /// The store's metadata: `NSStoreUUIDKey`, `NSStoreTypeKey`, the model's
    /// version hashes, and whatever the application adds.
    open var metadata: [String: Any] = [:] {
        didSet {
            cachedIdentifier = metadata[NSStoreUUIDKey] as? String
            metadataChanges += 1
        }
    }
    /// How many times `metadata` was set: a store compares it with the count
    /// it last wrote instead of encoding the metadata at every save.
    private(set) var metadataChanges = 0
    /// `NSStoreUUIDKey` of `metadata`, kept apart because every object ID the
    /// store makes reads it (a metadata lookup and cast cost ~2,500 instructions).
    private var cachedIdentifier: String?
    /// `idFamily(for:)`'s families by entity; each holds its entity, so no key outlives its entity.
    private let idFamilies = Locked<[ObjectAddress: ObjectIDFamily]>([:])

    /// A store described by its coordinator, configuration, location and options.
    public required init(persistentStoreCoordinator root: NSPersistentStoreCoordinator?, configurationName name: String?,
                         at url: URL, options: [AnyHashable: Any]? = nil) {
        self.persistentStoreCoordinator = root
        self.configurationName = name ?? NSManagedObjectModel.defaultConfigurationName
        self.url = url
        self.options = options
        self.isReadOnly = (options?[NSReadOnlyPersistentStoreOption] as? Bool) ?? false
        super.init()
        metadata[NSStoreUUIDKey] = UUID().uuidString
        metadata[NSStoreTypeKey] = type
        // Observers don't run for the class's own initializer.
        cachedIdentifier = metadata[NSStoreUUIDKey] as? String
    }

    /// Opens the store: reads or creates its file and metadata. Called once by
    /// the coordinator when the store is added.
    open func loadMetadata() throws {}

    // MARK: Record operations, overridden by concrete stores

    /// `count` new primary keys for objects of `entity`, never handed out before.
    func newPrimaryKeys(for entity: NSEntityDescription, count: Int) throws -> [Int64] {
        preconditionFailure("\(Swift.type(of: self)) does not implement newPrimaryKeys(for:count:)")
    }

    /// The records of `ids` that exist, by ID. A store may leave to-many
    /// relationships `.unread`, to be read by `destinations(of:via:)` when used.
    func snapshots(for ids: [NSManagedObjectID]) throws -> [ObjectKey: StoreSnapshot] {
        preconditionFailure("\(Swift.type(of: self)) does not implement snapshots(for:)")
    }

    /// The records of `primaryKeys` (distinct) in `family`, one of this
    /// store's, that exist, in no particular order: what a batch of faults a
    /// fetch made reads, without making their IDs. This general form makes
    /// the IDs for `snapshots(for:)`; stores override it where keys suffice.
    func snapshots(of family: ObjectIDFamily, primaryKeys: [Int64]) throws -> [StoreSnapshot] {
        Array(try snapshots(for: primaryKeys.map { NSManagedObjectID(family: family, key: .permanent($0)) }).values)
    }

    /// The record of `primaryKey` in `family` (`snapshots(of:primaryKeys:)`'s one), in an array: what a
    /// fault fires alone reads. Stores override it where one record costs less than a batch's read.
    func snapshots(of family: ObjectIDFamily, primaryKey: Int64) throws -> [StoreSnapshot] {
        try snapshots(of: family, primaryKeys: [primaryKey])
    }

    /// The destinations of the to-many `relationship` of each record of
    /// `ids` that has any (in order for ordered relationships). This general
    /// form takes them from the records; stores that leave to-many
    /// relationships unread override it.
    func destinations(of ids: [NSManagedObjectID], via relationship: NSRelationshipDescription) throws
        -> [ObjectKey: [NSManagedObjectID]] {
        try snapshots(for: ids).compactMapValues { snapshot in
            let ids = snapshot[snapshot.layout.slot(of: relationship)].destinationIDs
            return ids.isEmpty ? nil : ids
        }
    }

    /// The destinations of the to-many `relationship` of each record of
    /// `ids` (as `destinations(of:via:)`), with the destinations' records:
    /// what propagating a delete reads before the destinations' own rules
    /// run. This general form reads the records in a second pass; a store
    /// that can read both at once overrides it.
    func destinationsWithRecords(of ids: [NSManagedObjectID], via relationship: NSRelationshipDescription)
        throws -> (destinations: [ObjectKey: [NSManagedObjectID]], records: [StoreSnapshot]) {
        let destinations = try destinations(of: ids, via: relationship)
        return (destinations, Array(try snapshots(for: destinations.values.flatMap { $0 }).values))
    }

    /// The destinations of the to-many `relationship` of each record of
    /// `ids` (as `destinations(of:via:)`), with each destination's version
    /// (`Z_OPT`, which the save's delete requires; by owner, in the order of
    /// its destinations): what deleting destinations whose rules need none
    /// of their values reads. Nil when the store has no versions to read
    /// without the records; the caller reads those then.
    func destinationsWithVersions(of ids: [NSManagedObjectID], via relationship: NSRelationshipDescription)
        throws -> (destinations: [ObjectKey: [NSManagedObjectID]], versions: [ObjectKey: [Int64]])? {
        nil
    }

    /// The records of `ids` with every to-many relationship read: what
    /// evaluating key paths over stored records needs.
    func completeSnapshots(for ids: [NSManagedObjectID]) throws -> [ObjectKey: StoreSnapshot] {
        var found = try snapshots(for: ids)
        let byEntity = Dictionary(grouping: found.keys) { ObjectIdentifier($0.id.entity) }
        for keys in byEntity.values {
            let layout = found[keys[0]]!.layout
            for (slot, property) in layout.properties.enumerated() {
                guard let relationship = property as? NSRelationshipDescription, relationship.isToMany else { continue }
                let owners = keys.filter { found[$0]![slot].isUnread }
                guard !owners.isEmpty else { continue }
                let read = try destinations(of: owners.map(\.id), via: relationship)
                for owner in owners { found[owner]![slot] = read[owner].map(SlotValue.ids) ?? .none }
            }
        }
        return found
    }

    /// The IDs of the records a fetch selects, in the request's order, with
    /// their records when the store reads them in the same pass.
    func execute(_ fetch: StoreFetch) throws -> StoreFetchResult {
        preconditionFailure("\(Swift.type(of: self)) does not implement execute(_:)")
    }

    /// How many records `execute(fetch)` would select; stores that can count
    /// without listing the records override it.
    func count(_ fetch: StoreFetch) throws -> Int {
        try execute(fetch).ids.count
    }

    /// Runs a batch update and returns how many records it changed, with
    /// their IDs (always listed here; see ``StoreBatchUpdate/wantsIDs``). This
    /// general form reads the selected records, sets the values and saves them
    /// as one change set (each record's version raised); stores with a query
    /// language override it with one statement.
    func executeBatchUpdate(_ update: StoreBatchUpdate) throws -> StoreBatchUpdateResult {
        let ids = Array(try execute(StoreFetch(entity: update.entity, request: update.fetchRequest, appliesWindow: true)).ids)
        let loader = StoreRowLoader()
        var changes = StoreChangeSet()
        for row in try loader.rows(ids) {
            guard let snapshot = loader.snapshot(row.id) else { continue }
            changes.updated.append(try update.updated(snapshot, row: row))
        }
        try save(changes)
        return StoreBatchUpdateResult(count: changes.updated.count, ids: changes.updated.map(\.objectID))
    }

    /// Runs a batch delete (`NSBatchDeleteRequest`). Only stores with a query
    /// language run one, as in Core Data (SQLite only); this general form
    /// throws NSPersistentStoreUnsupportedRequestTypeError (134091).
    func executeBatchDelete(_ delete: StoreBatchDelete) throws -> StoreBatchDeleteResult {
        throw unsupported("NSBatchDeleteRequest")
    }

    /// Runs a batch insert (`NSBatchInsertRequest`); as `executeBatchDelete(_:)`,
    /// SQLite stores only, others throw NSPersistentStoreUnsupportedRequestTypeError (134091).
    func executeBatchInsert(_ insert: StoreBatchInsert) throws -> StoreBatchInsertResult {
        throw unsupported("NSBatchInsertRequest")
    }

    private func unsupported(_ request: String) -> NSError {
        let kind = type.isEmpty ? "\(Swift.type(of: self))" : type
        return NSError.coreData(NSPersistentStoreUnsupportedRequestTypeError,
                                "\(request) is only supported by SQLite stores; this store is of type \(kind).")
    }

    /// Applies a save atomically: on error the store is as it was.
    func save(_ changes: StoreChangeSet) throws {
        preconditionFailure("\(Swift.type(of: self)) does not implement save(_:)")
    }

    /// A permanent ID of a record of this store.
    func objectID(for entity: NSEntityDescription, primaryKey: Int64) -> NSManagedObjectID {
        NSManagedObjectID(family: idFamily(for: entity), key: .permanent(primaryKey))
    }

    /// What the store's IDs of `entity` share, made once per entity (and
    /// again after the store's identifier changes). Costs a lock and a
    /// lookup: a loop making many IDs asks once.
    func idFamily(for entity: NSEntityDescription) -> ObjectIDFamily {
        let identifier = cachedIdentifier
        return idFamilies.withLock { families in
            if let family = families[ObjectAddress(entity)], family.storeIdentifier == identifier { return family }
            let family = ObjectIDFamily(entity: entity, store: self)
            families[ObjectAddress(entity)] = family
            return family
        }
    }

    /// Whether the store holds objects of `entity` (by its configuration).
    func holds(_ entity: NSEntityDescription) -> Bool {
        guard let model = persistentStoreCoordinator?.managedObjectModel,
              let members = model.entities(forConfigurationName: configurationName) else { return false }
        return members.contains { $0 === entity }
    }
}

/// The type name of the in-memory store.
public let NSInMemoryStoreType = "InMemory"
/// The type name of the SQLite store.
public let NSSQLiteStoreType = "SQLite"
/// Metadata key of the store's UUID.
public let NSStoreUUIDKey = "NSStoreUUID"
/// Metadata key of the store's type.
public let NSStoreTypeKey = "NSStoreType"
/// Metadata key of the version hashes of the model the store was saved with.
public let NSStoreModelVersionHashesKey = "NSStoreModelVersionHashes"
/// Option: open the store read-only.
public let NSReadOnlyPersistentStoreOption = "NSReadOnlyPersistentStoreOption"

extension NSPersistentStore {
    /// A store type by name, as the new `addPersistentStore(type:…)` takes it.
    public struct StoreType: RawRepresentable, Hashable, Sendable {
        /// The type name, e.g. `NSInMemoryStoreType`.
        public let rawValue: String
        /// The store type named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The in-memory store.
        public static let inMemory = StoreType(rawValue: NSInMemoryStoreType)
        /// The SQLite store.
        public static let sqlite = StoreType(rawValue: NSSQLiteStoreType)
    }
}
