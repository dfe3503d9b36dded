/// An object of an entity, tracked by a context (Apple's NSManagedObject).
///
/// The object keeps its property values in its entity's slots; the context records which
/// objects changed, maintains inverse relationships and saves them. An object
/// belongs to its context's queue: use it only inside `perform` or
/// `performAndWait` of that context.
open class NSManagedObject: NSObject, KeyValueCoding {
    /// The entity the object is an instance of: its ID's, or the one it
    /// was made with while it has no ID yet.
    public var entity: NSEntityDescription {
        switch identity {
        case .entity(let entity): entity
        case .id(let id): id.family.entity
        case .record(let family, _): family.entity
        }
    }

    /// Whether the object's entity is `entity`, asked without retaining it
    /// (a save's validation asks it of every changed object).
    func isOfEntity(_ entity: NSEntityDescription?) -> Bool {
        switch identity {
        case .entity(let own): own === entity
        case .id(let id): id.family.entity === entity
        case .record(let family, _): family.entity === entity
        }
    }

    /// The object's ID: temporary until the object is saved, then permanent.
    /// The temporary ID is made at first use: an object made as a fault gets
    /// its store's ID right after `init` or, made by a fetch of faults, at
    /// first use, and an inserted object that is saved before anything asks
    /// for its ID never pays for one.
    public internal(set) var objectID: NSManagedObjectID {
        get {
            switch identity {
            case .id(let id): return id
            case .entity(let entity):
                let temporary = NSManagedObjectID.temporary(for: entity, number: temporaryNumber)
                identity = .id(temporary)
                return temporary
            case .record(let family, let primaryKey):
                let id = NSManagedObjectID(family: family, key: .permanent(primaryKey))
                identity = .id(id)
                return id
            }
        }
        set {
            assert(newValue.entity === entity, "An object's ID names its entity")
            identity = .id(newValue)
        }
    }

    /// The object's ID once it has one, else its entity, or for a fault
    /// made by a fetch the record its ID will name: an ID names its entity
    /// (`NSManagedObjectID.entity`), and a fault's ID is made only when asked
    /// for (a fetch of 100k faults made 100k IDs, 48 bytes each, that nothing
    /// read). Two words; with the flags in the context's word and the change
    /// state's, the object is 88 bytes: a 96-byte block.
    private enum Identity {
        case entity(NSEntityDescription)
        case id(NSManagedObjectID)
        /// The permanent ID of `primaryKey` in `family`, not made yet.
        case record(ObjectIDFamily, Int64)
    }
    private var identity: Identity

    /// The ID, when the object has made or been given one.
    private var storedObjectID: NSManagedObjectID? {
        if case .id(let id) = identity { return id }
        return nil
    }

    /// Whether the object holds an ID object yet (a fault a fetch made has
    /// none until its ID is asked for).
    var holdsObjectID: Bool {
        if case .id = identity { return true }
        return false
    }

    /// Makes the object, a fault just made, the one of `primaryKey` in
    /// `family` (its entity's), without making its ID.
    func assignRecord(_ family: ObjectIDFamily, primaryKey: Int64) {
        assert(family.entity === entity, "An object's record is of its entity")
        identity = .record(family, primaryKey)
    }

    /// The number of the object's temporary ID, given at first need.
    private var temporaryNumber: Int {
        if let number = changeState?.temporaryNumber { return number }
        let number = TemporaryIDSource.next()
        madeChangeState.temporaryNumber = number
        return number
    }

    /// Whether the object's ID is temporary, asked without making the ID.
    var hasTemporaryID: Bool {
        switch identity {
        case .id(let id): id.isTemporaryID
        case .entity: true
        case .record: false
        }
    }

    /// The key the object's context registers it under: its ID's, made
    /// without making the ID (see `RegistryKey`) except for a fault made
    /// from its record, which a registry finds by that record instead.
    var registryKey: RegistryKey {
        switch identity {
        case .id(let id): RegistryKey(id)
        case .entity: .temporary(temporaryNumber)
        case .record: RegistryKey(objectID)
        }
    }

    /// Whether `key` is the object's `registryKey`, asked without making
    /// that key (which retains the ID): the registry (`ObjectRegistry`) asks
    /// it of every object it probes. An object without a temporary number yet
    /// has no key to match.
    func hasTableKey(_ key: RegistryKey) -> Bool {
        switch key {
        case .temporary(let number):
            switch identity {
            case .entity: return changeState?.temporaryNumber == number
            case .id(let id): return id.key == .temporary(number)
            case .record: return false
            }
        case .permanent(let other):
            switch identity {
            case .id(let id): return id.namesSameRecord(as: other.id)
            case .record(let family, let primaryKey): return other.id.names(family, primaryKey: primaryKey)
            case .entity: return false
            }
        }
    }

    /// The family and primary key of the object's stored record, without
    /// making its ID; nil while its ID is temporary.
    var storedRecord: (family: ObjectIDFamily, primaryKey: Int64)? {
        switch identity {
        case .record(let family, let primaryKey): (family, primaryKey)
        case .id(let id): id.primaryKey.map { (id.family, $0) }
        case .entity: nil
        }
    }

    /// Whether the object is the one of `primaryKey` in `family`, asked
    /// without making an ID: what the registry asks of the objects it probes
    /// for a fault a fetch makes (`NSManagedObjectContext.object(_:primaryKey:)`).
    func isRecord(_ family: ObjectIDFamily, primaryKey: Int64) -> Bool {
        switch identity {
        case .id(let id): id.names(family, primaryKey: primaryKey)
        case .record(let own, let ownKey): ownKey == primaryKey && own.namesSameRecords(as: family)
        case .entity: false
        }
    }

    /// Whether the object is the one `record` names (`objectID` equal to its
    /// ID), asked without making either ID.
    func isRecord(_ record: RecordIdentity) -> Bool {
        switch identity {
        case .id(let own): return record.isNamed(by: own)
        case .record(let family, let primaryKey): return record.names(family, primaryKey: primaryKey)
        case .entity:
            // No ID made yet: only a temporary ID given out for the object's number names it.
            guard case .temporary(let number) = record.madeID?.key else { return false }
            return changeState?.temporaryNumber == number
        }
    }

    /// `registryKey._rawHashValue(seed:)`, without making the key.
    func tableKeyHash(seed: Int) -> Int {
        switch identity {
        case .entity: return KeyHashMixing.grouped(temporaryNumber, salt: 0, seed: seed)
        case .id(let id):
            if case .temporary(let number) = id.key { return KeyHashMixing.grouped(number, salt: 0, seed: seed) }
            return id.tableHash(seed: seed)
        case .record(let family, let primaryKey):
            return NSManagedObjectID.tableHash(family, primaryKey: primaryKey, seed: seed)
        }
    }

    /// The context that tracks the object; nil once it was deleted and saved,
    /// or after the context was reset or released.
    ///
    /// Not `weak` (a weak reference would give the context a side table and
    /// slow every retain of it): the context clears this reference of every
    /// object it tracks when it is reset or goes away, and every object with
    /// a context is tracked by it.
    public internal(set) var managedObjectContext: NSManagedObjectContext? {
        get { contextStorage?.takeUnretainedValue() }
        set { contextWord.context = newValue.map(Unmanaged.passUnretained) }
    }
    // Read by every property access and change; release builds skip its
    // exclusivity check, as `values`'.
    #if DEBUG
    private var contextWord = ContextWord()
    #else
    @exclusivity(unchecked) private var contextWord = ContextWord()
    #endif
    /// `Unmanaged` rather than `unowned(unsafe)` so that
    /// `checkContextConcurrency` can use the context without retaining it.
    private var contextStorage: Unmanaged<NSManagedObjectContext>? { contextWord.context }

    /// The context's concurrency check (`-com.apple.CoreData.ConcurrencyDebug`)
    /// for an access described by `what`, without retaining the context:
    /// `value(forKey:)` and `setValue(_:forKey:)` make it on every call, and
    /// a retain and release of the context were a fifth of a `value(forKey:)`.
    @inline(__always)
    func checkContextConcurrency(_ what: @autoclosure () -> String) {
        contextStorage?._withUnsafeGuaranteedRef { $0.checkConcurrency(what()) }
    }

    /// Whether the object has a context, asked without retaining it.
    var hasContext: Bool { contextStorage != nil }

    /// Whether `context` is the object's context, asked without retaining either.
    func belongs(to context: NSManagedObjectContext) -> Bool {
        contextStorage?.toOpaque() == Unmanaged.passUnretained(context).toOpaque()
    }

    /// Whether `other` has the same context as this object (or both none),
    /// asked without retaining either context.
    func sharesContext(with other: NSManagedObject) -> Bool {
        contextStorage?.toOpaque() == other.contextStorage?.toOpaque()
    }

    /// `body` applied to the object's context, not retained (nil without a
    /// context): every property change reports to the context, and a retain
    /// and release of it cost ~40 instructions of each. Sound because a
    /// context clears its objects' references before it goes away.
    @inline(__always)
    func withUnretainedContext<Result>(_ body: (NSManagedObjectContext) -> Result) -> Result? {
        contextStorage?._withUnsafeGuaranteedRef(body)
    }

    /// Current values by slot (see `PropertyValues`).
    ///
    /// Release builds skip the runtime's exclusivity check on it: every
    /// property access reads it two or three times, each check ~76
    /// instructions, about a third of a `value(forKey:)` call. Debug builds,
    /// which the tests run, keep the check, so an overlapping access traps there.
    #if DEBUG
    var values: PropertyValues { didSet { changeState?.valuesStamp &+= 1 } }
    #else
    @exclusivity(unchecked) var values: PropertyValues { didSet { changeState?.valuesStamp &+= 1 } }
    #endif
    /// Counts the writes to `values` since the object made its change state,
    /// so that a save can tell whether they are still the ones a child
    /// context's save validated (`childValidatedStamp`, which lives in the
    /// same state: once it is set, every later write counts). 0 without a state.
    var valuesStamp: Int { changeState?.valuesStamp ?? 0 }
    /// `valuesStamp` right after a child context's save brought values that
    /// its validation passed; -1 for none.
    var childValidatedStamp: Int {
        get { changeState?.childValidatedStamp ?? -1 }
        set { if changeState != nil || newValue != -1 { madeChangeState.childValidatedStamp = newValue } }
    }
    /// The record as last read from or written to the store (shared with the
    /// coordinator's row cache); nil for objects never saved and for faults
    /// whose record was not read yet.
    var committedRow: StoreRowCache.Row?
    var committed: StoreSnapshot? { committedRow?.snapshot }
    /// The slots at the start of the current event, kept once the object
    /// changes in the event (for `changedValuesForCurrentEvent()`); laid out
    /// as `values`.
    var eventBaseline: SlotValues? {
        get { changeState?.eventBaseline }
        set {
            if let changeState {
                changeState.eventBaseline = newValue
            } else if newValue != nil {
                madeChangeState.eventBaseline = newValue
            }
        }
    }
    /// Whether the values are not loaded: read on every change, kept in the
    /// context's word (see `ContextWord`) with `hasAwokenFromInsert`.
    var isFaultStorage: Bool {
        get { contextWord.isFault }
        set { contextWord.isFault = newValue }
    }
    var hasAwokenFromInsert: Bool {
        get { contextWord.hasAwokenFromInsert }
        set { contextWord.hasAwokenFromInsert = newValue }
    }
    /// Flags the context keeps in step with its inserted/updated/deleted sets,
    /// in the change state: an object without one is none of them.
    var isInsertedFlag: Bool {
        get { changeState?.isInserted ?? false }
        set { if changeState != nil || newValue { madeChangeState.isInserted = newValue } }
    }
    var isUpdatedFlag: Bool {
        get { changeState?.isUpdated ?? false }
        set { if changeState != nil || newValue { madeChangeState.isUpdated = newValue } }
    }
    var isDeletedFlag: Bool {
        get { changeState?.isDeleted ?? false }
        set { if changeState != nil || newValue { madeChangeState.isDeleted = newValue } }
    }
    /// Set when the object's record vanished and `shouldDeleteInaccessibleFaults` let it read as deleted.
    var isInaccessible: Bool {
        get { changeState?.isInaccessible ?? false }
        set { if changeState != nil || newValue { madeChangeState.isInaccessible = newValue } }
    }
    /// The number of the context event that recorded the object as inserted
    /// (see `ContextEvent`); 0 for none. `changedInEvent` and `updatedInEvent` likewise.
    var insertedInEvent: Int {
        get { changeState?.insertedInEvent ?? 0 }
        set { if changeState != nil || newValue != 0 { madeChangeState.insertedInEvent = newValue } }
    }
    var changedInEvent: Int {
        get { changeState?.changedInEvent ?? 0 }
        set { if changeState != nil || newValue != 0 { madeChangeState.changedInEvent = newValue } }
    }
    var updatedInEvent: Int {
        get { changeState?.updatedInEvent ?? 0 }
        set { if changeState != nil || newValue != 0 { madeChangeState.updatedInEvent = newValue } }
    }
    /// The permanent ID the save being planned gives this new object; nil
    /// outside a save's planning and commit (see `SavePlan`).
    var plannedPermanentID: NSManagedObjectID? {
        get { changeState?.plannedPermanentID }
        set { if changeState != nil || newValue != nil { madeChangeState.plannedPermanentID = newValue } }
    }
    /// Which of its context's inserted/updated/deleted lists hold the object.
    var listMarks: ContextListMarks {
        get { changeState?.listMarks ?? ContextListMarks() }
        set { if changeState != nil || newValue != ContextListMarks() { madeChangeState.listMarks = newValue } }
    }
    // The fields above, made when one of them first gets a value of its own;
    // read on every change, so release builds skip its exclusivity check.
    #if DEBUG
    private var changeState: ObjectChangeState?
    #else
    @exclusivity(unchecked) private var changeState: ObjectChangeState?
    #endif
    /// Whether the object made its change state: never for an object only read.
    var holdsChangeState: Bool { changeState != nil }
    /// Makes the change state now, so that `valuesStamp` counts the writes that follow.
    func makeChangeState() { _ = madeChangeState }
    private var madeChangeState: ObjectChangeState {
        if let changeState { return changeState }
        let made = ObjectChangeState()
        changeState = made
        return made
    }

    /// An object of `entity`, inserted into `context` when one is given.
    /// Attributes start at their default values.
    public required init(entity: NSEntityDescription, insertInto context: NSManagedObjectContext?) {
        precondition(!entity.isAbstractEntity, "Can't create an object of abstract entity \(entity.name ?? "")")
        identity = .entity(entity)
        values = PropertyValues(layout: entity.slotLayout)
        let hasDefaults = entity.hasDefaultedAttributes
        super.init()
        // Out of line: the loop's references (the layout, the list, each value) were retained and released
        // around it also for an entity without defaults, ~120 instructions an object made.
        if hasDefaults { setDefaultValues() }
        context?.insert(self)
    }

    /// Gives each attribute of the entity with a default value that value.
    private func setDefaultValues() {
        for attribute in entity.defaultedAttributes {
            values[values.layout.slot(of: attribute)] = ValueCoercion.slotValue(attribute.defaultValue, for: attribute)
        }
    }

    /// An object of the entity whose class is this class, inserted into `context`.
    /// The class is registered for class lookup (see `register(_:)`).
    ///
    /// Apple declares `public convenience init(context moc: NSManagedObjectContext)`; it is
    /// `required` here because Swift lets generic code call an initializer through a metatype
    /// (`T(context:)`, `type(of: object).init(context:)`) only when it is required, where Apple's
    /// Objective-C initializers are exempt. Every subclass inherits it, as on Apple.
    public required convenience init(context: NSManagedObjectContext) {
        guard let found = context.withModel({ ManagedObjectClasses.registeringEntity(for: Self.self, in: $0) }) else {
            preconditionFailure("init(context:) needs a context with a persistent store coordinator")
        }
        guard let entity = found else {
            preconditionFailure("No entity of the model has managedObjectClassName \(String(reflecting: Self.self))")
        }
        self.init(entity: entity, insertInto: context)
    }

    /// An object of this class's entity (`entity()`), in no context; insert it with
    /// `NSManagedObjectContext.insert(_:)`.
    ///
    /// Apple's `init()` (inherited from NSObject) skips the designated initializer: Core Data logs
    /// "Failed to call designated initializer on NSManagedObject class" and the object is unusable.
    /// An object here always has an entity, so this one is usable, and stops the program as
    /// `entity()` does when no loaded model has an entity of this class.
    public override convenience init() {
        self.init(entity: Self.entity(), insertInto: nil)
    }

    /// The entity whose `managedObjectClassName` names this class, searched in
    /// the models of the coordinators created so far. Stops the program with Core Data's
    /// message when there is none (Apple's returns nil there, which Swift code can't test for).
    open class func entity() -> NSEntityDescription {
        ManagedObjectClasses.register(self)
        guard let entity = ManagedObjectClasses.entity(for: self) else {
            preconditionFailure("No NSEntityDescriptions in any model claim the NSManagedObject subclass '"
                + String(reflecting: self)
                + "' so +entity is confused. Have you loaded your NSManagedObjectModel yet ?")
        }
        return entity
    }

    /// A fetch request for this class's entity.
    ///
    /// Disfavored so that a subclass's `fetchRequest() -> NSFetchRequest<Photo>` (Xcode's generated
    /// declaration) wins where the result type is not stated: `let request = Photo.fetchRequest()`.
    /// Stating `NSFetchRequest<NSFetchRequestResult>` still selects this one.
    @_disfavoredOverload
    open class func fetchRequest() -> NSFetchRequest<NSFetchRequestResult> {
        NSFetchRequest(entityName: entity().name ?? "")
    }

    // MARK: State

    /// Whether the object was inserted and not yet saved.
    public var isInserted: Bool { isInsertedFlag }
    /// Whether the object has unsaved changes to saved values.
    public var isUpdated: Bool { isUpdatedFlag }
    /// Whether the object will be deleted at the next save.
    public var isDeleted: Bool { isDeletedFlag || isInaccessible }
    /// Whether the object is inserted, updated or deleted.
    public var hasChanges: Bool { isInsertedFlag || isUpdatedFlag || isDeletedFlag }

    /// Whether the object's values are not loaded yet. Reading any property
    /// loads them ("fires the fault"); this property does not.
    public var isFault: Bool { isFaultStorage }

    /// 0 when the object is fully loaded; 1 while it is a fault.
    public var faultingState: Int { isFaultStorage ? 1 : 0 }

    /// Loads the object's values if it is a fault; costs one store read. A
    /// fault without a context (its context was reset or released, or it was
    /// deleted and saved) stays a fault whose properties read as nil and
    /// empty sets, as in Core Data.
    func fireFaultIfNeeded() {
        guard isFaultStorage, let context = managedObjectContext else { return }
        context.fulfillFault(self)
    }

    /// Makes the object a fault without values, record or context; its
    /// context already forgot it or is going away.
    func invalidate() {
        managedObjectContext = nil
        isFaultStorage = true
        values.removeAll()
        eventBaseline = nil
        committedRow = nil
    }

    // MARK: Life-cycle hooks; subclasses override them and call super

    /// Called once, when the object is first inserted into a context.
    open func awakeFromInsert() {}
    /// Called after the object's values were loaded from the store.
    open func awakeFromFetch() {}
    /// Called at the start of a save for every changed object.
    open func willSave() {}
    /// Called after a save for every saved object.
    open func didSave() {}
    /// Called when the object's deletion is propagated, while it is still intact.
    open func prepareForDeletion() {}
    /// Called before the object turns into a fault.
    open func willTurnIntoFault() {}
    /// Called after the object turned into a fault.
    open func didTurnIntoFault() {}

    // MARK: Validation; subclasses override and call super

    /// Checks `value` for the property `key` against the model (optionality,
    /// counts, ranges, lengths, pattern) and throws the first broken rule's
    /// error. Overriding this is how a subclass adds the per-key checks Core
    /// Data finds as `validate<Key>` methods; an override may also replace
    /// `value` with a corrected one, which the save then stores.
    open func validateValue(_ value: inout Any?, forKey key: String) throws {
        // A property without rules passes whatever its value: the save of a class overriding this method
        // asks it for every property, and most have none (the check cost ~950 instructions a property).
        if let slot = values.layout.slot(forKey: key), !entity.validatedSlots.contains(slot) { return }
        try PropertyValidation.check(value, forKey: key, of: self)
    }

    /// Validates every property of a new object before it is saved.
    open func validateForInsert() throws { try PropertyValidation.validateProperties(of: self) }

    /// Validates every property of a changed object before it is saved.
    open func validateForUpdate() throws { try PropertyValidation.validateProperties(of: self) }

    /// Checks that the object may be deleted: no Deny relationship may still
    /// have a destination (NSValidationRelationshipDeniedDeleteError, 1600).
    open func validateForDelete() throws { try PropertyValidation.validateDeletion(of: self) }

    /// The class, entity and object ID, then `<fault>` or the names of the loaded values; reading it
    /// fires no fault.
    open override var description: String {
        let state = isFaultStorage ? "<fault>" : "{\(values.keys.sorted().joined(separator: ", "))}"
        return "<\(Swift.type(of: self)) \(entity.name ?? "") \(objectID)> \(state)"
    }

    /// The object's address, as its identity is what makes it equal
    /// (NSObject's `isEqual(_:)`; Apple's NSManagedObject reference lists
    /// `isEqual:` and `hash` among the methods subclasses should not override).
    /// NSObject's own `hash` runs a hasher over the identity before a `Set`
    /// hashes the result again; this skips the first pass. O(1).
    open override var hash: Int { Int(bitPattern: UInt(bitPattern: ObjectIdentifier(self))) }

    /// Whether `object` is this object, as NSObject's `isEqual(_:)` decides.
    /// An object stored in the `Any` as `NSObject` (how `==` of sets and
    /// dictionaries passes it) or as `NSManagedObject` is compared in place
    /// (`AnyContainer`); NSObject's own test casts through the runtime, ~450
    /// instructions paid by every probe of a set of objects that meets
    /// another object. O(1).
    open override func isEqual(_ object: Any?) -> Bool {
        guard let object else { return false }
        let reference = AnyContainer.read(object) { container in
            container.isStored(as: NSObject.self) || container.isStored(as: NSManagedObject.self)
                ? container.load(as: UnsafeRawPointer.self) : nil
        }
        if let reference { return reference == UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()) }
        return (object as? NSManagedObject) === self
    }
}
