/// The concurrency type of a context, with Apple's raw values.
public enum NSManagedObjectContextConcurrencyType: UInt, Sendable {
    /// Deprecated in Core Data; here it behaves like a private queue.
    case confinementConcurrencyType = 0
    /// The context runs its work on its own serial queue.
    case privateQueueConcurrencyType = 1
    /// The context runs its work on the main queue.
    case mainQueueConcurrencyType = 2
}

/// A scratch pad of managed objects: fetches them, tracks their changes and
/// saves them to the coordinator's stores (Apple's NSManagedObjectContext).
///
/// A context and its objects belong to the context's queue: call its methods
/// inside `perform` or `performAndWait`. The context itself may be passed
/// between threads.
open class NSManagedObjectContext: NSObject, @unchecked Sendable {
    /// How the context runs its work.
    public let concurrencyType: NSManagedObjectContextConcurrencyType
    let queue: DispatchQueue
    /// Whether the concurrency checks (`CoreDataDebug.concurrencyDebug`) were
    /// on when the context was made: they apply to the contexts made after.
    let checksConcurrency = CoreDataDebug.concurrencyDebug

    /// The coordinator whose stores the context reads and saves; for a nested
    /// context, its root context's coordinator. A context has either a
    /// coordinator of its own or a parent, as in Core Data: setting one when
    /// the other is set stops the program.
    public var persistentStoreCoordinator: NSPersistentStoreCoordinator? {
        get { storedParent?.persistentStoreCoordinator ?? ownCoordinator }
        set {
            precondition(storedParent == nil || newValue == nil,
                         "Context already has a parent context; it can't have a coordinator of its own")
            ownCoordinator = newValue
            ownModel = newValue.map { Unmanaged.passUnretained($0.managedObjectModel) }
            ownRowCache = newValue?.rowCache
        }
    }
    // Read on every fetch, fault and insert, written when the context is set up: no exclusivity check in
    // release builds (~76 instructions a read each).
    #if DEBUG
    private var ownCoordinator: NSPersistentStoreCoordinator?
    #else
    @exclusivity(unchecked) private var ownCoordinator: NSPersistentStoreCoordinator?
    #endif
    /// The model of the context's own coordinator, which holds it in a `let`
    /// while the context holds the coordinator: lent by `withModel(_:)`
    /// without the retain and release of the coordinator and the model.
    #if DEBUG
    private var ownModel: Unmanaged<NSManagedObjectModel>?
    #else
    @exclusivity(unchecked) private var ownModel: Unmanaged<NSManagedObjectModel>?
    #endif
    /// The row cache of the context's own coordinator: a fault fired from it
    /// needs no coordinator, whose retain and release take the slow path
    /// (stores reference it weakly), ~170 instructions a fault.
    #if DEBUG
    private(set) var ownRowCache: StoreRowCache?
    #else
    @exclusivity(unchecked) private(set) var ownRowCache: StoreRowCache?
    #endif

    /// The context a nested context reads through and saves into: its
    /// fetches and faults see the parent's unsaved state, and its `save()`
    /// pushes its changes into the parent only (see Context+Parent.swift).
    /// Kept strongly, as in Core Data. Set it before using the context.
    public var parent: NSManagedObjectContext? {
        get { storedParent }
        set {
            precondition(ownCoordinator == nil || newValue == nil,
                         "Context already has a coordinator; it can't have a parent context")
            var ancestor = newValue
            while let context = ancestor {
                precondition(context !== self, "A context can't be its own ancestor")
                ancestor = context.storedParent
            }
            storedParent = newValue
            newValue?.adopt(child: self)
        }
    }
    #if DEBUG
    private var storedParent: NSManagedObjectContext?
    #else
    @exclusivity(unchecked) private var storedParent: NSManagedObjectContext?
    #endif
    /// `body`'s result for the model of the context's coordinator (its root
    /// context's, for a nested context); nil without a coordinator. The
    /// coordinator and the model live on side tables (stores and entities
    /// refer to them weakly), where each retain and release takes the
    /// runtime's slow path, ~50 and ~95 instructions: the model is lent to
    /// `body` in place, ~330 instructions an insert by entity name fewer than
    /// through `persistentStoreCoordinator` (callgrind, insert-items).
    func withModel<Result>(_ body: (NSManagedObjectModel) -> Result) -> Result? {
        if let storedParent { return storedParent.withModel(body) }
        return ownModel?._withUnsafeGuaranteedRef(body)
    }

    /// The contexts that named this one their parent (see Context+Parent.swift).
    let children = Locked<[WeakContext]>([])
    /// Whether some context named this one its parent (read under the
    /// lock: children are set up on any thread): saves without children skip
    /// handing out permanent IDs.
    var hasChildren: Bool { children.withLock { !$0.isEmpty } }
    /// Permanent IDs that an ancestor's saves gave to temporary IDs this
    /// context may still know its objects by; adopted after each call into
    /// the parent (`askParent`).
    let pendingPermanentIDs = Locked<[ObjectKey: NSManagedObjectID]>([:])

    /// A name for debugging; also the label of a private queue's work.
    public var name: String?
    /// Free-form information for the application.
    public var userInfo = NSMutableDictionary()
    /// The author recorded with saves in persistent history.
    public var transactionAuthor: String?
    /// The DidSave observation of `automaticallyMergesChangesFromParent`.
    var automaticMergeObserver: (any NSObjectProtocol)?
    /// How old cached values may be, in seconds; negative (the default) means forever.
    @exclusivity(unchecked) public var stalenessInterval: TimeInterval = -1
    /// How a save resolves conflicts with what other contexts or programs
    /// saved since this context read its objects: an `NSMergePolicy` (one of
    /// its shared policies, such as `.mergeByPropertyObjectTrump`, or a
    /// subclass) or one of the globals such as
    /// `NSMergeByPropertyObjectTrumpMergePolicy`. `NSErrorMergePolicy` (the
    /// default) fails the save with NSManagedObjectMergeError (133020).
    /// Anything else stops the program, as an unknown policy does on Apple.
    public var mergePolicy: Any = NSErrorMergePolicy {
        willSet {
            precondition(newValue is NSMergePolicy, "mergePolicy must be an NSMergePolicy, not \(type(of: newValue))")
        }
    }
    /// Whether a fault whose record vanished reads as a deleted object with nil
    /// values (true, the default) instead of stopping the program.
    @exclusivity(unchecked) public var shouldDeleteInaccessibleFaults = true
    /// Whether deletes propagate at the end of each event (true, the default)
    /// or only when saving.
    @exclusivity(unchecked) public var propagatesDeletesAtEndOfEvent = true

    /// The query generation the context reads at (`NSQueryGenerationToken.current` until its next read takes
    /// one); nil when it reads the stores' current data.
    var queryGeneration: NSQueryGenerationToken?

    /// The undo manager that records the context's changes, a group per event (`processPendingChanges()`);
    /// nil (the default, as on iOS) records nothing and costs nothing. See `undo()`.
    public var undoManager: UndoManager?

    /// Whether the context keeps every registered object alive (false, the
    /// default, as in Core Data: unchanged objects live only as long as the
    /// application or another object references them; objects with unsaved
    /// changes are always kept).
    @exclusivity(unchecked) public var retainsRegisteredObjects = false {
        didSet {
            indexInsertedObjects()
            retained = retainsRegisteredObjects
                ? Dictionary(registered.values.map { (ObjectAddress($0), $0) }) { first, _ in first } : [:]
        }
    }

    /// Registered objects by ID, kept while something else uses them: a
    /// released unchanged object leaves the context, and its memory with it
    /// (see `ObjectRegistry`). Used for every object a fetch makes, inserts and forgets.
    ///
    /// Inserted objects with temporary IDs join it only once something looks
    /// an object up by a temporary ID or lists the registered objects
    /// (`indexInsertedObjects()`): most are saved first, when they join it
    /// under their permanent IDs, and entering each under its temporary ID
    /// and leaving again at the save cost ~850 instructions an object.
    let registered = ObjectRegistry()
    /// Whether the inserted objects with temporary IDs are in `registered`:
    /// false until `indexInsertedObjects()`, and again after each save,
    /// rollback and reset (which leave no inserted object).
    @exclusivity(unchecked) var indexesInsertedObjects = false
    // The context's own state, used on its queue only and on every insert, change, delete and save:
    // release builds skip the exclusivity checks of these (~76 instructions an access), debug builds keep them.
    #if DEBUG
    /// The strong references `retainsRegisteredObjects` asks for.
    var retained: [ObjectAddress: NSManagedObject] = [:]
    var inserted = ContextObjectList(.inserted), updated = ContextObjectList(.updated)
    var deleted = ContextObjectList(.deleted)
    /// Deleted objects whose delete rules have not run yet.
    var pendingDeletes: [NSManagedObject] = []
    /// Deleted objects left faults by a cascade (Context+DeferredDeletes.swift), until the save.
    var deferredDeletes: [ObjectAddress: DeferredDelete] = [:]
    /// Unchanged objects whose records the next save checks for changes
    /// made elsewhere (`detectConflicts(for:)`).
    var lockedObjects = ManagedObjectSet()
    #else
    @exclusivity(unchecked) var retained: [ObjectAddress: NSManagedObject] = [:]
    @exclusivity(unchecked) var inserted = ContextObjectList(.inserted), updated = ContextObjectList(.updated)
    @exclusivity(unchecked) var deleted = ContextObjectList(.deleted)
    @exclusivity(unchecked) var pendingDeletes: [NSManagedObject] = []
    @exclusivity(unchecked) var deferredDeletes: [ObjectAddress: DeferredDelete] = [:]
    @exclusivity(unchecked) var lockedObjects = ManagedObjectSet()
    #endif
    /// Changes since the last `processPendingChanges()`, for ObjectsDidChange.
    /// Read on every change of an object; release builds skip its
    /// exclusivity check (~76 instructions), debug builds keep it.
    #if DEBUG
    var event = ContextEvent() { didSet { eventDidChange() } }
    #else
    @exclusivity(unchecked) var event = ContextEvent() { didSet { eventDidChange() } }
    #endif

    private func eventDidChange() {
        if concurrencyType == .mainQueueConcurrencyType, !event.isEmpty { scheduleEndOfTurnProcessing() }
    }
    /// Whether a main-queue context's end-of-turn processing is scheduled.
    var endOfTurnScheduled = false
    /// The sets a running save's notifications share (`sharingNotificationSets(_:)`); nil outside a save.
    var savesNotificationSets: NotificationSets?

    /// A context whose work runs as `concurrencyType` says.
    public init(concurrencyType: NSManagedObjectContextConcurrencyType) {
        self.concurrencyType = concurrencyType
        queue = concurrencyType == .mainQueueConcurrencyType
            ? .main : DispatchQueue(label: "OpenCoreData.NSManagedObjectContext")
        super.init()
    }

    /// Turns the objects still alive into faults without a context, as
    /// Core Data does when a context goes away: their values (and with them
    /// any reference cycle among objects) are let go, and reading a property
    /// of such an object gives nil.
    deinit {
        if let automaticMergeObserver { NotificationCenter.default.removeObserver(automaticMergeObserver) }
        // Objects only other registered objects reference are invalidated too: they go with the
        // registry, and invalidating them breaks any cycle among them.
        registered.forEachShared { $0.invalidate() }
        for object in inserted.objects + updated.objects + deleted.objects + pendingDeletes { object.invalidate() }
    }

    /// When the registry was last swept of objects nothing else uses (see
    /// `sweepRegistryIfDue()`), in seconds of system uptime.
    var lastRegistrySweep = ProcessInfo.processInfo.systemUptime

    /// Drops the registered objects (and cached rows) the application let go,
    /// at most once a second, when the registry holds enough entries to
    /// matter: the registry only sweeps itself as it grows, so without this
    /// a context that fetched many objects once would keep them until its
    /// next growth, reset or release. Called at the end of each `perform`.
    func sweepRegistryIfDue() {
        let enough = ObjectRegistry.minimumSweepCount
        guard registered.storageCount >= enough else { return }
        let now = ProcessInfo.processInfo.systemUptime
        guard now - lastRegistrySweep >= 1 else { return }
        lastRegistrySweep = now
        registered.sweep()
        persistentStoreCoordinator?.rowCache.sweep()
    }

    // MARK: Object sets

    /// Whether any object was inserted, updated or deleted since the last save.
    public var hasChanges: Bool { !inserted.isEmpty || !updated.isEmpty || !deleted.isEmpty }
    /// Objects inserted since the last save.
    public var insertedObjects: Set<NSManagedObject> { Set(inserted.objects) }
    /// Saved objects changed since the last save.
    public var updatedObjects: Set<NSManagedObject> { Set(updated.objects) }
    /// Objects to delete at the next save (objects inserted and deleted in
    /// the same event are simply forgotten and not listed).
    public var deletedObjects: Set<NSManagedObject> { Set(deleted.objects) }
    /// Every object the context holds, faults included.
    public var registeredObjects: Set<NSManagedObject> {
        indexInsertedObjects()
        return Set(registered.values)
    }

    // MARK: Looking up objects

    /// The object registered for `objectID`, or nil; never reads the store.
    public func registeredObject(for objectID: NSManagedObjectID) -> NSManagedObject? {
        if objectID.isTemporaryID { indexInsertedObjects() }
        return registered[objectID]
    }

    /// Puts the inserted objects with temporary IDs in the registry, where
    /// lookups by ID and lists of the registered objects find them, and has
    /// `insert(_:)` put the next ones there at once until the next save.
    /// O(inserted objects) the first time in a save's cycle, then O(1).
    func indexInsertedObjects() {
        guard !indexesInsertedObjects else { return }
        indexesInsertedObjects = true
        guard !inserted.isEmpty else { return }
        registered.reserveCapacity(forAdding: inserted.count)
        for object in inserted.objects where object.hasTemporaryID { register(object) }
    }

    /// Whether `object`, one of this context's, is in `registered`: all are
    /// but inserted objects with temporary IDs before `indexInsertedObjects()`.
    func isInRegistry(_ object: NSManagedObject) -> Bool {
        indexesInsertedObjects || !object.isInsertedFlag || !object.hasTemporaryID
    }

    /// The object for `objectID`: the registered one, or a new fault that
    /// loads when first used. Never reads the store.
    @discardableResult
    public func object(with objectID: NSManagedObjectID) -> NSManagedObject {
        if parent != nil, !objectID.isTemporaryID {
            if let object = registered[objectID] { return object }
            // Perhaps an object this context knows by a temporary ID that an ancestor's save replaced.
            adoptPendingPermanentIDs()
        }
        if objectID.isTemporaryID { indexInsertedObjects() }
        // One hash lookup finds the object or the place for a new fault (a
        // fetch makes most of its objects here).
        let (object, made) = registered.updateValue(forKey: RegistryKey(objectID)) { entry in
            if let entry { return (entry, false) }
            let fault = makeFault(for: objectID)
            entry = fault
            return (fault, true)
        }
        if made, retainsRegisteredObjects { retained[ObjectAddress(object)] = object }
        return object
    }

    /// `object(with:)` for the ID of `record`, made only when the lookup needs
    /// it: a record named by family and key is found by them (as a fetch
    /// finds its objects) in a context without a parent, which has no other
    /// IDs to adopt first.
    func object(for record: RecordIdentity) -> NSManagedObject {
        guard parent == nil, record.madeID == nil else { return object(with: record.objectID) }
        let (family, primaryKey) = record.permanentRecord
        return object(family, primaryKey: primaryKey)
    }

    /// `object(with:)` for the permanent ID of `primaryKey` in `family`,
    /// without making the ID: a new fault's ID is made when first asked for.
    func object(_ family: ObjectIDFamily, primaryKey: Int64) -> NSManagedObject {
        // The closures written in the call: a closure bound to a name first is
        // not inlined, and its context cost ~330 instructions a fault.
        let (object, made) = registered.updateValue(
            hash: { NSManagedObjectID.tableHash(family, primaryKey: primaryKey, seed: $0) },
            matching: { $0.isRecord(family, primaryKey: primaryKey) }
        ) { entry in
            if let entry { return (entry, false) }
            let fault = newFault(of: family.entity)
            fault.assignRecord(family, primaryKey: primaryKey)
            entry = fault
            return (fault, true)
        }
        if made, retainsRegisteredObjects { retained[ObjectAddress(object)] = object }
        return object
    }

    /// A new fault for `objectID`, registered: for callers that know no
    /// object is registered for it.
    func registerFault(for objectID: NSManagedObjectID) -> NSManagedObject {
        let object = makeFault(for: objectID)
        register(object)
        return object
    }

    /// A new fault for `objectID` in this context, not registered yet.
    private func makeFault(for objectID: NSManagedObjectID) -> NSManagedObject {
        let object = newFault(of: objectID.entity)
        object.objectID = objectID
        return object
    }

    /// An object of `entity` as a fault of this context, with no ID yet.
    private func newFault(of entity: NSEntityDescription) -> NSManagedObject {
        let object = ManagedObjectClasses.objectClass(for: entity).init(entity: entity, insertInto: nil)
        object.values.removeAll()
        object.isFaultStorage = true
        object.hasAwokenFromInsert = true
        object.managedObjectContext = self
        return object
    }

    /// The object for `objectID` with its values loaded, reading the store if
    /// needed. Throws NSManagedObjectReferentialIntegrityError (133000) when
    /// the store has no such record.
    @discardableResult
    public func existingObject(with objectID: NSManagedObjectID) throws -> NSManagedObject {
        if let object = registeredObject(for: objectID), !object.isFault, !object.isInaccessible { return object }
        guard let row = try loadRow(for: objectID) else {
            throw NSError.coreData(NSManagedObjectReferentialIntegrityError,
                                   "No object with ID \(objectID) exists in the store.",
                                   userInfo: [NSAffectedObjectsErrorKey: [objectID]])
        }
        let object = object(with: objectID)
        if object.isFault { fulfill(object, with: row) }
        return object
    }

    // MARK: Inserting

    /// Registers a new object with the context; it is saved with the next save.
    /// Inserting a deleted object of this context undoes the delete.
    public func insert(_ object: NSManagedObject) {
        checkConcurrency("inserting an object of \(object.entity.name ?? "")")
        if object.managedObjectContext === self {
            if object.isDeletedFlag { undelete(object) }
            return
        }
        precondition(object.managedObjectContext == nil,
                     "An NSManagedObject of entity \(object.entity.name ?? "") may not be inserted into a second context")
        object.managedObjectContext = self
        object.isInsertedFlag = true
        if isInRegistry(object) {
            register(object)
        } else if retainsRegisteredObjects {
            // Kept until the save registers it under its permanent ID.
            retained[ObjectAddress(object)] = object
        }
        inserted.append(object)
        event.noteInserted(object)
        if !object.hasAwokenFromInsert {
            object.hasAwokenFromInsert = true
            object.awakeFromInsert()
        }
    }

    /// Registers `object` under its current ID.
    func register(_ object: NSManagedObject) {
        registered[object.registryKey] = object
        if retainsRegisteredObjects { retained[ObjectAddress(object)] = object }
    }

    private func undelete(_ object: NSManagedObject) {
        object.isDeletedFlag = false
        deleted.remove(object)
        if !event.deleted.remove(object) { event.undeleted.append(object) }
        pendingDeletes.removeAll { $0 === object }
        deferredDeletes[ObjectAddress(object)] = nil
        if !object.isInsertedFlag { objectDidChange(object) }
    }

    /// Records that `object` changed: it joins the updated objects unless it
    /// is inserted or deleted, and the event's updated objects unless the
    /// event inserted it (ObjectsDidChange lists what changed in the event,
    /// also objects changed in earlier events and not saved since).
    /// Whether a change of `object` in the current event is recorded and
    /// the object still counts as changed (a save clears that).
    func hasRecordedChange(of object: NSManagedObject) -> Bool {
        event.hasNoted(object) && (object.isUpdatedFlag || object.isInsertedFlag)
    }

    func objectDidChange(_ object: NSManagedObject) {
        // Recorded already in this event and still tracked as changed: every
        // property set after the first (and `didChangeValue` after each set)
        // ends here. The flags are checked because a save clears them
        // without starting a new event.
        if hasRecordedChange(of: object) { return }
        event.noteChanged(object)
        guard !object.isDeletedFlag else { return }
        if !event.wasInserted(object) { event.noteUpdated(object) }
        guard !object.isInsertedFlag, !object.isUpdatedFlag else { return }
        object.isUpdatedFlag = true
        updated.append(object)
    }

    /// Drops `object` from the context entirely: it keeps its values but no
    /// longer has a context. `unregistering` false: the caller took it out
    /// of the registry already.
    func forget(_ object: NSManagedObject, unregistering: Bool = true) {
        // One lookup: the entry goes only when it is this object.
        if unregistering, isInRegistry(object) {
            registered.updateValue(forKey: object.registryKey) { entry in
                if entry === object { entry = nil }
            }
        }
        // Most contexts retain nothing: an empty table is not hashed into.
        if !retained.isEmpty { retained[ObjectAddress(object)] = nil }
        inserted.remove(object)
        updated.remove(object)
        deleted.remove(object)
        object.isInsertedFlag = false
        object.isUpdatedFlag = false
        object.isDeletedFlag = false
        object.managedObjectContext = nil
    }
}

/// What changed in a context since its last `processPendingChanges()`.
///
/// Objects inserted, changed or updated in the event carry the event's
/// number, so that a change, recorded at every property set, tests and
/// updates membership by comparing numbers: those three lists are plain
/// arrays, with no hashing.
struct ContextEvent {
    /// The objects inserted in the event, in order, each once.
    private(set) var inserted: [NSManagedObject] = []
    /// The objects changed in the event that were not inserted in it, each once.
    private(set) var updated: [NSManagedObject] = []
    var deleted = ManagedObjectSet()
    /// Objects deleted before the event whose deletion the event took back
    /// (`insert` of a deleted object, as undo does): undoing the event deletes them again.
    var undeleted: [NSManagedObject] = []
    var refreshed = ManagedObjectSet(), invalidated = ManagedObjectSet()
    /// Every object whose values changed, each once, for clearing their event baselines.
    private(set) var changed: [NSManagedObject] = []
    /// Unique among the events of every context, so that an object's marks
    /// from an earlier event (or another context) never match; from 1, as
    /// objects start unmarked at 0.
    private let number = Self.numbers.next()

    private static let numbers = SerialNumbers()

    /// Adds `object` to the objects inserted in the event.
    mutating func noteInserted(_ object: NSManagedObject) {
        guard object.insertedInEvent != number else { return }
        object.insertedInEvent = number
        inserted.append(object)
    }

    /// Whether `object` was inserted in the event; O(1), no hashing.
    func wasInserted(_ object: NSManagedObject) -> Bool { object.insertedInEvent == number }

    /// Adds `object` to the objects updated in the event.
    mutating func noteUpdated(_ object: NSManagedObject) {
        guard object.updatedInEvent != number else { return }
        object.updatedInEvent = number
        updated.append(object)
    }

    /// Whether `object`'s values changed in the event; O(1), no hashing.
    func hasNoted(_ object: NSManagedObject) -> Bool { object.changedInEvent == number }

    /// Adds `object` to the objects whose values changed in the event.
    mutating func noteChanged(_ object: NSManagedObject) {
        guard object.changedInEvent != number else { return }
        object.changedInEvent = number
        changed.append(object)
    }

    var isEmpty: Bool {
        inserted.isEmpty && updated.isEmpty && deleted.isEmpty && undeleted.isEmpty && refreshed.isEmpty
            && invalidated.isEmpty
    }
}
