import Foundation

/// The one function every child runs its timed part in: the clock reads
/// around the call, and `ocd-bench --instructions` counts the instructions
/// executed inside it (callgrind's `--toggle-collect`), so time and count
/// cover the same code. Preparation, the copy of the file and the report
/// stay outside.
///
/// The binary must hold exactly one symbol for it, never called from itself:
/// callgrind toggles counting on every entry and exit of a matching function,
/// so a nested match would turn counting off. Hence the attributes: its
/// symbol is the plain `ocdBenchTimedRegion` (`@_silgen_name`: the Swift
/// mangling would abbreviate "ocd", a word of the module's name, and valgrind
/// does not demangle Swift); it is never inlined; it is generic, so the
/// optimizer does not clone it per closure (closure specialization skips
/// generic callees), and never specialized for its type. Check with
/// `nm .build/release/ocd-bench | grep ocdBenchTimedRegion`: one line.
@inline(never) @_semantics("optimize.sil.specialize.generic.never") @_silgen_name("ocdBenchTimedRegion")
func ocdBenchTimedRegion<Result>(_ body: () throws -> Result) rethrows -> Result {
    PerfControl.shared?.send("enable")
    defer { PerfControl.shared?.send("disable") }
    return try body()
}

/// The symbol of `ocdBenchTimedRegion`, as callgrind's `--toggle-collect` matches it.
let timedRegionSymbol = "ocdBenchTimedRegion"

/// `perf record`'s control FIFO, so that samples cover the timed region only:
/// `OCD_BENCH_PERF_CONTROL=/tmp/ctl perf record -D -1 --control fifo:/tmp/ctl …`
/// (`mkfifo /tmp/ctl` first; `-D -1` starts with sampling off). Unset, nothing
/// is opened or written.
struct PerfControl {
    static let shared: PerfControl? = ProcessInfo.processInfo.environment["OCD_BENCH_PERF_CONTROL"].flatMap {
        FileHandle(forWritingAtPath: $0).map(PerfControl.init)
    }

    let fifo: FileHandle

    func send(_ command: String) { fifo.write(Data((command + "\n").utf8)) }
}
