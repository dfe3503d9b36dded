/// The two per-model files beside the entity files: class registration and
/// placeholders for custom classes the generator can't see.
enum SupportFileTemplates {
    /// `<Model>+CoreDataRegistration.swift`: a function that registers every
    /// generated class for class lookup by `managedObjectClassName`.
    ///
    /// Without the Objective-C runtime a class can't be found by name alone,
    /// so objects fetched before any `init(context:)` of their class would be
    /// plain `NSManagedObject`s. Every generated `fetchRequest()` calls this
    /// function, and so does an application that fetches in other ways.
    static func registration(_ context: GenerationContext) -> GeneratedFile {
        let name = "\(context.modelName)+CoreDataRegistration.swift"
        let token = "_\(SwiftIdentifier.sanitized(context.modelName))ClassesRegistered"
        let classes = context.generatedEntities.map { "    NSManagedObject.register(\(context.className(of: $0.entity)).self)\n" }
        let contents = FileHeader.text(fileName: name, modelName: context.modelName) + """
            /// Makes the classes of the model \(context.modelName) known to OpenCoreData, so
            /// that fetched objects are created as them. Call it once at start-up when
            /// objects may be fetched other than through a generated `fetchRequest()`.
            public func \(context.registrationFunction)() {
                _ = \(token)
            }

            /// Registers once, however often the function is called.
            private let \(token): Void = {
            \(classes.joined())}()

            """
        return GeneratedFile(name: name, contents: contents)
    }

    /// `<Model>+CoreDataPlaceholders.swift`, or nil when every custom class is known.
    static func placeholders(_ context: GenerationContext) -> GeneratedFile? {
        let names = context.placeholderNames
        guard !names.isEmpty else { return nil }
        let name = "\(context.modelName)+CoreDataPlaceholders.swift"
        let aliases = names.map { "public typealias \($0) = Any\n" }.joined()
        let contents = FileHeader.text(fileName: name, modelName: context.modelName) + """
            // The model names custom classes that OpenCoreData's generator can't see:
            // \(names.joined(separator: ", ")). They stand for `Any` here so that the generated
            // code compiles. Declare the real types in your module and name them to
            // the generator (`ocd generate --defined-type NAME`; the build plugin finds
            // them in the target's sources) to replace these placeholders.

            \(aliases)
            """
        return GeneratedFile(name: name, contents: contents)
    }
}
