import Synchronization

/// An entity: the description of one kind of managed object, its properties
/// and its place in an inheritance tree (Apple's NSEntityDescription).
///
/// Sub-entities inherit every property of their superentity: `properties`,
/// `propertiesByName` and the other lookups include inherited properties,
/// while setting `properties` sets the entity's own.
open class NSEntityDescription: NSObject, NSCopying, ModelEditing, @unchecked Sendable {
    /// The entity's name, unique in its model.
    public var name: String? { willSet { ensureEditable("the name of entity \(name ?? "")") } }

    /// The class name the model states, if any (`managedObjectClassName` defaults it).
    private(set) var explicitClassName: String? {
        // A new name resolves anew (the generation 0 matches none).
        didSet { resolvedObjectClass.store(WordPair(first: 0, second: 0), ordering: .releasing) }
    }

    /// The class `ManagedObjectClasses.objectClass(for:)` resolved the class name to, with the
    /// registration generation it was resolved at (see there).
    let resolvedObjectClass = Atomic(WordPair(first: 0, second: 0))

    /// The name of the class of the entity's objects; `NSManagedObject` unless set.
    public var managedObjectClassName: String! {
        get { explicitClassName ?? "NSManagedObject" }
        set { ensureEditable("managedObjectClassName of \(name ?? "")"); explicitClassName = newValue }
    }

    /// Whether the entity has no instances of its own, only of its sub-entities.
    public var isAbstract: Bool = false { willSet { ensureEditable("isAbstract of \(name ?? "")") } }

    /// Xcode's codegen setting: `class`, `category`, or nil for manual/none.
    public var codeGenerationType: String? { willSet { ensureEditable("codeGenerationType of \(name ?? "")") } }

    /// The model that holds this entity.
    public internal(set) weak var managedObjectModel: NSManagedObjectModel?

    /// The entity this one inherits from (held weakly, through its proxy).
    public private(set) var superentity: NSEntityDescription? {
        get { superentityReference.target }
        set { superentityReference = ProxiedWeakReference(newValue?.referenceProxy) }
    }
    private var superentityReference = ProxiedWeakReference<NSEntityDescription>(nil)

    /// What weak references to the entity point at, so that the entity has
    /// no side table and retaining it stays on the runtime's fast path.
    let referenceProxy = ReferenceProxy<NSEntityDescription>()

    /// The entities that inherit from this one. Setting it makes this entity
    /// their superentity.
    public var subentities: [NSEntityDescription] = [] {
        willSet { ensureEditable("subentities of \(name ?? "")") }
        didSet {
            for old in oldValue where old.superentity === self { old.superentity = nil }
            for sub in subentities { sub.superentity = self }
        }
    }

    /// The sub-entities by name.
    public var subentitiesByName: [String: NSEntityDescription] {
        Dictionary(subentities.compactMap { e in e.name.map { ($0, e) } }, uniquingKeysWith: { first, _ in first })
    }

    /// The properties this entity declares itself, in order.
    public private(set) var ownProperties: [NSPropertyDescription] = []

    /// All properties: inherited ones first, then the entity's own. Setting it
    /// replaces the entity's own properties (inherited ones in the new value are
    /// recognised and left with the superentity).
    public var properties: [NSPropertyDescription] {
        get { frozen?.properties ?? (inheritedProperties + ownProperties) }
        set {
            ensureEditable("properties of \(name ?? "")")
            let inherited = Set(inheritedProperties.map(ObjectIdentifier.init))
            for old in ownProperties where old.entity === self { old.entity = nil }
            ownProperties = newValue.filter { !inherited.contains(ObjectIdentifier($0)) }
            for property in ownProperties { property.entity = self }
        }
    }

    private var inheritedProperties: [NSPropertyDescription] { superentity?.properties ?? [] }

    /// Every property by name, inherited ones included.
    public var propertiesByName: [String: NSPropertyDescription] {
        frozen?.propertiesByName ?? Self.byName(properties)
    }

    /// The attributes by name, inherited ones included.
    public var attributesByName: [String: NSAttributeDescription] {
        frozen?.attributesByName ?? Self.byName(properties.compactMap { $0 as? NSAttributeDescription })
    }

    /// The relationships by name, inherited ones included.
    public var relationshipsByName: [String: NSRelationshipDescription] {
        frozen?.relationshipsByName ?? Self.byName(properties.compactMap { $0 as? NSRelationshipDescription })
    }

    /// The relationships, inherited ones included, in name order: the order
    /// delete rules run in. A stored list once the model is frozen.
    var relationshipsInNameOrder: [NSRelationshipDescription] {
        frozen?.relationshipsInNameOrder ?? relationshipsByName.values.sorted { $0.name < $1.name }
    }

    /// The attributes with a default value, which a new object starts with;
    /// a stored list once the model is frozen, so creating an object does not
    /// walk every attribute.
    var defaultedAttributes: [NSAttributeDescription] {
        frozen?.defaultedAttributes ?? attributesByName.values.filter { $0.defaultValue != nil }
    }

    /// Whether an attribute has a default value: what each object made asks first.
    var hasDefaultedAttributes: Bool { frozen?.hasDefaultedAttributes ?? !defaultedAttributes.isEmpty }

    /// The properties a value can fail validation on (see `hasValidationRules`).
    var validatedProperties: [NSPropertyDescription] {
        frozen?.validatedProperties ?? properties.filter(\.hasValidationRules)
    }

    /// The slots (`slotLayout`) of `validatedProperties`: the properties a check can fail.
    var validatedSlots: SlotSet {
        frozen?.validatedSlots ?? SlotSet(properties.indices.filter { properties[$0].hasValidationRules })
    }

    /// The slots (`slotLayout`) of the validated properties whose one rule
    /// is that they hold a value (see `onlyRequiresAValue`).
    var valueRequiredSlots: SlotSet {
        frozen?.valueRequiredSlots ?? SlotSet(properties.indices.filter { properties[$0].onlyRequiresAValue })
    }

    /// The transient attributes, which a loaded object starts at their
    /// defaults; a stored list once the model is frozen.
    var transientAttributes: [NSAttributeDescription] {
        frozen?.transientAttributes ?? attributesByName.values.filter(\.isTransient)
    }

    /// The derived attributes, which a save computes; a stored list once the model is frozen.
    var derivedAttributes: [NSDerivedAttributeDescription] {
        frozen?.derivedAttributes ?? properties.compactMap { $0 as? NSDerivedAttributeDescription }
    }

    /// Where each property lives in an object of the entity: a stored layout
    /// once the model is frozen, made anew on each call before.
    var slotLayout: PropertySlotLayout { frozen?.slotLayout ?? PropertySlotLayout(properties) }

    /// The hash value of `name` (of "" without one): computed once when the
    /// model is frozen, as every object ID made for the entity needs it.
    var nameHash: Int { frozen?.nameHash ?? (name ?? "").hashValue }

    /// `isAbstract`, read from the frozen lookups once the model is frozen:
    /// the property has observers, so each read of it takes an exclusivity
    /// check (~76 instructions), and every object made asks.
    var isAbstractEntity: Bool { frozen?.isAbstract ?? isAbstract }

    /// The relationships whose destination is `entity`.
    public func relationships(forDestination entity: NSEntityDescription) -> [NSRelationshipDescription] {
        properties.compactMap { $0 as? NSRelationshipDescription }.filter { $0.destinationEntity === entity }
    }

    /// Whether this entity is `entity` or inherits from it.
    public func isKindOf(entity: NSEntityDescription) -> Bool {
        var current: NSEntityDescription? = self
        while let candidate = current {
            if candidate === entity { return true }
            current = candidate.superentity
        }
        return false
    }

    /// Free-form information for the application; not part of the version hash.
    public var userInfo: [AnyHashable: Any]? = [:] { willSet { ensureEditable("userInfo of \(name ?? "")") } }

    /// A string mixed into the version hash to mark a change the hash would not see.
    public var versionHashModifier: String? { willSet { ensureEditable("versionHashModifier of \(name ?? "")") } }

    /// The entity's old name, used by lightweight migration.
    public var renamingIdentifier: String? { willSet { ensureEditable("renamingIdentifier of \(name ?? "")") } }

    /// Sets of attribute names whose values together must be unique among the
    /// entity's objects. Accepts names or property descriptions, as Core Data does;
    /// part of the version hash.
    public var uniquenessConstraints: [[Any]] {
        get { uniquenessConstraintNames }
        set {
            ensureEditable("uniquenessConstraints of \(name ?? "")")
            uniquenessConstraintNames = newValue.map { $0.map(Self.propertyName) }
        }
    }

    /// The uniqueness constraints as property names.
    public private(set) var uniquenessConstraintNames: [[String]] = []

    /// The store indexes of the entity; not part of the version hash.
    public var indexes: [NSFetchIndexDescription] = [] {
        willSet { ensureEditable("indexes of \(name ?? "")") }
        didSet { indexes.forEach { $0.entity = self } }
    }

    /// Deprecated multi-column indexes (names or property descriptions).
    public var compoundIndexes: [[Any]] {
        get { compoundIndexNames }
        set {
            ensureEditable("compoundIndexes of \(name ?? "")")
            compoundIndexNames = newValue.map { $0.map(Self.propertyName) }
        }
    }

    /// The deprecated compound indexes as property names.
    public private(set) var compoundIndexNames: [[String]] = []

    /// The entity's version hash: 32 bytes that change whenever the entity
    /// changes in a way that affects stored data (see VersionHash.swift).
    public var versionHash: Data { frozen?.versionHash ?? Data(VersionHash.entity(self)) }

    /// The superentity's name, kept by the model-file reader until every entity exists.
    var unresolvedParentName: String?

    /// An unnamed entity without properties; name it and add it to a model's `entities`.
    public override init() {
        super.init()
        referenceProxy.target = self
    }

    deinit { referenceProxy.target = nil }

    /// An entity named `name` with `properties`.
    public convenience init(name: String, className: String? = nil, properties: [NSPropertyDescription] = []) {
        self.init()
        self.name = name
        self.explicitClassName = className
        self.properties = properties
    }

    var owningModel: NSManagedObjectModel? { managedObjectModel }

    // MARK: Caches once the model is frozen

    /// A class, not a struct: reading one lookup through the optional then
    /// retains one reference instead of copying (retaining) every table,
    /// which `property(named:)` did on every value access.
    final class FrozenLookups {
        let properties: [NSPropertyDescription]
        let propertiesByName: [String: NSPropertyDescription]
        let attributesByName: [String: NSAttributeDescription]
        let relationshipsByName: [String: NSRelationshipDescription]
        let relationshipsInNameOrder: [NSRelationshipDescription]
        let defaultedAttributes: [NSAttributeDescription]
        let hasDefaultedAttributes: Bool
        let transientAttributes: [NSAttributeDescription]
        let validatedProperties: [NSPropertyDescription]
        /// The slots (`slotLayout`) of `validatedProperties`.
        let validatedSlots: SlotSet
        let valueRequiredSlots: SlotSet
        let derivedAttributes: [NSDerivedAttributeDescription]
        let slotLayout: PropertySlotLayout
        let versionHash: Data
        /// `name`'s hash value, which every object ID of the entity mixes in.
        let nameHash: Int
        /// `isAbstract`, which every object made checks.
        let isAbstract: Bool

        init(properties: [NSPropertyDescription], propertiesByName: [String: NSPropertyDescription],
             attributesByName: [String: NSAttributeDescription],
             relationshipsByName: [String: NSRelationshipDescription], versionHash: Data, name: String,
             isAbstract: Bool) {
            self.properties = properties
            self.propertiesByName = propertiesByName
            self.attributesByName = attributesByName
            self.relationshipsByName = relationshipsByName
            relationshipsInNameOrder = relationshipsByName.values.sorted { $0.name < $1.name }
            defaultedAttributes = attributesByName.values.filter { $0.defaultValue != nil }
            hasDefaultedAttributes = !defaultedAttributes.isEmpty
            transientAttributes = attributesByName.values.filter(\.isTransient)
            validatedProperties = properties.filter(\.hasValidationRules)
            validatedSlots = SlotSet(properties.indices.filter { properties[$0].hasValidationRules })
            valueRequiredSlots = SlotSet(properties.indices.filter { properties[$0].onlyRequiresAValue })
            derivedAttributes = properties.compactMap { $0 as? NSDerivedAttributeDescription }
            slotLayout = PropertySlotLayout(properties)
            self.versionHash = versionHash
            nameHash = name.hashValue
            self.isAbstract = isAbstract
        }
    }

    // Read by every object made and loaded (its layout, defaults, transient attributes) and written
    // once, when the model freezes; release builds skip its exclusivity check (~76 instructions a read).
    #if DEBUG
    private(set) var frozen: FrozenLookups?
    #else
    @exclusivity(unchecked) private(set) var frozen: FrozenLookups?
    #endif

    /// Builds the lookup tables once the model can no longer change; called by
    /// the model, superentities before sub-entities.
    func freeze() {
        let all = inheritedProperties + ownProperties
        for (slot, property) in all.enumerated() where property.entity === self { property.slot = slot }
        frozen = FrozenLookups(
            properties: all,
            propertiesByName: Self.byName(all),
            attributesByName: Self.byName(all.compactMap { $0 as? NSAttributeDescription }),
            relationshipsByName: Self.byName(all.compactMap { $0 as? NSRelationshipDescription }),
            versionHash: Data(VersionHash.entity(self)), name: name ?? "", isAbstract: isAbstract)
    }

    private static func byName<P: NSPropertyDescription>(_ properties: [P]) -> [String: P] {
        Dictionary(properties.map { ($0.name, $0) }, uniquingKeysWith: { _, own in own })
    }

    private static func propertyName(_ element: Any) -> String {
        if let property = element as? NSPropertyDescription { return property.name }
        return "\(element)"
    }

    // MARK: Copying and equality

    /// A copy with copies of the entity's own properties; sub-entities and
    /// relationship destinations are not copied (a model copy relinks them).
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSEntityDescription()
        copy.name = name
        copy.explicitClassName = explicitClassName
        copy.isAbstract = isAbstract
        copy.codeGenerationType = codeGenerationType
        copy.properties = ownProperties.map { $0.copy() as! NSPropertyDescription }
        copy.userInfo = userInfo
        copy.versionHashModifier = versionHashModifier
        copy.renamingIdentifier = renamingIdentifier
        copy.uniquenessConstraintNames = uniquenessConstraintNames
        copy.indexes = indexes.map { $0.copy() as! NSFetchIndexDescription }
        copy.compoundIndexNames = compoundIndexNames
        return copy
    }

    /// Whether `other` describes the same entity: same name, class, flags,
    /// own properties, constraints and indexes, and the same superentity and
    /// sub-entities by name.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSEntityDescription else { return false }
        return name == other.name && managedObjectClassName == other.managedObjectClassName
            && isAbstract == other.isAbstract && codeGenerationType == other.codeGenerationType
            && superentity?.name == other.superentity?.name
            && Set(subentities.compactMap(\.name)) == Set(other.subentities.compactMap(\.name))
            && ownProperties.count == other.ownProperties.count
            && ownProperties.allSatisfy { mine in
                other.ownProperties.first(where: { $0.name == mine.name }).map(mine.isEqual) ?? false
            }
            && ValueEquality.equalDictionaries(userInfo, other.userInfo)
            && versionHashModifier == other.versionHashModifier && renamingIdentifier == other.renamingIdentifier
            && uniquenessConstraintNames == other.uniquenessConstraintNames
            && indexes == other.indexes && compoundIndexNames == other.compoundIndexNames
    }

    /// The hash of the name, so that equal entities hash alike.
    open override var hash: Int { name?.hashValue ?? 0 }

    /// `<NSEntityDescription Name>`, for logs.
    open override var description: String { "<NSEntityDescription \(name ?? "(unnamed)")>" }
}
