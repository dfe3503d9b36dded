import Foundation
import Testing
import TestScratch

/// The README's first command: the demo, run as a built executable (a client
/// of the library without `@testable`, in a debug build, as `swift run
/// ocd-demo` builds it).
///
/// If this fails in an incremental build right after a change to the stored
/// properties of a library class (the demo then reads fields at old offsets:
/// lost sort descriptors, or a bogus exclusivity violation), touch
/// Sources/ocd-demo/main.swift: SwiftPM 6.3 on Linux did not always recompile
/// the executable target. A clean build (CI) is not affected.
@Suite struct DemoTests {
    @Test func demoRunsTheSeedWalkThroughs() throws {
        let folder = ScratchDirectory.url("ocd-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let demo = Subprocess.buildFolder.appendingPathComponent("ocd-demo").path
        let models = Subprocess.root.appendingPathComponent("Examples/Models").path
        let run = try Subprocess.run([demo, models], in: folder)
        #expect(run.status == 0, "\(run.output)")
        for line in ["saved 3 albums and 6 photos", "deleted the album Alps; photos left: cake.jpg, azulejos.jpg, sunset.jpg, tram.jpg",
                     "code 1600 (NSValidationRelationshipDeniedDeleteError)", "Alan stays, department now none"] {
            #expect(run.output.contains(line), "missing: \(line)")
        }
        for store in ["FrozenTime.sqlite", "GroceryDude.sqlite", "Company.sqlite"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(store).path), "\(store)")
        }
    }
}
