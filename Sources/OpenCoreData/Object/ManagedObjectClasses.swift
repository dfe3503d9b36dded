import Synchronization

/// Class lookup for entities on Linux, where there is no Objective-C runtime
/// to find a class by `managedObjectClassName`.
///
/// A class is known once registered (`NSManagedObject.register(_:)`, or
/// automatically by its first `init(context:)` or `entity()`); otherwise
/// `_typeByName` is tried with the qualified name, and a bare name (Xcode's
/// "Current Product Module": `Photo`, `.Photo`) with every module that declares
/// a class of that name; otherwise the entity's objects are plain
/// `NSManagedObject`s. Lookups cost a locked dictionary read once a name was
/// resolved (or found unresolvable).
enum ManagedObjectClasses {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var classesByName: [String: NSManagedObject.Type] = [:]
    nonisolated(unsafe) private static var models: [WeakModel] = []
    /// Names no class was found for, so that the runtime's type records are searched once per name.
    nonisolated(unsafe) private static var unresolvable: Set<String> = []

    private struct WeakModel { weak var model: NSManagedObjectModel? }

    /// The classes registered so far: every `init(context:)` registers its class, and a class
    /// registered before costs a set lookup (its name was made and stored the first time).
    nonisolated(unsafe) private static var registered: Set<ObjectIdentifier> = []

    static func register(_ type: NSManagedObject.Type) {
        let added = lock.withLock { () -> Bool in
            guard registered.insert(ObjectIdentifier(type)).inserted else { return false }
            let qualified = qualifiedName(of: type)
            unresolvable.remove(qualified)
            unresolvable.remove(unqualified(qualified))
            classesByName[qualified] = type
            classesByName[unqualified(qualified)] = type
            return true
        }
        // After the names: a lookup that sees the new count sees the class too.
        if added { generation.add(1, ordering: .releasing) }
    }

    /// Counts registrations: a class resolved for an entity at an earlier count may not be
    /// the one to use any more (a class registered since may be the entity's).
    private static let generation = Atomic(1)

    /// The class of `entity`'s objects, asked for every object made (inserted or fetched): resolved
    /// once per entity and registration, then read from the entity with two atomic loads. Resolving
    /// cleans the class name and looks it up under the lock, ~17,000 instructions an object.
    static func objectClass(for entity: NSEntityDescription) -> NSManagedObject.Type {
        let current = UInt(bitPattern: generation.load(ordering: .acquiring))
        let cached = entity.resolvedObjectClass.load(ordering: .acquiring)
        if cached.first == current, let type = UnsafeRawPointer(bitPattern: cached.second) {
            return unsafeBitCast(type, to: NSManagedObject.Type.self)
        }
        let type = resolveObjectClass(for: entity)
        let bits = UInt(bitPattern: unsafeBitCast(type, to: UnsafeRawPointer.self))
        entity.resolvedObjectClass.store(WordPair(first: current, second: bits), ordering: .releasing)
        return type
    }

    private static func resolveObjectClass(for entity: NSEntityDescription) -> NSManagedObject.Type {
        let name = entity.managedObjectClassName ?? "NSManagedObject"
        if name == "NSManagedObject" { return NSManagedObject.self }
        let cleaned = cleanedClassName(name)
        let (known, failedBefore) = lock.withLock { () -> (NSManagedObject.Type?, Bool) in
            if let known = classesByName[cleaned] ?? classesByName[unqualified(cleaned)] { return (known, false) }
            return (nil, unresolvable.contains(cleaned))
        }
        if let known { return known }
        if failedBefore { return NSManagedObject.self }
        if let found = resolve(cleaned) {
            register(found)
            return found
        }
        lock.withLock { _ = unresolvable.insert(cleaned) }
        return NSManagedObject.self
    }

    private static func resolve(_ name: String) -> NSManagedObject.Type? {
        ClassNameLookup.type(named: name, as: NSManagedObject.Type.self)
    }

    /// A class name as a model file may write it, without Xcode's placeholder for the
    /// current module (`$(PRODUCT_MODULE_NAME).Photo`) or the empty module (`.Photo`).
    static func cleanedClassName(_ name: String) -> String {
        // Most names have neither: Foundation's replacingOccurrences cost ~16,000 instructions a call.
        guard name.utf8.contains(UInt8(ascii: "$")) || name.utf8.first == UInt8(ascii: ".") else { return name }
        var cleaned = name.replacingOccurrences(of: "$(PRODUCT_MODULE_NAME).", with: "")
        while cleaned.hasPrefix(".") { cleaned.removeFirst() }
        return cleaned
    }

    /// `register(type)`, then `entity(for: type, in: model)`: what `init(context:)` asks for every
    /// object. A class whose entity a frozen model has cached was registered before its entity
    /// was looked up, so then one read of the model's cache answers (registering took the
    /// registry's lock and a set insert, ~530 instructions an object).
    static func registeringEntity(for type: NSManagedObject.Type, in model: NSManagedObjectModel)
        -> NSEntityDescription? {
        if !model.isEditable, let known = model.entitiesByClass.withLock({ $0[ObjectIdentifier(type)] }) {
            return known
        }
        register(type)
        return entity(for: type, in: model)
    }

    /// The entity of `model` whose class name names `type`: searched once per frozen model and
    /// class, since every `init(context:)` asks (the search names the class, ~29,000 instructions).
    static func entity(for type: NSManagedObject.Type, in model: NSManagedObjectModel) -> NSEntityDescription? {
        guard !model.isEditable else { return searchEntity(for: type, in: model) }
        let key = ObjectIdentifier(type)
        if let known = model.entitiesByClass.withLock({ $0[key] }) { return known }
        let found = searchEntity(for: type, in: model)
        if let found { model.entitiesByClass.withLock { $0[key] = found } }
        return found
    }

    private static func searchEntity(for type: NSManagedObject.Type, in model: NSManagedObjectModel)
        -> NSEntityDescription? {
        let qualified = qualifiedName(of: type)
        let short = unqualified(qualified)
        let matches = model.entities.filter { entity in
            let name = cleanedClassName(entity.managedObjectClassName ?? "")
            return name == qualified || name == short || unqualified(name) == short && name.contains(".")
        }
        return matches.first
    }

    /// The entity of `type` in any model a coordinator uses.
    static func entity(for type: NSManagedObject.Type) -> NSEntityDescription? {
        let live = lock.withLock { models.compactMap(\.model) }
        return live.lazy.compactMap { entity(for: type, in: $0) }.first
    }

    static func noteModel(_ model: NSManagedObjectModel) {
        lock.withLock {
            models.removeAll { $0.model == nil || $0.model === model }
            models.append(WeakModel(model: model))
        }
    }

    /// "Module.Class", as `String(reflecting: type)` writes it. That asks the
    /// metatype for its conformances to the printing protocols first, each
    /// lookup a scan of every conformance record the process has loaded the
    /// first time: ~540,000 instructions a class, against ~6,000 here.
    private static func qualifiedName(of type: NSManagedObject.Type) -> String {
        _typeName(type, qualified: true)
    }

    private static func unqualified(_ name: String) -> String {
        name.split(separator: ".").last.map(String.init) ?? name
    }
}

extension NSManagedObject {
    /// Makes `type` known to class lookup, so that objects of entities whose
    /// `managedObjectClassName` names it are created as `type`.
    public static func register(_ type: NSManagedObject.Type) {
        ManagedObjectClasses.register(type)
    }
}
