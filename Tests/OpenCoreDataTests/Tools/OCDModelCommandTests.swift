import Testing
@testable import OpenCoreDataTools

/// `ocd model`, run as a subprocess the way a user runs it.
@Suite struct OCDModelCommandTests {
    struct Run { var status: Int32; var stdout: String; var stderr: String }

    /// The `ocd` executable SwiftPM built next to the test bundle.
    static let executable: URL = {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("ocd").path), url.path != "/" {
            url.deleteLastPathComponent()
        }
        return url.appendingPathComponent("ocd")
    }()

    static func ocd(_ arguments: String...) throws -> Run { try ocd(arguments) }

    static func ocd(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                   stderr: String(decoding: stderr, as: UTF8.self))
    }

    @Test func jsonDescribesTheModel() throws {
        let run = try Self.ocd("model", SeedModels.examples.appendingPathComponent("FrozenTime.xcdatamodeld").path, "--format", "json")
        #expect(run.status == 0, "\(run.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let entities = try #require(json["entities"] as? [[String: Any]])
        #expect(entities.map { $0["name"] as? String } == ["Album", "Photo"])
        let photos = try #require((entities[0]["relationships"] as? [[String: Any]])?.first)
        #expect(photos["name"] as? String == "photos" && photos["deleteRule"] as? String == "Cascade")
        #expect(photos["toMany"] as? Bool == true && photos["inverse"] as? String == "album")
        let model = SeedModels.frozenTime() // keeps the entities alive: a model owns them, descriptions point at each other weakly
        let expectedHash = model.entitiesByName["Album"]!.versionHash.base64EncodedString()
        #expect(entities[0]["versionHash"] as? String == expectedHash)
    }

    @Test func versionOptionReadsAnOlderVersion() throws {
        let run = try Self.ocd("model", SeedModels.examples.appendingPathComponent("GroceryDude.xcdatamodeld").path, "--version", "Model 4")
        #expect(run.status == 0)
        #expect(run.stdout.contains("entity Item") && !run.stdout.contains("entity Unit"))
    }

    @Test func brokenInputIsAClearErrorWithStatusOne() throws {
        let missing = try Self.ocd("model", "/nonexistent/Model.xcdatamodeld")
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("No model file here"))
        let notAModel = try Self.ocd("model", #filePath)
        #expect(notAModel.status == 1 && notAModel.stderr.contains("error:"))
    }

    @Test func diagramsDrawEveryRelationshipPairOnce() throws {
        let model = SeedModels.company()
        let dot = ModelDiagram.dot(model)
        #expect(dot.hasPrefix("digraph Model {") && dot.hasSuffix("}"))
        #expect(dot.components(separatedBy: " -> ").count - 1 == 2)
        #expect(dot.contains("employees (to-many, Nullify)") && dot.contains("department (to-one, Nullify)"))
        let mermaid = ModelDiagram.mermaid(model)
        #expect(mermaid.contains("Department |o--o{ Employee"))
        #expect(mermaid.contains("Employee |o--o{ Employee"))
        let run = try Self.ocd("model", SeedModels.examples.appendingPathComponent("Company.xcdatamodel").path, "--diagram", "dot")
        #expect(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == dot)
    }
}
