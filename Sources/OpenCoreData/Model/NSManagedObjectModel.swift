/// A schema: the entities of an application's objects, their configurations
/// and stored fetch requests (Apple's NSManagedObjectModel).
///
/// A model is editable until a persistent store coordinator starts using it;
/// from then on it is immutable and may be shared between threads.
open class NSManagedObjectModel: NSObject, NSCopying, @unchecked Sendable {
    /// The default configuration's name, which holds every entity.
    public static let defaultConfigurationName = "Default"

    private var entityList: [NSEntityDescription] = []
    private var frozenEntitiesByName: [String: NSEntityDescription]?
    /// The frozen model's entity names to their positions in `entityList`, found without hashing.
    private var frozenEntityKeys: PropertyKeyTable?

    /// Whether the model may still change; false once a coordinator uses it.
    public private(set) var isEditable = true
    /// What the store layer derives from the frozen model once (ModelDerivedValues.swift).
    let derivedValues = ModelDerivedValues()
    /// The entity of each class `init(context:)` made an object of (ManagedObjectClasses.swift).
    let entitiesByClass = Locked<[ObjectIdentifier: NSEntityDescription]>([:])

    /// The model's entities. Setting it makes this model their owner.
    public var entities: [NSEntityDescription] {
        get { entityList }
        set {
            ensureEditable("entities")
            for old in entityList where old.managedObjectModel === self { old.managedObjectModel = nil }
            entityList = newValue
            for entity in entityList { entity.managedObjectModel = self }
        }
    }

    /// The entities by name.
    public var entitiesByName: [String: NSEntityDescription] {
        frozenEntitiesByName ?? Self.byName(entityList)
    }

    /// The entity named `name`, as `entitiesByName` has it. Once the model is
    /// frozen, a name spelled as in code is found without hashing
    /// (`PropertyKeyTable`): `insertNewObject(forEntityName:into:)` asks for
    /// every object, and the dictionary's lookup cost ~320 instructions.
    func entity(named name: String) -> NSEntityDescription? {
        if let index = frozenEntityKeys?.slot(forKey: name) { return entityList[index] }
        return (frozenEntitiesByName ?? Self.byName(entityList))[name]
    }

    private var configurationMembers: [(name: String, entityNames: [String])] = []

    /// The names of the model's configurations (not including the default one).
    public var configurations: [String] { configurationMembers.map(\.name) }

    /// The configurations Xcode marks "Used with CloudKit".
    public var configurationsUsedWithCloudKit: Set<String> = [] { willSet { ensureEditable("configurations") } }

    /// The entities of the configuration named `configuration`; every entity for
    /// nil or "Default"; nil for an unknown name.
    public func entities(forConfigurationName configuration: String?) -> [NSEntityDescription]? {
        guard let configuration, configuration != Self.defaultConfigurationName else { return entityList }
        guard let members = configurationMembers.first(where: { $0.name == configuration }) else { return nil }
        let byName = entitiesByName
        return members.entityNames.compactMap { byName[$0] }
    }

    /// Makes `entities` the members of the configuration named `configuration`.
    public func setEntities(_ entities: [NSEntityDescription], forConfigurationName configuration: String) {
        ensureEditable("configuration \(configuration)")
        let names = entities.compactMap(\.name)
        if let index = configurationMembers.firstIndex(where: { $0.name == configuration }) {
            configurationMembers[index].entityNames = names
        } else {
            configurationMembers.append((configuration, names))
        }
    }

    /// Fetch request templates by name, in the model's own terms; the fetch
    /// layer exposes them as `NSFetchRequest`s (`fetchRequestTemplatesByName`).
    public private(set) var fetchRequestDescriptionsByName: [String: FetchRequestDescription] = [:]

    /// Stores a fetch request template under `name` (nil removes it).
    public func setFetchRequestDescription(_ request: FetchRequestDescription?, forName name: String) {
        ensureEditable("fetch request template \(name)")
        fetchRequestDescriptionsByName[name] = request
    }

    /// Localized names of entities and properties; may stay empty.
    public var localizationDictionary: [String: String]? = [:]

    /// Identifiers of this model version, for the developer's use only; Core
    /// Data never depends on them at run time.
    public var versionIdentifiers: Set<AnyHashable> = [] { willSet { ensureEditable("versionIdentifiers") } }

    /// The `.xcdatamodeld` this model is a version of, when it was read from
    /// one: where automatic migration looks for the version that wrote a
    /// store, as Core Data looks in the app's bundles.
    var versionBundleURL: URL?
    /// This version's name in ``versionBundleURL``.
    var versionName: String?

    /// The version hash of every entity, by entity name. A store records these
    /// and opens only with a model whose hashes agree.
    public var entityVersionHashesByName: [String: Data] {
        Dictionary(entityList.compactMap { e in e.name.map { ($0, e.versionHash) } }, uniquingKeysWith: { a, _ in a })
    }

    /// The `<model>` attributes of the model file it was read from (Xcode
    /// version, language…), written back unchanged; never compared.
    public var modelFileAttributes: [String: String] = [:]

    /// An empty model: set its `entities` (and configurations) before a coordinator uses it, which
    /// freezes it.
    public override init() { super.init() }

    /// The model in the Xcode model file at `url` (`.xcdatamodel`, its
    /// `contents`, or `.xcdatamodeld`, whose current version is loaded), or nil
    /// when it cannot be read. `NSManagedObjectModel.load(contentsOf:)` throws
    /// an error that says why instead.
    public convenience init?(contentsOf url: URL) {
        guard let model = try? ModelFile.load(url) else { return nil }
        self.init(taking: model)
    }

    /// One model holding the entities, configurations and templates of all of
    /// `models`; nil when two of them define an entity of the same name.
    public convenience init?(byMerging models: [NSManagedObjectModel]?) {
        guard let merged = try? Self.merging(models ?? []) else { return nil }
        self.init(taking: merged)
    }

    /// The model in the Xcode model file at `url`, or an error that names the
    /// file, line, entity and property where reading failed.
    public static func load(contentsOf url: URL) throws -> NSManagedObjectModel {
        try ModelFile.load(url)
    }

    /// One model merging every model file (`.xcdatamodeld`, `.xcdatamodel`,
    /// `.mom`/`.momd` folders holding them) found at `urls`.
    public static func mergedModel(contentsOf urls: [URL]) throws -> NSManagedObjectModel {
        try merging(urls.map(ModelFile.load))
    }

    /// One model merging every model file in the bundles' resources (the main
    /// bundle for nil), or nil when there is none or they conflict.
    public class func mergedModel(from bundles: [Bundle]?) -> NSManagedObjectModel? {
        let urls = (bundles ?? [Bundle.main]).flatMap(ModelFile.modelURLs(in:))
        guard !urls.isEmpty else { return nil }
        return try? mergedModel(contentsOf: urls)
    }

    static func merging(_ models: [NSManagedObjectModel]) throws -> NSManagedObjectModel {
        let merged = NSManagedObjectModel()
        var seen = Set<String>()
        for model in models {
            for entity in model.entityList {
                guard seen.insert(entity.name ?? "").inserted else {
                    throw NSError.coreData(NSCoreDataError, "Can't merge models with two entities named '\(entity.name ?? "")'.")
                }
            }
        }
        let copies = models.map { $0.copy() as! NSManagedObjectModel }
        merged.entities = copies.flatMap(\.entityList)
        for copy in copies {
            merged.configurationMembers += copy.configurationMembers
            merged.configurationsUsedWithCloudKit.formUnion(copy.configurationsUsedWithCloudKit)
            merged.fetchRequestDescriptionsByName.merge(copy.fetchRequestDescriptionsByName) { first, _ in first }
            merged.versionIdentifiers.formUnion(copy.versionIdentifiers)
        }
        return merged
    }

    private convenience init(taking other: NSManagedObjectModel) {
        self.init()
        entities = other.entityList
        configurationMembers = other.configurationMembers
        configurationsUsedWithCloudKit = other.configurationsUsedWithCloudKit
        fetchRequestDescriptionsByName = other.fetchRequestDescriptionsByName
        versionIdentifiers = other.versionIdentifiers
        localizationDictionary = other.localizationDictionary
        modelFileAttributes = other.modelFileAttributes
    }

    // MARK: Immutability

    /// Makes the model immutable and builds its lookup tables. The persistent
    /// store coordinator calls this when it starts using the model; editing
    /// the model afterwards stops the program.
    public func freeze() {
        guard isEditable else { return }
        isEditable = false
        frozenEntitiesByName = Self.byName(entityList)
        var positions: [String: Int] = [:]
        for (index, entity) in entityList.enumerated() {
            if let name = entity.name, positions[name] == nil { positions[name] = index }
        }
        frozenEntityKeys = PropertyKeyTable(entityList.compactMap(\.name), slotsByName: positions)
        func freezeTree(_ entity: NSEntityDescription) {
            entity.freeze()
            entity.subentities.forEach(freezeTree)
        }
        entityList.filter { $0.superentity == nil }.forEach(freezeTree)
    }

    func ensureEditable(_ what: @autoclosure () -> String) {
        precondition(isEditable, "Can't modify an immutable model: \(what()) was changed after a persistent store coordinator started using the model. Build the model completely before creating the coordinator.")
    }

    private static func byName(_ entities: [NSEntityDescription]) -> [String: NSEntityDescription] {
        Dictionary(entities.compactMap { e in e.name.map { ($0, e) } }, uniquingKeysWith: { first, _ in first })
    }

    // MARK: Copying and equality

    /// A deep, editable copy: entities, properties, inheritance and
    /// relationships are copied and relinked among the copies.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSManagedObjectModel()
        let copies = entityList.map { $0.copy() as! NSEntityDescription }
        let copyByName = Self.byName(copies)
        for (original, entityCopy) in zip(entityList, copies) {
            entityCopy.subentities = original.subentities.compactMap { $0.name.flatMap { copyByName[$0] } }
        }
        for entityCopy in copies {
            for case let relationship as NSRelationshipDescription in entityCopy.ownProperties {
                let destinationName = relationship.destinationEntity?.name
                let inverseName = relationship.inverseRelationship?.name
                relationship.destinationEntity = destinationName.flatMap { copyByName[$0] }
                relationship.inverseRelationship = inverseName.flatMap { relationship.destinationEntity?.relationshipsByName[$0] }
            }
        }
        copy.entities = copies
        copy.configurationMembers = configurationMembers
        copy.configurationsUsedWithCloudKit = configurationsUsedWithCloudKit
        copy.fetchRequestDescriptionsByName = fetchRequestDescriptionsByName
        copy.versionIdentifiers = versionIdentifiers
        copy.localizationDictionary = localizationDictionary
        copy.modelFileAttributes = modelFileAttributes
        return copy
    }

    /// Whether `object` is a model with equal entities, configurations and
    /// fetch request templates.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSManagedObjectModel else { return false }
        let otherEntities = other.entitiesByName
        return entityList.count == other.entityList.count
            && entityList.allSatisfy { entity in entity.name.flatMap { otherEntities[$0] }.map(entity.isEqual) ?? false }
            && configurationMembers.map(\.name) == other.configurationMembers.map(\.name)
            && zip(configurationMembers, other.configurationMembers).allSatisfy { $0.entityNames == $1.entityNames }
            && configurationsUsedWithCloudKit == other.configurationsUsedWithCloudKit
            && fetchRequestDescriptionsByName == other.fetchRequestDescriptionsByName
    }

    /// The number of entities: cheap, and equal for equal models.
    open override var hash: Int { entityList.count }
}
