import Foundation
import Testing
import OpenCoreData
import TestScratch

/// The codegen plugin on application targets (Tests/Fixtures/CodegenApps, targets of this
/// package that `swift test` builds): FrozenTimeApp runs the seeds' album code against the
/// classes generated from FrozenTime.xcdatamodeld, CodegenFeatures the rest of the generated
/// API on a model of its own. Another package finds the plugin and the library by their
/// product names (`theProductsResolveForAnotherPackage`).
@Suite struct CodegenPluginFixtureTests {
    static func run(_ executable: String) throws -> Subprocess.Run {
        try Subprocess.run([Subprocess.buildFolder.appendingPathComponent(executable).path])
    }

    @Test func seedCodeRunsAgainstPluginGeneratedClasses() throws {
        let run = try Self.run("FrozenTimeApp")
        #expect(run.status == 0, "\(run.output.suffix(4000))")
        for line in ["photos: 3", "inverse: true", "sorted: alps.jpg,market.jpg,sea.jpg", "ratings: 2,3,1",
                     "after remove: 2, orphan album: true", "photos after cascade: 0", "albums after cascade: 0"] {
            #expect(run.output.contains(line + "\n"), "\(line)")
        }
    }

    @Test func orderedAccessorsInheritanceAndCustomClassesWork() throws {
        let run = try Self.run("CodegenFeatures")
        #expect(run.status == 0, "\(run.output.suffix(4000))")
        for line in ["ordered: B2,B3,B4,B1", "edited: B5,B1", "inverse: true, true", "fetched: 5 true",
                     #"values: 12.5 3 ["a", "b"] 0.5 calm"#, "after cascade: 3"] {
            #expect(run.output.contains(line + "\n"), "\(line)")
        }
    }

    /// An application's manifest names the plugin and the library by product and package, as the
    /// README shows; SwiftPM resolves those names when it loads the package graph, which
    /// `swift package show-dependencies` does without building anything. A misspelt plugin name
    /// (the case checked second) fails there.
    @Test func theProductsResolveForAnotherPackage() throws {
        let folder = ScratchDirectory.url("codegen-client-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let resolved = try Self.showDependencies(of: folder.appendingPathComponent("Right"),
                                                 plugin: "OpenCoreDataCodegenPlugin")
        #expect(resolved.status == 0, "\(resolved.output.suffix(4000))")
        let misspelt = try Self.showDependencies(of: folder.appendingPathComponent("Wrong"),
                                                 plugin: "OpenCoreDataCodegenPlugins")
        #expect(misspelt.status != 0)
        #expect(misspelt.output.contains("product 'OpenCoreDataCodegenPlugins' required by package"),
                "\(misspelt.output.suffix(4000))")
    }

    /// Writes a package whose one target uses `plugin` of this checkout, and lists its dependencies.
    private static func showDependencies(of folder: URL, plugin: String) throws -> Subprocess.Run {
        let sources = folder.appendingPathComponent("Sources/App")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try "print(0)\n".write(to: sources.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        let checkout = Subprocess.root.standardizedFileURL
        let manifest = """
            // swift-tools-version:6.0
            import PackageDescription
            let package = Package(
                name: "App",
                dependencies: [.package(path: "\(checkout.path)")],
                targets: [.executableTarget(
                    name: "App",
                    dependencies: [.product(name: "OpenCoreData", package: "\(checkout.lastPathComponent)")],
                    plugins: [.plugin(name: "\(plugin)", package: "\(checkout.lastPathComponent)")])])
            """
        try manifest.write(to: folder.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        return try Subprocess.run(["swift", "package", "--package-path", folder.path,
                                   "--scratch-path", folder.appendingPathComponent(".build").path,
                                   "show-dependencies"])
    }
}
