/// One property's value in an object's or a record's slots, typed by what
/// it holds, so that reading a relationship needs no cast from `Any`.
enum SlotValue {
    /// No value: nil, or an empty to-many relationship.
    case none
    /// An attribute's value.
    case value(Any)
    /// A to-one relationship's destination.
    case object(NSManagedObject)
    /// A to-one relationship's destination known by ID (a record's, or an
    /// object's until the relationship is first used).
    case id(NSManagedObjectID)
    /// A to-many relationship's destinations.
    case objects(ManagedObjectSet)
    /// A to-many relationship's destinations known by ID (in order for
    /// ordered relationships).
    case ids([NSManagedObjectID])
    /// A to-many relationship the store did not read with its owner's record
    /// (Core Data's to-many fault): its destinations are read when it is
    /// first used (`NSPersistentStore.destinations(of:via:)`).
    case unread

    /// An attribute value, or none for nil.
    init(attribute value: Any?) {
        if let value { self = .value(value) } else { self = .none }
    }

    /// The slot form of a value of `property` given as `Any` (cold paths
    /// only: it casts): objects and sets for relationships, values for attributes.
    init(_ value: Any?, of property: NSPropertyDescription) {
        guard let value else { self = .none; return }
        guard property is NSRelationshipDescription else { self = .value(value); return }
        switch value {
        case let object as NSManagedObject: self = .object(object)
        case let id as NSManagedObjectID: self = .id(id)
        case let set as ManagedObjectSet: self = .objects(set)
        case let ids as [NSManagedObjectID]: self = .ids(ids)
        default: self = .value(value)
        }
    }

    /// The value as `Any`: what key-value access and cold paths read.
    var any: Any? {
        switch self {
        case .none: nil
        case .value(let value): value
        case .object(let object): object
        case .id(let id): id
        case .objects(let set): set
        case .ids(let ids): ids
        case .unread: nil
        }
    }

    /// Whether the slot surely holds a value, for a required attribute or
    /// to-one relationship: an attribute value other than a boxed nil, or a
    /// destination. False for none (and for what needs a closer look).
    var holdsValue: Bool {
        switch self {
        case .value(let value): ValueCoercion.unwrapped(value) != nil
        case .object, .id: true
        case .none, .objects, .ids, .unread: false
        }
    }

    var isNone: Bool {
        if case .none = self { return true }
        return false
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
        case .id(let id): [id]
        case .objects(let set): set.objects.map(\.objectID)
        case .ids(let ids): ids
        case .none, .value, .unread: []
        }
    }
}

extension ContiguousArray where Element == SlotValue {
    /// `count` empty slots: a record's or an object's slots before any is
    /// set. `init(repeating:count:)` copied its element through the enum's
    /// generic copy for each slot (~1,100 instructions for 10 slots); this
    /// writes `.none`, which holds nothing to copy, straight into the buffer.
    static func empty(count: Int) -> ContiguousArray {
        ContiguousArray(unsafeUninitializedCapacity: count) { buffer, initialized in
            for index in 0..<count { (buffer.baseAddress! + index).initialize(to: .none) }
            initialized = count
        }
    }
}
