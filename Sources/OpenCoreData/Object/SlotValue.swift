/// One property's value in an object's or a record's slots, typed by what
/// it holds, so that reading a relationship needs no cast from `Any` and the
/// common attribute types need no `Any` at all.
///
/// Invariant (canonical form): a value of one of the typed cases' types
/// (`Int64`, `Int32`, `Int16`, `Bool`, `Double`, `Float`, `Date`, `String`)
/// is always in its own case, never in `.value`; `init(attribute:)` is how
/// an attribute value from `Any` gets in. A save binds, a read boxes and two
/// values compare without asking the runtime for the value's type.
enum SlotValue {
    /// No value: nil, or an empty to-many relationship.
    case none
    case int64(Int64)
    case int32(Int32)
    case int16(Int16)
    case bool(Bool)
    case double(Double)
    case float(Float)
    case date(Date)
    case string(String)
    /// An attribute value of any other type (decimals, data, UUIDs, URLs,
    /// transformable values, a fetched property's results), in a box of its
    /// own (`boxed(_:)` makes one).
    case value(Boxed)
    /// A to-one relationship's destination.
    case object(NSManagedObject)
    /// A to-one relationship's destination known by its record: by ID (an
    /// object's until the relationship is first used), or as a store read it,
    /// by family and key, its ID made only when something asks for it (a
    /// batch of 100 photos read named 100 albums, whose IDs nothing used).
    case record(RecordIdentity)
    /// A to-many relationship's destinations.
    case objects(ManagedObjectSet)
    /// A to-many relationship's destinations known by ID (in order for
    /// ordered relationships).
    case ids([NSManagedObjectID])
    /// A to-many relationship the store did not read with its owner's record
    /// (Core Data's to-many fault): its destinations are read when it is
    /// first used (`NSPersistentStore.destinations(of:via:)`).
    case unread

    /// A value of any type, out of line. An `Any` in the enum itself made
    /// every slot value 40 bytes instead of 24 and made the type address-only,
    /// so that every switch over a slot value copied it first (~40
    /// instructions through its outlined copy) and a trivial payload could
    /// not be read in place.
    final class Boxed {
        let value: Any
        init(_ value: Any) { self.value = value }
    }

    /// `value` in `.value`, whatever its type (`init(attribute:)` puts the
    /// typed cases' types in their cases).
    static func boxed(_ value: Any) -> SlotValue { .value(Boxed(value)) }

    /// An attribute value, or none for nil, in canonical form.
    init(attribute value: Any?) {
        guard let value else { self = .none; return }
        self.init(attribute: value)
    }

    /// An attribute value in canonical form: a value of a typed case's type
    /// (known by type identity, so a bridged number stays `.value`) goes in
    /// that case, anything else in `.value`.
    init(attribute value: Any) {
        switch ObjectIdentifier(Swift.type(of: value)) {
        case ObjectIdentifier(Int64.self): self = .int64(Self.unboxed(value))
        case ObjectIdentifier(Int32.self): self = .int32(Self.unboxed(value))
        case ObjectIdentifier(Int16.self): self = .int16(Self.unboxed(value))
        case ObjectIdentifier(Bool.self): self = .bool(Self.unboxed(value))
        case ObjectIdentifier(Double.self): self = .double(Self.unboxed(value))
        case ObjectIdentifier(Float.self): self = .float(Self.unboxed(value))
        case ObjectIdentifier(Date.self): self = .date(Self.unboxed(value))
        case ObjectIdentifier(String.self): self = .string(Self.unboxed(value))
        default: self = .boxed(value)
        }
    }

    /// `value`, whose dynamic type the caller checked is exactly `T`: copied
    /// out of the `Any`'s own buffer when the container holds a `T` itself,
    /// where `as!` asked the runtime's dynamic cast (~200 instructions); see `AnyContainer`.
    @inline(__always)
    static func unboxed<T>(_ value: Any) -> T {
        assert(Swift.type(of: value) == T.self && MemoryLayout<T>.size <= 3 * MemoryLayout<Int>.size)
        return AnyContainer.read(value) { $0.isStored(as: T.self) ? $0.load(as: T.self) : value as! T }
    }

    /// The slot form of a value of `property` given as `Any` (cold paths
    /// only: it casts): objects and sets for relationships, values for attributes.
    init(_ value: Any?, of property: NSPropertyDescription) {
        guard let value else { self = .none; return }
        guard property is NSRelationshipDescription else { self.init(attribute: value); return }
        switch value {
        case let object as NSManagedObject: self = .object(object)
        case let id as NSManagedObjectID: self = .record(.id(id))
        case let set as ManagedObjectSet: self = .objects(set)
        case let ids as [NSManagedObjectID]: self = .ids(ids)
        default: self.init(attribute: value)
        }
    }

    /// The value as `Any`: what key-value access and cold paths read.
    var any: Any? {
        switch self {
        case .none, .unread: nil
        case .int64(let value): value
        case .int32(let value): value
        case .int16(let value): value
        case .bool(let value): value
        case .double(let value): value
        case .float(let value): value
        case .date(let value): value
        case .string(let value): value
        case .value(let box): box.value
        case .object(let object): object
        case .record(let record): record.objectID
        case .objects(let set): set
        case .ids(let ids): ids
        }
    }

    /// Whether the slot surely holds a value, for a required attribute or
    /// to-one relationship: an attribute value other than a boxed nil, or a
    /// destination. False for none (and for what needs a closer look).
    var holdsValue: Bool {
        switch self {
        case .int64, .int32, .int16, .bool, .double, .float, .date, .string, .object, .record: true
        case .value(let box): ValueCoercion.unwrapped(box.value) != nil
        case .none, .objects, .ids, .unread: false
        }
    }

    /// Whether two attribute values are equal, as `ValueEquality.equal` finds
    /// them: two values of one typed case compare directly (an unequal pair
    /// of floating-point values or dates still asks `ValueEquality`, whose
    /// bridged comparison may call two NaNs equal).
    func isSameAttributeValue(as other: SlotValue) -> Bool {
        switch (self, other) {
        case (.none, .none): return true
        case let (.int64(a), .int64(b)): return a == b
        case let (.int32(a), .int32(b)): return a == b
        case let (.int16(a), .int16(b)): return a == b
        case let (.bool(a), .bool(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.double(a), .double(b)) where a == b: return true
        case let (.float(a), .float(b)) where a == b: return true
        case let (.date(a), .date(b)) where a == b: return true
        default: return ValueEquality.equal(any, other.any)
        }
    }

    /// A to-one relationship's value: the destination object or its record.
    var toOne: (object: NSManagedObject?, record: RecordIdentity?) {
        switch self {
        case .object(let object): (object, nil)
        case .record(let record): (nil, record)
        default: (nil, nil)
        }
    }

    var isNone: Bool {
        if case .none = self { return true }
        return false
    }

    /// Whether the value holds no reference: destroying it does nothing.
    var holdsNoReference: Bool {
        switch self {
        case .none, .int64, .int32, .int16, .bool, .double, .float, .date, .unread: true
        case .string, .value, .object, .record, .objects, .ids: false
        }
    }

    /// Whether the value is a to-many relationship not read yet.
    var isUnread: Bool {
        if case .unread = self { return true }
        return false
    }

    /// The destination IDs of a relationship value (none for `.unread`: ask
    /// the store).
    var destinationIDs: [NSManagedObjectID] {
        switch self {
        case .object(let object): [object.objectID]
        case .record(let record): [record.objectID]
        case .objects(let set): set.objects.map(\.objectID)
        case .ids(let ids): ids
        default: []
        }
    }
}
