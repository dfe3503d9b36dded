/// What happens to a relationship's destinations when its source object is
/// deleted, with Apple's raw values (NSRelationshipDescription.h).
public enum NSDeleteRule: UInt, Sendable, CaseIterable {
    /// Leave the destinations pointing at the deleted object.
    case noActionDeleteRule = 0
    /// Remove the deleted object from the destinations' inverse relationship.
    case nullifyDeleteRule = 1
    /// Delete the destinations too.
    case cascadeDeleteRule = 2
    /// Refuse the delete (save fails with 1600) while any destination remains.
    case denyDeleteRule = 3

    /// The spelling Xcode writes in a model file's `deletionRule`.
    public var modelFileName: String {
        switch self {
        case .noActionDeleteRule: return "No Action"
        case .nullifyDeleteRule: return "Nullify"
        case .cascadeDeleteRule: return "Cascade"
        case .denyDeleteRule: return "Deny"
        }
    }

    /// The rule a model file's `deletionRule` spelling names.
    public init?(modelFileName: String) {
        guard let rule = Self.allCases.first(where: { $0.modelFileName == modelFileName }) else { return nil }
        self = rule
    }
}

/// A relationship from one entity to another (Apple's NSRelationshipDescription).
///
/// To-one when `maxCount` is 1, to-many otherwise; to-many values are sets, or
/// ordered sets when `isOrdered`.
open class NSRelationshipDescription: NSPropertyDescription, @unchecked Sendable {
    /// The entity at the other end. Held weakly, as in Core Data: the model
    /// owns its entities, so keep the model alive while using its descriptions.
    public var destinationEntity: NSEntityDescription? {
        get { destinationReference.target }
        set {
            ensureEditable("destinationEntity of \(name)")
            destinationReference = ProxiedWeakReference(newValue?.referenceProxy)
        }
    }
    /// `destinationEntity`, held weakly through the entity's proxy (see `ReferenceProxy`).
    // Read by every relationship change; written only while the model is
    // edited, so release builds skip its exclusivity check (~76 instructions a read).
    #if DEBUG
    private var destinationReference = ProxiedWeakReference<NSEntityDescription>(nil)
    #else
    @exclusivity(unchecked) private var destinationReference = ProxiedWeakReference<NSEntityDescription>(nil)
    #endif

    /// The relationship at the other end that points back here, if any.
    public var inverseRelationship: NSRelationshipDescription? {
        get { inverseReference.target }
        set {
            ensureEditable("inverseRelationship of \(name)")
            inverseReference = ProxiedWeakReference(newValue?.referenceProxy)
        }
    }
    /// `inverseRelationship`, held weakly through the inverse's proxy (see `ReferenceProxy`).
    // Read by every relationship change; written only while the model is
    // edited, so release builds skip its exclusivity check (~76 instructions a read).
    #if DEBUG
    private var inverseReference = ProxiedWeakReference<NSRelationshipDescription>(nil)
    #else
    @exclusivity(unchecked) private var inverseReference = ProxiedWeakReference<NSRelationshipDescription>(nil)
    #endif

    /// What weak references to the relationship point at (see `ReferenceProxy`).
    let referenceProxy = ReferenceProxy<NSRelationshipDescription>()

    // Read on every change of a relationship and every delete; written only while the model is edited, so
    // no access can overlap another: no exclusivity check (~76 instructions a read).

    /// What deleting the source object does to the destinations.
    @exclusivity(unchecked) public var deleteRule: NSDeleteRule = .nullifyDeleteRule {
        willSet { ensureEditable("deleteRule of \(name)") }
    }

    /// The fewest destinations a non-empty value may hold (0: no minimum).
    @exclusivity(unchecked) public var minCount: Int = 0 { willSet { ensureEditable("minCount of \(name)") } }

    /// The most destinations a value may hold: 1 for to-one, 0 for unbounded to-many.
    @exclusivity(unchecked) public var maxCount: Int = 1 { willSet { ensureEditable("maxCount of \(name)") } }

    /// Whether a to-many relationship keeps its destinations in order (NSOrderedSet).
    @exclusivity(unchecked) public var isOrdered: Bool = false { willSet { ensureEditable("isOrdered of \(name)") } }

    /// Whether the relationship holds several destinations.
    public var isToMany: Bool { maxCount != 1 }

    /// Names kept from a model file whose destination or inverse could not be
    /// linked yet; the loader resolves them once every entity exists.
    var unresolvedDestinationName: String?
    var unresolvedInverse: (entity: String?, name: String)?

    /// An unnamed optional to-one relationship without a destination, with the nullify rule.
    public required init() {
        super.init()
        referenceProxy.target = self
    }

    deinit { referenceProxy.target = nil }

    /// A relationship named `name` to `destination`.
    public convenience init(name: String, destination: NSEntityDescription?, toMany: Bool = false,
                            deleteRule: NSDeleteRule = .nullifyDeleteRule, isOptional: Bool = true,
                            isOrdered: Bool = false, minCount: Int = 0, maxCount: Int? = nil) {
        self.init()
        self.name = name
        self.destinationEntity = destination
        self.deleteRule = deleteRule
        self.isOptional = isOptional
        self.isOrdered = isOrdered
        self.minCount = minCount
        self.maxCount = maxCount ?? (toMany ? 0 : 1)
    }

    /// A copy whose destination and inverse point at the same descriptions as
    /// this one (the caller relinks them when copying a whole model).
    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = super.copy(with: zone) as! NSRelationshipDescription
        copy.destinationEntity = destinationEntity
        copy.inverseRelationship = inverseRelationship
        copy.deleteRule = deleteRule
        copy.minCount = minCount
        copy.maxCount = maxCount
        copy.isOrdered = isOrdered
        return copy
    }

    /// Whether `object` is an equal property with the same destination and inverse (by name), delete
    /// rule, counts and order.
    open override func isEqual(_ object: Any?) -> Bool {
        guard super.isEqual(object), let other = object as? NSRelationshipDescription else { return false }
        return destinationEntity?.name == other.destinationEntity?.name
            && inverseRelationship?.name == other.inverseRelationship?.name
            && inverseRelationship?.entity?.name == other.inverseRelationship?.entity?.name
            && deleteRule == other.deleteRule && minCount == other.minCount && maxCount == other.maxCount
            && isOrdered == other.isOrdered
    }
}
