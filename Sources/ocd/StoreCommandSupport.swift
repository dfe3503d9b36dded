import ArgumentParser
import OpenCoreDataTools

/// Runs a store command's work; a failure the user can act on (missing file,
/// not a store, model that does not fit, bad predicate) becomes one line on
/// stderr and status 1, without usage text: the arguments were well formed.
func reportingErrors(_ work: () throws -> Void) throws {
    do {
        try work()
    } catch {
        FileHandle.standardError.write(Data("error: \(error)\n".utf8))
        throw ExitCode.failure
    }
}
