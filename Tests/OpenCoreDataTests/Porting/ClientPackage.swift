import Foundation

/// The fixture package Tests/Fixtures/ClientPackage: application code built
/// against this checkout as another package (Gallery in Apple's style with its
/// XCTest target). Built once per test run, tests included, in a scratch folder
/// of its own; from scratch the first time (the library, GRDB and swift-syntax),
/// incrementally after that.
enum ClientPackage {
    static let folder = Subprocess.root.appendingPathComponent("Tests/Fixtures/ClientPackage")
    static let scratch = Subprocess.root.appendingPathComponent(".build-client-fixture")

    static let build: Result<Subprocess.Run, Error> = Result {
        let started = Date()
        // Without manifest caching: SwiftPM otherwise keeps a stale list of the
        // root package's sources when files are added in nested folders.
        let run = try Subprocess.run(["swift", "build", "--build-tests", "--package-path", folder.path,
                                      "--scratch-path", scratch.path, "--disable-build-manifest-caching"])
        print("client package fixture: built in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        return run
    }

    /// Builds the package once, then runs its XCTest cases (`swift test` on the build), or returns the failed build.
    static func test() throws -> Subprocess.Run {
        let built = try build.get()
        guard built.status == 0 else { return built }
        return try Subprocess.run(["swift", "test", "--skip-build", "--package-path", folder.path,
                                   "--scratch-path", scratch.path])
    }
}
