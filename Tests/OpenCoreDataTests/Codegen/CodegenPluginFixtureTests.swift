import Testing
import OpenCoreData

/// The fixture package Tests/Fixtures/ClientPackage uses the build plugin on
/// FrozenTime.xcdatamodeld and runs the seeds' album code against the
/// generated classes (FrozenTimeApp), and exercises the rest of the generated
/// API on a model of its own (CodegenFeatures).
@Suite(.serialized) struct CodegenPluginFixtureTests {
    static func run(_ product: String) throws -> Subprocess.Run { try ClientPackage.run("run", [product]) }

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
