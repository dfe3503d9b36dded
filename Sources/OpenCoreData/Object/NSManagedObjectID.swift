/// The identity of one managed object's record: its entity, its store and its
/// key there (Apple's NSManagedObjectID).
///
/// An ID is temporary from `insert` until the object is saved or given a
/// permanent ID (`obtainPermanentIDs(for:)`); then it is the store's primary
/// key. IDs are immutable values: they may cross threads, and two IDs of the
/// same stored object are equal in every context. Hashing and comparing cost
/// a few field comparisons.
public final class NSManagedObjectID: NSObject, NSCopying, @unchecked Sendable {
    enum Key: Hashable {
        /// A number unique in the process: hashing and comparing it is cheap,
        /// and it needs no string per inserted object (the URI spells it out).
        case temporary(Int)
        case permanent(Int64)
    }

    /// The entity, store and names this ID shares with the others of its entity and store.
    let family: ObjectIDFamily
    let key: Key
    /// The hash of the key and entity name, so that hashing an ID costs no
    /// string hashing (the store identifier is left out: IDs of two stores
    /// rarely meet in one dictionary, and equality tells them apart).
    /// Computed on each use, a multiply and two loads, rather than stored:
    /// a stored hash made every ID 48 bytes, which the allocator rounds to
    /// 64 where 40 rounds to 48, and a fetch makes an ID per row.
    var recordHash: Int {
        switch key {
        case .permanent(let pk): Self.recordHash(family, primaryKey: pk)
        case .temporary(let number): number ^ family.entityNameHash
        }
    }

    /// The hash the registry, the row cache and dictionaries of `ObjectKey`
    /// place the ID by (`KeyHashMixing.grouped`); equal IDs hash alike.
    func tableHash(seed: Int) -> Int {
        switch key {
        case .permanent(let pk): Self.tableHash(family, primaryKey: pk, seed: seed)
        case .temporary(let number): KeyHashMixing.grouped(number, salt: family.entityNameHash, seed: seed)
        }
    }

    /// `tableHash(seed:)` of the permanent ID of `primaryKey` in `family`, without making the ID.
    static func tableHash(_ family: ObjectIDFamily, primaryKey: Int64, seed: Int) -> Int {
        KeyHashMixing.grouped(Int(truncatingIfNeeded: primaryKey), salt: family.entityNameHash, seed: seed)
    }

    /// `recordHash` of the permanent ID of `primaryKey` in `family`, without making the ID.
    static func recordHash(_ family: ObjectIDFamily, primaryKey: Int64) -> Int {
        Int(truncatingIfNeeded: UInt64(bitPattern: primaryKey) &* 0x9E37_79B9_7F4A_7C15) ^ family.entityNameHash
    }

    /// Whether the ID is the permanent one of `primaryKey` in `family`.
    func names(_ family: ObjectIDFamily, primaryKey: Int64) -> Bool {
        key == .permanent(primaryKey) && self.family.namesSameRecords(as: family)
    }

    /// The entity of the object.
    public var entity: NSEntityDescription { family.entity }

    /// The store that holds the object's record; nil while the ID is temporary.
    public var persistentStore: NSPersistentStore? { family.store }

    /// The store's `NSStoreUUIDKey` when the ID was made.
    var storeIdentifier: String? { family.storeIdentifier }

    init(family: ObjectIDFamily, key: Key) {
        self.family = family
        self.key = key
    }

    /// The temporary ID numbered `number` (from `TemporaryIDSource`) of an object of `entity`.
    static func temporary(for entity: NSEntityDescription, number: Int) -> NSManagedObjectID {
        NSManagedObjectID(family: ObjectIDFamily(entity: entity, store: nil), key: .temporary(number))
    }

    /// Whether the ID is temporary: its object was inserted and not yet saved.
    public var isTemporaryID: Bool {
        if case .temporary = key { return true }
        return false
    }

    /// The store's primary key (`Z_PK`) of a permanent ID.
    var primaryKey: Int64? {
        if case .permanent(let pk) = key { return pk }
        return nil
    }

    /// The ID as a URI in Core Data's form: `x-coredata://<store UUID>/<Entity>/p<n>`,
    /// or `x-coredata:///<Entity>/t<UUID>` while temporary. A coordinator turns
    /// it back into an ID with `managedObjectID(forURIRepresentation:)`.
    public func uriRepresentation() -> URL {
        switch key {
        case .temporary(let number):
            return URL(string: "x-coredata:///\(family.entityName)/t\(TemporaryIDSource.token(number))")!
        case .permanent(let pk):
            return URL(string: "x-coredata://\(storeIdentifier ?? "")/\(family.entityName)/p\(pk)")!
        }
    }

    /// Whether `object` is an ID of the same record: same primary key (or temporary key), entity and
    /// store; the key is compared first, so IDs of different records rarely get to the string.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let object else { return false }
        guard let other = Self.id(in: object) ?? object as? NSManagedObjectID else { return false }
        return namesSameRecord(as: other)
    }

    /// The ID `value` holds as a reference typed `NSManagedObjectID` or `NSObject` (how `==` of sets and
    /// dictionaries of IDs passes it), read from the `Any` (`AnyContainer`): `as?` asked the runtime's
    /// dynamic cast, ~350 instructions a comparison. Nil for anything else, which `as?` then looks at.
    @inline(__always)
    private static func id(in value: Any) -> NSManagedObjectID? {
        guard Swift.type(of: value) == NSManagedObjectID.self else { return nil }
        return AnyContainer.read(value) { container in
            guard container.isStored(as: NSManagedObjectID.self) || container.isStored(as: NSObject.self) else {
                return nil
            }
            return container.load(as: NSManagedObjectID.self)
        }
    }

    /// Whether `other` names the same record: it is this ID, or has the same key, entity name and store.
    func namesSameRecord(as other: NSManagedObjectID) -> Bool {
        other === self || key == other.key && family.namesSameRecords(as: other.family)
    }

    /// The key mixed with the entity name's hash.
    public override var hash: Int { recordHash }

    /// IDs are immutable, so a copy is the ID itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    /// The ID's URI (`x-coredata://STORE-UUID/Entity/p12`, or a temporary one).
    public override var description: String { uriRepresentation().absoluteString }
}

/// Temporary ID numbers, and their tokens in Core Data's shape: a UUID
/// followed by the number.
enum TemporaryIDSource {
    private static let prefix = UUID().uuidString
    private static let numbers = SerialNumbers()

    /// A number no other temporary ID of the process has; costs one lock.
    static func next() -> Int { numbers.next() }

    /// The token of temporary ID `number`, as its URI shows it.
    static func token(_ number: Int) -> String { "\(prefix)\(number)" }
}

extension NSManagedObjectID: PredicateRecordIdentity {
    var predicateRecordIdentity: AnyHashable { self }
}

extension NSManagedObject: PredicateRecordIdentity {
    var predicateRecordIdentity: AnyHashable { objectID }
}
