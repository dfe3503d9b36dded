import Foundation
import Testing

/// Issue 18's promise, checked on a package: Core Data code written in
/// Apple's style (Xcode's "Manual/None" `+CoreDataClass`/`+CoreDataProperties`
/// files, a hand-written class, the Xcode template's PersistenceController, an
/// XCTest case on a `/dev/null` store) compiles and passes here after only
/// the steps docs/Porting.md lists. AppleOriginals/ in the fixture holds the
/// code as written for Apple; the ported files must be exactly what those
/// steps make of it.
@Suite struct ApplePortingFixtureTests {
    static let originals = ClientPackage.folder.appendingPathComponent("AppleOriginals")

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
            let ours = try String(contentsOf: ClientPackage.folder.appendingPathComponent(file), encoding: .utf8)
            #expect(apple.contains("import CoreData"), "\(file)")
            #expect(ours == Self.ported(apple), "\(file) differs from Apple's by more than the porting steps")
        }
        // Nothing in Gallery or its tests that Apple's version does not have.
        let ported = Self.swiftFiles(under: ClientPackage.folder.appendingPathComponent("Sources/Gallery"))
            .map { "Sources/Gallery/" + $0 }
            + Self.swiftFiles(under: ClientPackage.folder.appendingPathComponent("Tests")).map { "Tests/" + $0 }
        #expect(ported == files)
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

    @Test func applesXCTestCasesPass() throws {
        let run = try ClientPackage.test()
        #expect(run.status == 0, "\(run.output.suffix(4000))")
        #expect(run.output.contains("Executed 6 tests, with 0 failures"), "\(run.output.suffix(4000))")
    }
}
