import OpenCoreData

/// Turns a managed object model into Swift source the way Xcode's "Codegen"
/// setting does, for use with OpenCoreData.
///
/// ```swift
/// let model = try NSManagedObjectModel.load(contentsOf: url)
/// for file in CodeGenerator().files(for: model, modelName: "FrozenTime") {
///     try file.contents.write(to: folder.appendingPathComponent(file.name), atomically: true, encoding: .utf8)
/// }
/// ```
///
/// Per entity: `<Class>+CoreDataClass.swift` and `<Class>+CoreDataProperties.swift`
/// for "Class Definition", only the properties file for "Category/Extension".
/// Per model: `<Model>+CoreDataRegistration.swift`, whose `register<Model>Classes()`
/// makes the classes known for lookup by `managedObjectClassName`, and,
/// when the model names custom classes nobody declares, placeholders for them.
public struct CodeGenerator: Sendable {
    /// What to generate and how.
    public var options: CodeGenerationOptions

    /// A generator with `options`; the defaults generate what Xcode would.
    public init(options: CodeGenerationOptions = CodeGenerationOptions()) {
        self.options = options
    }

    /// The files for `model`. `modelName` names the registration function
    /// (`registerFrozenTimeClasses()`) and appears in the files' headers.
    public func files(for model: NSManagedObjectModel, modelName: String) -> [GeneratedFile] {
        let context = GenerationContext(model: model, modelName: modelName, options: options)
        let entities = context.generatedEntities
        guard !entities.isEmpty else { return [] }
        var files: [GeneratedFile] = []
        for (entity, writesClass) in entities {
            if writesClass { files.append(ClassFileTemplate.file(for: entity, modelName: modelName)) }
            files.append(PropertiesFileTemplate(entity: entity, context: context).file())
        }
        files.append(SupportFileTemplates.registration(context))
        if let placeholders = SupportFileTemplates.placeholders(context) { files.append(placeholders) }
        return files
    }

    /// The files for the model at `url` (`.xcdatamodeld`, whose current version
    /// is used, `.xcdatamodel` or its `contents` file), named after the file.
    public func files(forModelAt url: URL) throws -> [GeneratedFile] {
        files(for: try NSManagedObjectModel.load(contentsOf: url), modelName: Self.modelName(of: url))
    }

    /// `FrozenTime` for `FrozenTime.xcdatamodeld`, `.xcdatamodel` and `FrozenTime.xcdatamodel/contents`.
    public static func modelName(of url: URL) -> String {
        let file = url.lastPathComponent == "contents" ? url.deletingLastPathComponent() : url
        return SwiftIdentifier.sanitized(file.deletingPathExtension().lastPathComponent)
    }
}
