/// Which stored record a snapshot or a row is of: an ID already made, or the
/// family and primary key its ID is made from when something asks for it.
///
/// A fetch reads its rows as records of the second kind: an ID made for
/// every row cost an allocation and its release (~420 instructions and a
/// 48-byte block a fetched object) that nothing used unless the application
/// asked an object for its ID, which the object then makes and keeps itself.
/// Two words, copied with one retain: the ID or the family in one reference,
/// and the key of a record; `Int64.min` beside an ID says which.
struct RecordIdentity {
    /// The record's ID once made, else the family its ID will be of.
    private let reference: AnyObject
    /// The primary key of a record named by family; `madeIDKey` beside an ID.
    private let key: Int64
    /// The key that marks an ID: a record of that primary key (which only a damaged store could hold) is
    /// named by its ID.
    private static let madeIDKey = Int64.min

    private init(reference: AnyObject, key: Int64) {
        self.reference = reference
        self.key = key
    }

    /// The record `id` names.
    static func id(_ id: NSManagedObjectID) -> RecordIdentity { RecordIdentity(reference: id, key: madeIDKey) }

    /// The permanent record of `primaryKey` in `family`, its ID not made.
    static func record(_ family: ObjectIDFamily, primaryKey: Int64) -> RecordIdentity {
        guard primaryKey != madeIDKey else {
            return .id(NSManagedObjectID(family: family, key: .permanent(primaryKey)))
        }
        return RecordIdentity(reference: family, key: primaryKey)
    }

    /// The ID, when the identity holds one (a record a fetch read holds none).
    @inline(__always)
    var madeID: NSManagedObjectID? {
        key == Self.madeIDKey ? unsafeDowncast(reference, to: NSManagedObjectID.self) : nil
    }

    /// The record's ID: the one held, or a new one equal to every other ID of the record (`==`, not `===`).
    /// O(1); one allocation for a record.
    var objectID: NSManagedObjectID {
        guard let id = madeID else { return madeObjectID() }
        return id
    }

    /// A new ID of a record named by family, made out of line: inlined, the allocation grew every caller.
    @inline(never)
    private func madeObjectID() -> NSManagedObjectID {
        NSManagedObjectID(family: unmadeFamily, key: .permanent(key))
    }

    /// The family of the record's ID, without making the ID.
    var family: ObjectIDFamily {
        madeID?.family ?? unmadeFamily
    }

    /// The entity of the record.
    var entity: NSEntityDescription { family.entity }

    /// The store's primary key; nil for a temporary ID.
    var primaryKey: Int64? {
        guard let id = madeID else { return key }
        return id.primaryKey
    }

    /// The family and primary key of a permanent record. A record read from
    /// or saved to a store is one; a temporary ID here stops the program.
    var permanentRecord: (family: ObjectIDFamily, primaryKey: Int64) {
        guard let id = madeID else { return (unmadeFamily, key) }
        guard let primaryKey = id.primaryKey else { preconditionFailure("\(id) is no stored record") }
        return (id.family, primaryKey)
    }

    /// Whether `id` names this record (`NSManagedObjectID.isEqual(_:)`).
    func isNamed(by id: NSManagedObjectID) -> Bool {
        guard let own = madeID else { return id.names(unmadeFamily, primaryKey: key) }
        return own.namesSameRecord(as: id)
    }

    /// Whether this is the permanent record of `primaryKey` in `family` (or one named the same), whichever
    /// form it has: `isNamed(by:)` for that record's ID, without making the ID.
    func names(_ family: ObjectIDFamily, primaryKey: Int64) -> Bool {
        guard let own = madeID else { return key == primaryKey && unmadeFamily.namesSameRecords(as: family) }
        return own.names(family, primaryKey: primaryKey)
    }

    /// Whether the two name the same record, whichever form each has.
    func namesSameRecord(as other: RecordIdentity) -> Bool {
        if let id = other.madeID { return isNamed(by: id) }
        if let own = madeID { return own.names(other.unmadeFamily, primaryKey: other.key) }
        return key == other.key && unmadeFamily.namesSameRecords(as: other.unmadeFamily)
    }

    /// Whether the two are the same, without comparing names: the same ID
    /// object, or the same family object and key. False for records that
    /// are equal only by name, which callers treat as different.
    func isIdentical(to other: RecordIdentity) -> Bool {
        reference === other.reference && key == other.key
    }

    /// `NSManagedObjectID.tableHash(seed:)` of the record's ID, without making the ID.
    func tableHash(seed: Int) -> Int {
        guard let id = madeID else { return NSManagedObjectID.tableHash(unmadeFamily, primaryKey: key, seed: seed) }
        return id.tableHash(seed: seed)
    }

    /// The family of a record named by family (`madeID` is nil); unchecked.
    private var unmadeFamily: ObjectIDFamily { unsafeDowncast(reference, to: ObjectIDFamily.self) }
}
