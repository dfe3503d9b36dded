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

    /// A reporter printing "<what>: done/total", or nil when progress is not shown.
    func reporter(_ what: String) -> ((Int, Int) -> Void)? {
        guard progress || isatty(STDERR_FILENO) != 0 else { return nil }
        return { done, total in FileHandle.standardError.write(Data("\(what): \(done)/\(total)\n".utf8)) }
    }
}

/// Completion for arguments naming a store file.
let storeCompletion = CompletionKind.file(extensions: ["sqlite", "sqlite3", "db", "store"])
/// Completion for arguments naming a model: bundles are folders, so any file or folder.
let modelCompletion = CompletionKind.file()
