import Foundation
import Testing

/// Issue 18's promise, checked on an application's code: Core Data code
/// written in Apple's style (Xcode's "Manual/None" `+CoreDataClass`/
/// `+CoreDataProperties` files, a hand-written class, the Xcode template's
/// PersistenceController, XCTest cases on a `/dev/null` store) compiles and
/// passes here after only the steps docs/Porting.md lists. The fixture
/// (Tests/Fixtures/Gallery) is the `Gallery` module and the `GalleryTests`
/// executable of this package; its AppleOriginals/ holds the code as written
/// for Apple, and the ported files must be exactly what those steps make of it.
@Suite struct ApplePortingFixtureTests {
    static let folder = Subprocess.root.appendingPathComponent("Tests/Fixtures/Gallery")
    static let originals = folder.appendingPathComponent("AppleOriginals")
    /// What XCTest's runner is on Linux, written out: the test cases are an executable, not a test target.
    static let runner = "Tests/GalleryTests/main.swift"

    /// Porting.md's steps, applied to a file written for Apple: the import,
    /// `@NSManaged` properties to `@Managed`, Xcode's relationship functions to
    /// `@ManagedAccessor`, and no `@objc(…)` names (Linux has no Objective-C runtime).
    static func ported(_ apple: String) -> String {
        apple.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line -> String? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("@objc("), trimmed.hasSuffix(")") { return nil }
            if trimmed == "import CoreData" { return line.replacingOccurrences(of: "CoreData", with: "OpenCoreData") }
            let isFunction = trimmed.hasPrefix("@NSManaged") && trimmed.contains(" func ")
            return line.replacingOccurrences(of: "@NSManaged", with: isFunction ? "@ManagedAccessor" : "@Managed")
        }.joined(separator: "\n")
    }

    /// The Swift files under `folder`, by path relative to it.
    static func swiftFiles(under folder: URL) -> [String] {
        let paths = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        return paths.filter { $0.hasSuffix(".swift") }.sorted()
    }

    @Test func theGalleryCodeIsApplesWithOnlyThePortingSteps() throws {
        let files = Self.swiftFiles(under: Self.originals)
        #expect(files.count == 7, "\(files)")
        for file in files {
            let apple = try String(contentsOf: Self.originals.appendingPathComponent(file), encoding: .utf8)
            let ours = try String(contentsOf: Self.folder.appendingPathComponent(file), encoding: .utf8)
            #expect(apple.contains("import CoreData"), "\(file)")
            #expect(ours == Self.ported(apple), "\(file) differs from Apple's by more than the porting steps")
        }
        // Nothing in Gallery or its tests that Apple's version does not have.
        let ported = Self.swiftFiles(under: Self.folder.appendingPathComponent("Sources/Gallery"))
            .map { "Sources/Gallery/" + $0 }
            + Self.swiftFiles(under: Self.folder.appendingPathComponent("Tests")).map { "Tests/" + $0 }
        #expect(ported.filter { $0 != Self.runner } == files)
        #expect(ported.contains(Self.runner))
    }

    @Test func theRewriteChangesWhatPortingMdSays() {
        let apple = """
            import CoreData
            @objc(Album)
            public class Album: NSManagedObject {}
                @NSManaged public var title: String?
                @objc(addPhotosObject:)
                @NSManaged public func addToPhotos(_ value: Photo)
            """
        #expect(Self.ported(apple) == """
            import OpenCoreData
            public class Album: NSManagedObject {}
                @Managed public var title: String?
                @ManagedAccessor public func addToPhotos(_ value: Photo)
            """)
    }

    /// The runner names every test method of the cases, or a new one would silently not run.
    @Test func theRunnerListsEveryTestCase() throws {
        let tests = try String(contentsOf: Self.folder.appendingPathComponent("Tests/GalleryTests/GalleryTests.swift"),
                               encoding: .utf8)
        let runner = try String(contentsOf: Self.folder.appendingPathComponent(Self.runner), encoding: .utf8)
        let names = tests.matches(of: /func (test\w+)\(/).map { String($0.output.1) }
        #expect(names.count == 6)
        for name in names {
            #expect(runner.contains("(\"\(name)\", GalleryTests.\(name))"), "\(name)")
        }
        #expect(runner.matches(of: /\("test/).count == names.count)
    }

    /// `swift test` builds every target of the package, the fixture's executables too.
    @Test func applesXCTestCasesPass() throws {
        let run = try Subprocess.run([Subprocess.buildFolder.appendingPathComponent("GalleryTests").path])
        #expect(run.status == 0, "\(run.output.suffix(4000))")
        #expect(run.output.contains("Executed 6 tests, with 0 failures"), "\(run.output.suffix(4000))")
    }
}
