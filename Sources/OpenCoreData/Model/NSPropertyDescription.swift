/// A property of an entity: an attribute, a relationship or a fetched property.
///
/// Apple's NSPropertyDescription. The flags and identifiers here feed the
/// property's `versionHash` (see VersionHash.swift); `userInfo` does not.
open class NSPropertyDescription: NSObject, NSCopying, ModelEditing, @unchecked Sendable {
    // The name and the flags are read on every change and save of an object; written only while the model
    // is edited (`ensureEditable`), so no access can overlap another: they skip the exclusivity check
    // (~76 instructions a read).

    /// The property's name, unique within its entity and its entity's ancestors.
    @exclusivity(unchecked) public var name: String = "" { willSet { ensureEditable("the name of property \(name)") } }

    /// The entity that declares this property (for inherited properties: the
    /// superentity that declares it). Set when the property is added to an entity.
    public internal(set) var entity: NSEntityDescription! {
        get { entityReference.target }
        set { entityReference = ProxiedWeakReference(newValue?.referenceProxy) }
    }
    /// `entity`, held weakly through the entity's proxy (see `ReferenceProxy`).
    // Read on every object made, loaded or linked; written only while the
    // model is edited, so release builds skip its exclusivity check (~76
    // instructions a read).
    #if DEBUG
    private var entityReference = ProxiedWeakReference<NSEntityDescription>(nil)
    #else
    @exclusivity(unchecked) private var entityReference = ProxiedWeakReference<NSEntityDescription>(nil)
    #endif

    /// The property's slot in its entity's objects (see `PropertySlotLayout`),
    /// set when the model is frozen; -1 before. Written only while the model
    /// freezes and read by every relationship change: release builds skip its
    /// exclusivity check (~76 instructions a read).
    #if DEBUG
    var slot = -1
    #else
    @exclusivity(unchecked) var slot = -1
    #endif

    /// Whether a managed object may leave this property nil when saved. New
    /// descriptions are optional, as in Core Data.
    @exclusivity(unchecked) public var isOptional: Bool = true { willSet { ensureEditable("isOptional of \(name)") } }

    /// Whether the property is kept in memory only and never written to a store.
    @exclusivity(unchecked) public var isTransient: Bool = false {
        willSet { ensureEditable("isTransient of \(name)") }
    }

    /// Free-form information for the application; not part of the version hash.
    public var userInfo: [AnyHashable: Any]? = [:] { willSet { ensureEditable("userInfo of \(name)") } }

    /// A string mixed into the version hash to mark a change the hash would not see.
    public var versionHashModifier: String? { willSet { ensureEditable("versionHashModifier of \(name)") } }

    /// The property's old name, used by lightweight migration (Xcode's "Renaming ID").
    public var renamingIdentifier: String? { willSet { ensureEditable("renamingIdentifier of \(name)") } }

    /// Deprecated per-property index flag; current models express indexes with
    /// `NSEntityDescription.indexes`.
    public var isIndexed: Bool = false { willSet { ensureEditable("isIndexed of \(name)") } }

    /// Whether Spotlight indexes the property (kept for model-file fidelity).
    public var isIndexedBySpotlight: Bool = false { willSet { ensureEditable("isIndexedBySpotlight of \(name)") } }

    /// Deprecated "store in external record file" flag (kept for model-file fidelity).
    public var isStoredInExternalRecord: Bool = false { willSet { ensureEditable("isStoredInExternalRecord of \(name)") } }

    /// Validation predicates, stored untyped because the model layer sits below
    /// the predicate layer; `validationPredicates` (Predicate/) gives them typed.
    // Read for every property of every saved object; written only while the model is edited.
    @exclusivity(unchecked) var validationPredicateStorage: [AnyObject] = []
    /// The warnings that go with `validationPredicateStorage`, index by index.
    public internal(set) var validationWarnings: [Any] = []

    /// An unnamed optional property; subclasses give it a kind.
    public required override init() { super.init() }

    /// Whether properties of this kind are read-only (true only for fetched properties).
    public var isReadOnly: Bool { false }

    var owningModel: NSManagedObjectModel? { entity?.managedObjectModel }

    /// The property's version hash: 32 bytes that change whenever the property
    /// changes in a way that affects the stored data (see VersionHash.swift).
    public var versionHash: Data { Data(VersionHash.property(self)) }

    // MARK: Copying and equality

    /// A copy that belongs to no entity; subclasses copy their own settings.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = type(of: self).init()
        copyCommonSettings(to: copy)
        return copy
    }

    func copyCommonSettings(to copy: NSPropertyDescription) {
        copy.name = name
        copy.isOptional = isOptional
        copy.isTransient = isTransient
        copy.userInfo = userInfo
        copy.versionHashModifier = versionHashModifier
        copy.renamingIdentifier = renamingIdentifier
        copy.isIndexed = isIndexed
        copy.isIndexedBySpotlight = isIndexedBySpotlight
        copy.isStoredInExternalRecord = isStoredInExternalRecord
        copy.validationPredicateStorage = validationPredicateStorage
        copy.validationWarnings = validationWarnings
    }

    /// Whether `other` describes the same property: same kind, name, flags and
    /// settings. The owning entity is compared by name only, so properties of
    /// two equal models compare equal.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSPropertyDescription, type(of: other) == type(of: self) else { return false }
        return name == other.name && isOptional == other.isOptional && isTransient == other.isTransient
            && versionHashModifier == other.versionHashModifier && renamingIdentifier == other.renamingIdentifier
            && isIndexed == other.isIndexed && isIndexedBySpotlight == other.isIndexedBySpotlight
            && isStoredInExternalRecord == other.isStoredInExternalRecord
            && ValueEquality.equalDictionaries(userInfo, other.userInfo)
            && entity?.name == other.entity?.name
    }

    /// The hash of the name, so that equal properties hash alike.
    open override var hash: Int { name.hashValue }

    /// `<NSAttributeDescription Entity.name>` and the like, for logs.
    open override var description: String { "<\(type(of: self)) \(entity?.name ?? "?").\(name)>" }
}
