import Testing
import OpenCoreData
import TestScratch

/// `ocd generate`, run as a subprocess the way a user runs it.
@Suite struct OCDGenerateCommandTests {
    static func scratch() -> URL {
        ScratchDirectory.url("ocd-generate-\(UUID().uuidString)")
    }

    @Test func writesXcodesFilesIntoTheOutputFolder() throws {
        let output = Self.scratch()
        defer { try? FileManager.default.removeItem(at: output) }
        let model = SeedModels.examples.appendingPathComponent("FrozenTime.xcdatamodeld").path
        let run = try OCDModelCommandTests.ocd("generate", model, "--output", output.path)
        #expect(run.status == 0, "\(run.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        #expect(names == ["Album+CoreDataClass.swift", "Album+CoreDataProperties.swift", "FrozenTime+CoreDataRegistration.swift",
                          "Photo+CoreDataClass.swift", "Photo+CoreDataProperties.swift"])
        let photo = try String(contentsOf: output.appendingPathComponent("Photo+CoreDataProperties.swift"), encoding: .utf8)
        #expect(photo.contains("public var rating: Int16 {"))
    }

    @Test func allAndSingleFile() throws {
        let output = Self.scratch()
        defer { try? FileManager.default.removeItem(at: output) }
        let model = SeedModels.examples.appendingPathComponent("Company.xcdatamodel").path
        let none = try OCDModelCommandTests.ocd("generate", model, "--output", output.path)
        #expect(none.status == 0 && none.stderr.contains("--all"))
        let run = try OCDModelCommandTests.ocd("generate", model, "--output", output.path, "--all", "--single-file", "Company.swift")
        #expect(run.status == 0, "\(run.stderr)")
        let text = try String(contentsOf: output.appendingPathComponent("Company.swift"), encoding: .utf8)
        #expect(text.contains("public class Employee: NSManagedObject {") && text.contains("registerCompanyClasses()"))
    }

    @Test func brokenModelIsAnError() throws {
        let run = try OCDModelCommandTests.ocd("generate", "/nonexistent/Model.xcdatamodeld", "--output", Self.scratch().path)
        #expect(run.status == 1 && run.stderr.contains("error:"))
    }
}
