import OpenCoreData

/// The Swift class names of a model's entities, as Xcode derives them.
enum EntityClassNames {
    /// The class name of `entity`: its `managedObjectClassName` without a
    /// module prefix (`$(PRODUCT_MODULE_NAME).Photo` and `MyApp.Photo` are
    /// `Photo`), or the entity name when the model names no class of its own.
    static func className(of entity: NSEntityDescription) -> String {
        let named = (entity.managedObjectClassName ?? "")
            .replacingOccurrences(of: "$(PRODUCT_MODULE_NAME).", with: "")
        let last = named.split(separator: ".").last.map(String.init) ?? ""
        if last.isEmpty || last == "NSManagedObject" { return SwiftIdentifier.sanitized(entity.name ?? "Entity") }
        return last
    }

    /// The class `entity`'s class inherits from: its superentity's class, or `NSManagedObject`.
    static func superclassName(of entity: NSEntityDescription) -> String {
        entity.superentity.map(className(of:)) ?? "NSManagedObject"
    }
}
