import ArgumentParser
import OpenCoreDataTools

/// Runs a store command's work; a failure the user can act on (missing file,
/// not a store, model that does not fit, bad predicate) becomes one short
/// line on stderr and status 1, without usage text: the arguments were well formed.
func reportingErrors(_ work: () throws -> Void) throws {
    do {
        try work()
    } catch {
        FileHandle.standardError.write(Data("error: \(ErrorText.line(error))\n".utf8))
        throw ExitCode.failure
    }
}

/// `--progress`: progress lines for long work, on stderr so that stdout
/// (JSON, CSV) stays clean. Shown without the flag when stderr is a terminal.
struct ProgressOptions: ParsableArguments {
    @Flag(help: "Print progress lines to stderr (the default when stderr is a terminal).")
    var progress = false

    /// Whether progress lines are printed.
    var isShown: Bool { progress || isatty(STDERR_FILENO) != 0 }

    /// A reporter printing "<what>: done/total", or nil when progress is not shown.
    func reporter(_ what: String) -> ((Int, Int) -> Void)? {
        guard isShown else { return nil }
        return { done, total in FileHandle.standardError.write(Data("\(what): \(done)/\(total)\n".utf8)) }
    }

    /// Runs `body` with a `Progress` current on this thread, which the
    /// library's long work (a migration) joins as a child; while it runs, a
    /// line "<what>: n%" whenever the whole percentage moves (read five
    /// times a second), and "<what>: 100%" when `body` returns.
    func watching<T>(_ what: String, _ body: () throws -> T) rethrows -> T {
        guard isShown else { return try body() }
        let watch = ProgressWatch(what)
        watch.progress.becomeCurrent(withPendingUnitCount: 100)
        defer {
            watch.progress.resignCurrent()
            watch.stop()
        }
        return try body()
    }
}

/// A `Progress` read from a thread of its own until stopped.
private final class ProgressWatch: @unchecked Sendable {
    let progress = Progress(totalUnitCount: 100)
    private let what: String
    private let lock = NSLock()
    private var stopped = false
    private var shown = -1
    private let finished = DispatchSemaphore(value: 0)

    init(_ what: String) {
        self.what = what
        Thread.detachNewThread { [self] in
            while !lock.withLock({ stopped }) {
                show(Int(progress.fractionCompleted * 100))
                Thread.sleep(forTimeInterval: 0.2)
            }
            finished.signal()
        }
    }

    /// Ends the watch; prints 100% if the work got there.
    func stop() {
        lock.withLock { stopped = true }
        finished.wait()
        show(Int(progress.fractionCompleted * 100))
    }

    private func show(_ percent: Int) {
        guard percent != shown else { return }
        shown = percent
        FileHandle.standardError.write(Data("\(what): \(percent)%\n".utf8))
    }
}

/// Completion for arguments naming a store file.
let storeCompletion = CompletionKind.file(extensions: ["sqlite", "sqlite3", "db", "store"])
/// Completion for arguments naming a model: bundles are folders, so any file or folder.
let modelCompletion = CompletionKind.file()
