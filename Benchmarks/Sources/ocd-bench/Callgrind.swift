import Foundation

/// One run counted by callgrind: the instructions executed in
/// `ocdBenchTimedRegion`, and the valgrind command that counted them.
struct InstructionMeasurement: Codable {
    var workload: String
    var size: Int
    var system: String
    var instructions: Int
    /// What the count is divided by: `units` of `unit` (objects, events, opens).
    var units: Int
    var unit: String
    var command: String

    var perUnit: Double { Double(instructions) / Double(units) }
}

/// `ocd-bench --instructions`: runs each (workload, size, system) child once
/// under callgrind, counting only the instructions of `ocdBenchTimedRegion`
/// (`--collect-atstart=no --toggle-collect=ocdBenchTimedRegion`), and reads
/// the total `Ir` from callgrind's output file. Instructions of other threads
/// than the one that runs the region are not counted (callgrind's collection
/// state is per thread); every system runs its work on the calling thread
/// (a whole-process run shows under 0.1M instructions on the others). One
/// run counts what happens once per process too (caches filled, the first
/// store created by the insert workloads), which the median of the timed
/// repetitions mostly leaves out.
enum Callgrind {
    /// Where the callgrind output files are written (and kept, for callgrind_annotate).
    static let outputDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-bench-callgrind")

    /// Swift seeds its hashing at random in each process, which moves the
    /// counts of OpenCoreData and GRDB by 1–4% from run to run (their
    /// dictionaries and sets probe differently); with a fixed seed a count
    /// repeats to within 0.1% (two full runs differed by at most 0.07%).
    static let deterministicHashing = (key: "SWIFT_DETERMINISTIC_HASHING", value: "1")

    /// Runs every (size, system) of `workload` under callgrind; `announce`
    /// receives each command before it runs.
    static func measure(_ workload: Workload, sizes: [Int],
                        announce: (String) -> Void) throws -> [InstructionMeasurement] {
        let valgrind = try valgrindPath()
        try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
        var results: [InstructionMeasurement] = []
        for size in sizes {
            for system in System.allCases where workload.runs(system) {
                results.append(try run(valgrind, workload, size, system, announce: announce))
            }
        }
        return results
    }

    private static func run(_ valgrind: String, _ workload: Workload, _ size: Int, _ system: System,
                            announce: (String) -> Void) throws -> InstructionMeasurement {
        let base = outputDirectory.appendingPathComponent("\(workload.shortName)-\(size)-\(system.rawValue)").path
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        let arguments = ["--tool=callgrind", "--collect-atstart=no", "--toggle-collect=\(timedRegionSymbol)",
                         "--callgrind-out-file=\(base).callgrind", "--log-file=\(base).log",
                         executable, "--child", workload.name, String(size), system.rawValue, "--under-callgrind"]
        let command = (["\(deterministicHashing.key)=\(deterministicHashing.value)", valgrind] + arguments)
            .map(shellQuoted).joined(separator: " ")
        announce(command)
        try? FileManager.default.removeItem(atPath: base + ".callgrind")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: valgrind)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging([deterministicHashing]) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        _ = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError("\(workload.name) \(size) \(system.rawValue) failed under callgrind with status "
                                 + "\(process.terminationStatus); valgrind's log: \(base).log")
        }
        let instructions = try totalInstructions(inFile: base + ".callgrind")
        guard instructions > 0 else {
            throw BenchmarkError("callgrind counted no instruction in \(timedRegionSymbol) "
                                 + "for \(workload.name) \(size) \(system.rawValue): is the symbol in the binary?")
        }
        return InstructionMeasurement(workload: workload.name, size: size, system: system.rawValue,
                                      instructions: instructions, units: workload.unit.count(size),
                                      unit: workload.unit.name, command: command)
    }

    /// The `Ir` total of a callgrind output file: its `summary:` line (or
    /// `totals:`, which callgrind writes instead in some versions).
    static func totalInstructions(inFile path: String) throws -> Int {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for prefix in ["summary:", "totals:"] {
            for line in text.split(separator: "\n") where line.hasPrefix(prefix) {
                if let total = line.dropFirst(prefix.count).split(separator: " ").first.flatMap({ Int($0) }) {
                    return total
                }
            }
        }
        throw BenchmarkError("no summary: or totals: line in \(path)")
    }

    /// valgrind's path, found on PATH.
    static func valgrindPath() throws -> String {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for directory in directories {
            let candidate = "\(directory)/valgrind"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw BenchmarkError("--instructions needs valgrind, which is not on PATH: apt-get install valgrind")
    }

    /// `argument` as one word of a POSIX shell command line.
    static func shellQuoted(_ argument: String) -> String {
        let plain = argument.allSatisfy { $0.isLetter || $0.isNumber || "-_./=,:+@%".contains($0) }
        return plain && !argument.isEmpty ? argument : "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
