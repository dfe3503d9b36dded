import Testing
@testable import OpenCoreDataCore
import TestScratch

/// `ocd` as a shell user meets it: the examples of `--help`, completions,
/// the SQL debug log switched on from outside, and `ocd model`'s full text.
@Suite struct OCDCommandLineTests {
    /// Runs `ocd` in `folder` with `environment` added to this process's.
    static func ocd(_ arguments: [String], in folder: URL = Subprocess.root,
                    environment: [String: String] = [:]) throws -> OCDModelCommandTests.Run {
        let process = Process()
        process.executableURL = OCDModelCommandTests.executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        (process.standardOutput, process.standardError) = (out, err)
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return .init(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                     stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// A command line split as a shell splits it: on spaces, but not inside double quotes.
    static func words(_ line: String) -> [String] {
        var words: [String] = [], current = "", quoted = false
        for character in line {
            if character == "\"" { quoted.toggle() } else if character == " ", !quoted {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else { current.append(character) }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// Every example `ocd --help` shows runs as written in the repository's Examples folder.
    @Test func helpExamplesRunAsWritten() throws {
        let help = try Self.ocd(["--help"])
        #expect(help.status == 0)
        let examples = help.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("ocd ") }
        #expect(examples.count >= 4, "\(help.stdout)")
        for example in examples {
            #expect(example.count <= 76, "wrapped in the help: \(example)")
            let examples = Subprocess.root.appendingPathComponent("Examples")
            let run = try Self.ocd(Array(Self.words(example).dropFirst()), in: examples)
            #expect(run.status == 0 && !run.stdout.isEmpty, "\(example): \(run.stderr)")
        }
    }

    @Test func completionScriptsComeFromArgumentParser() throws {
        for shell in ["bash", "zsh", "fish"] {
            let run = try Self.ocd(["--generate-completion-script", shell])
            #expect(run.status == 0, "\(shell): \(run.stderr)")
            // fish names options without their dashes (`-l format`).
            for word in ["inspect", "query", "configuration", "format"] {
                #expect(run.stdout.contains(word), "\(shell) script lacks \(word)")
            }
        }
    }

    /// The debug log from outside: the environment variable, or the launch argument as an app takes it.
    @Test func sqlDebugSwitchesOnFromTheEnvironmentOrTheLaunchArgument() throws {
        let arguments = ["query", "Examples/Stores/FrozenTime.sqlite", "--entity", "Photo", "--format", "json"]
        let quiet = try Self.ocd(arguments)
        #expect(quiet.status == 0 && quiet.stderr.isEmpty)
        let byEnvironment = try Self.ocd(arguments, environment: ["OPENCOREDATA_SQL_DEBUG": "2"])
        let byArgument = try Self.ocd(arguments + ["-com.apple.CoreData.SQLDebug", "1"])
        for run in [byEnvironment, byArgument] {
            #expect(run.status == 0 && run.stdout == quiet.stdout, "the log stays off stdout: \(run.stderr)")
            let lines = run.stderr.split(separator: "\n")
            #expect(lines.contains { $0.hasPrefix("CoreData: sql: SELECT") && $0.contains("ZPHOTO") }, "\(run.stderr)")
            #expect(lines.contains { $0.hasPrefix("CoreData: annotation: sql connection fetch time: ") })
            let count = "CoreData: annotation: fetch on entity 'Photo' returned 4 rows" // from level 2 only
            #expect(lines.contains(Substring(count)) == (run == byEnvironment))
        }
    }

    /// `ocd model` shows what the model declares beyond attributes and relationships.
    @Test(.enabled(if: Corpus.models != nil, "shared/corpus/models is absent"))
    func modelTextShowsEveryKindOfDeclaration() throws {
        let corpus = try #require(Corpus.models)
        let run = try Self.ocd(["model", corpus.appendingPathComponent("SwiftGen__SwiftGen__Model__Model_2.xml").path])
        #expect(run.status == 0, "\(run.stderr)")
        for line in ["  attribute derivedCount: Integer 64, derived from oneToMany.@count, optional",
                     "  fetched property fetchedProperty: NewEntity where true == true",
                     "  index byIdentifierIndex (identifier)", "  unique (identifier)",
                     "configuration Custom: NewEntity"] {
            #expect(run.stdout.split(separator: "\n").contains(Substring(line)), "missing: \(line)\n\(run.stdout)")
        }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(
            try Self.ocd(["model", corpus.appendingPathComponent("SwiftGen__SwiftGen__Model__Model_2.xml").path,
                          "--format", "json"]).stdout.utf8)) as? [String: Any])
        #expect((json["configurations"] as? [[String: Any]])?.first?["name"] as? String == "Custom")

        let note = NSEntityDescription(name: "Note")
        note.properties = [NSAttributeDescription(name: "title", type: .stringAttributeType, isOptional: false,
                                                  defaultValue: "")]
        let model = NSManagedObjectModel()
        model.entities = [note]
        let file = ScratchDirectory.url("ocd-\(UUID().uuidString).xcdatamodel")
        try model.write(to: file)
        let empty = try Self.ocd(["model", file.path])
        #expect(empty.stdout.contains("  attribute title: String, required, default \"\""), "\(empty.stdout)")
    }
}

extension OCDModelCommandTests.Run: Equatable {
    static func == (a: Self, b: Self) -> Bool { (a.status, a.stdout, a.stderr) == (b.status, b.stdout, b.stderr) }
}
