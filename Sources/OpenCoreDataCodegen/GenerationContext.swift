import OpenCoreData

/// What every template of one generation run shares: the model, its name,
/// the options and the decisions that depend on the whole model.
struct GenerationContext {
    let model: NSManagedObjectModel
    let modelName: String
    let options: CodeGenerationOptions

    /// Xcode makes numbers and booleans scalars by default in Swift models;
    /// Objective-C models predate that default and use `NSNumber`.
    var scalarDefault: Bool { model.modelFileAttributes["sourceLanguage"] != "Objective-C" }

    /// The generated function that registers the model's classes.
    var registrationFunction: String { "register\(SwiftIdentifier.sanitized(modelName))Classes" }

    func swiftType(of attribute: NSAttributeDescription) -> String {
        AttributeTypes.swiftType(of: attribute, scalarDefault: scalarDefault)
    }

    func className(of entity: NSEntityDescription?) -> String {
        entity.map(EntityClassNames.className(of:)) ?? "NSManagedObject"
    }

    /// The entities that get a properties file (and, when `writesClass`, a class file).
    var generatedEntities: [(entity: NSEntityDescription, writesClass: Bool)] {
        model.entities.compactMap { entity in
            switch (options.scope, entity.codeGenerationType) {
            case (.allEntities, _), (.modelSettings, "class"): return (entity, true)
            case (.modelSettings, "category"): return (entity, false)
            default: return nil
            }
        }
    }

    /// Custom class names of the generated attributes that nothing declares:
    /// each gets a placeholder so the generated code compiles.
    var placeholderNames: [String] {
        let known = Set(model.entities.map(EntityClassNames.className(of:))).union(options.definedTypeNames)
        var names: [String] = []
        for (entity, _) in generatedEntities {
            for case let attribute as NSAttributeDescription in entity.properties where attribute.entity === entity {
                guard let custom = AttributeTypes.customClassName(of: attribute) else { continue }
                for name in CustomTypeNames.unknownNames(in: custom, known: known) where !names.contains(name) {
                    names.append(name)
                }
            }
        }
        return names
    }
}
