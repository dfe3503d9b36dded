import Foundation

/// The one folder where the tests of this process write files: `<temporary directory>/ocd-test-run-<pid>`,
/// made when a test first asks for it and removed, with all it holds, when the process exits.
///
/// Tests used to write straight into the temporary directory, and most of what they wrote outlived them
/// (folders nobody removed, a `try` that threw before the `defer` that would have, SQLite's -wal and
/// -shm files beside a store): about 150,000 entries in /tmp after a day of runs. With every file under one
/// folder per process, removing that folder cleans up after every test, whatever it did. Swift Testing has no
/// teardown for a whole run, so an `atexit` handler removes it; both processes of `swift test` (XCTest's and
/// Swift Testing's) exit normally; exit tests' child processes use their parent's folder. A test process that
/// crashes leaves its one folder behind.
///
/// A target of its own, so that both test targets (whose sources can't be shared) use this one type.
public enum ScratchDirectory {
    /// This process's folder, created once, when first used (a `static let` is initialized once,
    /// thread-safely, however many tests ask at the same moment).
    public static let root: URL = {
        // An exit test's body runs in a child process of the same binary that Swift Testing starts, and that
        // mostly ends by a crash, which runs no atexit handler: it writes in its parent's folder, which the
        // parent removes.
        let isExitTest = runsUnderItsOwnBinary
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("ocd-test-run-\(isExitTest ? getppid() : getpid())")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            fatalError("The tests' scratch folder \(folder.path) could not be created: \(error)")
        }
        if !isExitTest { atexit { ScratchDirectory.removeRoot() } }
        return folder
    }()

    /// Whether this process's parent runs the same executable (Linux's `/proc`): an exit test's child.
    private static var runsUnderItsOwnBinary: Bool {
        func executable(_ process: String) -> String? {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(process)/exe")
        }
        guard let own = executable("self"), let parent = executable("\(getppid())") else { return false }
        return own == parent
    }

    /// `name` inside the root, not created. Tests that run in parallel need names of their own
    /// (`"ocd-\(UUID().uuidString)"`).
    public static func url(_ name: String) -> URL {
        root.appendingPathComponent(name)
    }

    /// Called by `atexit`: removes the root and everything in it.
    private static func removeRoot() {
        try? FileManager.default.removeItem(at: root)
    }
}
