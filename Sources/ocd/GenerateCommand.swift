import ArgumentParser
import OpenCoreData
import OpenCoreDataCodegen

/// `ocd generate MODEL --output DIR`: write the Swift classes of a model, as Xcode's codegen does.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write NSManagedObject subclasses for a model (.xcdatamodeld, .xcdatamodel or its contents file).",
        discussion: """
            Follows each entity's Codegen setting: Class Definition writes <Class>+CoreDataClass.swift and \
            <Class>+CoreDataProperties.swift, Category/Extension only the properties file, Manual/None nothing \
            (unless --all). Also writes <Model>+CoreDataRegistration.swift, and placeholders for custom classes \
            the model names but no --defined-type declares.
            """)

    @Argument(help: "The model file or folder.")
    var model: String

    @Option(name: .shortAndLong, help: "The folder to write the files into (created if missing).")
    var output: String

    @Flag(help: "Generate class and properties files for every entity, whatever its Codegen setting.")
    var all = false

    @Flag(help: "Type to-many relationships as Set<Destination> and [Destination] instead of NSSet? and NSOrderedSet?.")
    var swiftCollections = false

    @Option(name: .customLong("defined-type"), help: "A custom class your module declares (repeatable): no placeholder is written for it.")
    var definedTypes: [String] = []

    @Option(help: "The model's name in the registration function (default: the file's name).")
    var modelName: String?

    @Option(help: "Write everything into this one file in the output folder (for build tools, which must name their outputs in advance).")
    var singleFile: String?

    func run() throws {
        let url = URL(fileURLWithPath: model)
        let options = CodeGenerationOptions(scope: all ? .allEntities : .modelSettings,
                                            toManyStyle: swiftCollections ? .swift : .foundation,
                                            definedTypeNames: Set(definedTypes))
        var files: [GeneratedFile]
        do {
            let loaded = try NSManagedObjectModel.load(contentsOf: url)
            files = CodeGenerator(options: options).files(for: loaded, modelName: modelName ?? CodeGenerator.modelName(of: url))
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode.failure
        }
        if let singleFile {
            files = [GeneratedFile(name: singleFile, contents: files.map(\.contents).joined(separator: "\n"))]
        }
        let folder = URL(fileURLWithPath: output)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in files {
            let destination = folder.appendingPathComponent(file.name)
            // Unchanged files keep their dates, so builds that depend on them stay incremental.
            if (try? String(contentsOf: destination, encoding: .utf8)) == file.contents { continue }
            try file.contents.write(to: destination, atomically: true, encoding: .utf8)
        }
        if files.isEmpty {
            FileHandle.standardError.write(Data("warning: no entity of the model asks for code generation (use --all)\n".utf8))
        }
    }
}
