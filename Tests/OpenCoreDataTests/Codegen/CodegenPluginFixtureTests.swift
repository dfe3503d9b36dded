import Testing
import OpenCoreData

/// The fixture package Tests/Fixtures/CodegenPlugin uses the build plugin on
/// FrozenTime.xcdatamodeld and runs the seeds' album code against the
/// generated classes. Built from scratch the first time (about a minute and
/// a half on two cores), incrementally after that.
@Suite struct CodegenPluginFixtureTests {
    @Test func seedCodeRunsAgainstPluginGeneratedClasses() throws {
        let started = Date()
        let fixture = Subprocess.root.appendingPathComponent("Tests/Fixtures/CodegenPlugin")
        let scratch = Subprocess.root.appendingPathComponent(".build-codegen-fixture")
        let run = try Subprocess.run(["swift", "run", "--package-path", fixture.path, "--scratch-path", scratch.path,
                                      "FrozenTimeApp"])
        print("codegen plugin fixture: built and ran in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        #expect(run.status == 0, "\(run.output.suffix(4000))")
        for line in ["photos: 3", "inverse: true", "sorted: alps.jpg,market.jpg,sea.jpg", "ratings: 2,3,1",
                     "after remove: 2, orphan album: true", "photos after cascade: 0", "albums after cascade: 0"] {
            #expect(run.output.contains(line + "\n"), "\(line)")
        }
        #expect(run.output.contains("Generating Core Data classes for FrozenTime.xcdatamodeld") || run.output.contains("Build complete"))
    }
}
