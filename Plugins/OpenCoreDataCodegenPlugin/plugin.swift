import Foundation
import PackagePlugin

/// Generates the NSManagedObject subclasses of every `.xcdatamodeld` /
/// `.xcdatamodel` in a target at build time, as Xcode's "Class Definition"
/// codegen does, by running `ocd generate`.
///
/// Each model becomes one file, `<Model>+CoreData.swift`, because a build
/// command must name its outputs before it runs and the plugin can't read the
/// model's entities itself (plugins can't link OpenCoreData).
@main
struct OpenCoreDataCodegenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let tool = try context.tool(named: "ocd")
        let swiftSources = target.sourceFiles.filter { $0.url.pathExtension == "swift" }.map(\.url)
        return try models(in: target).map { model in
            let name = model.deletingPathExtension().lastPathComponent
            let output = context.pluginWorkDirectoryURL.appendingPathComponent(name)
            let definedTypes = try ModelFolder.customClassNames(in: model).filter { SourceScan.declares($0, in: swiftSources) }
            return .buildCommand(
                displayName: "Generating Core Data classes for \(model.lastPathComponent)",
                executable: tool.url,
                arguments: ["generate", model.path, "--output", output.path, "--single-file", "\(name)+CoreData.swift"]
                    + definedTypes.flatMap { ["--defined-type", $0] },
                inputFiles: try ModelFolder.contentsFiles(in: model),
                outputFiles: [output.appendingPathComponent("\(name)+CoreData.swift")])
        }
    }

    /// The model folders of `target`: SwiftPM lists a `.xcdatamodeld` as one
    /// file (on Linux it has no rule for it and hands it over unprocessed),
    /// and reports nested `.xcdatamodel` versions only through it.
    private func models(in target: SourceModuleTarget) -> [URL] {
        let models = target.sourceFiles.map(\.url).filter { ["xcdatamodeld", "xcdatamodel"].contains($0.pathExtension) }
        return models.filter { url in
            !(url.pathExtension == "xcdatamodel" && url.deletingLastPathComponent().pathExtension == "xcdatamodeld")
        }
    }
}
