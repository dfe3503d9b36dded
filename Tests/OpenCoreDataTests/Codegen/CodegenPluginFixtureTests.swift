import Testing
import OpenCoreData

/// The fixture package Tests/Fixtures/CodegenPlugin uses the build plugin on
/// FrozenTime.xcdatamodeld and runs the seeds' album code against the
/// generated classes (FrozenTimeApp), and exercises the rest of the generated
/// API on a model of its own (CodegenFeatures). Built from scratch the first
/// time (about two minutes on two cores), incrementally after that.
@Suite(.serialized) struct CodegenPluginFixtureTests {
    static let fixture = Subprocess.root.appendingPathComponent("Tests/Fixtures/CodegenPlugin")
    static let scratch = Subprocess.root.appendingPathComponent(".build-codegen-fixture")

    /// Builds the whole fixture once, then runs `product`.
    static func run(_ product: String) throws -> Subprocess.Run {
        let built = try build.get()
        guard built.status == 0 else { return built }
        return try Subprocess.run(["swift", "run", "--skip-build", "--package-path", fixture.path,
                                   "--scratch-path", scratch.path, product])
    }

    static let build: Result<Subprocess.Run, Error> = Result {
        let started = Date()
        // Without manifest caching: SwiftPM otherwise keeps a stale list of the
        // root package's sources when files are added in nested folders.
        let run = try Subprocess.run(["swift", "build", "--package-path", fixture.path, "--scratch-path", scratch.path,
                                      "--disable-build-manifest-caching"])
        print("codegen plugin fixture: built in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        return run
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
}
