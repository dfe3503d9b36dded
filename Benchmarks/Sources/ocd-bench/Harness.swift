import Foundation

/// One measured run: the median time of its repetitions and the process's peak memory.
struct Measurement: Codable {
    var workload: String
    var size: Int
    var system: String
    var seconds: Double
    var peak_bytes: Int
}

/// The systems compared in every workload.
enum System: String, CaseIterable {
    case opencoredata, raw, grdb
}

/// A workload: prepares its data (untimed), then runs the timed part.
struct Workload {
    var name: String
    var sizes: [Int]
    /// The systems that implement this workload today.
    var systems: [System: (Int, URL) throws -> Void]
    /// Fills the database (untimed); nil when the timed part creates it.
    var prepare: ((Int, URL) throws -> Void)?
    /// Whether the workload is about memory, so the table shows peak bytes.
    var isAboutMemory = false
    /// A peak resident size no run may exceed: the child fails above it, so
    /// the benchmark is also the test of a memory bound.
    var peakBound: Int?
    /// Bodies that prepare their data themselves and return the seconds of
    /// the part to measure, for workloads whose preparation can't be a file.
    /// They run that part in `ocdBenchTimedRegion` themselves.
    var selfTimed: [System: (Int, URL) throws -> Double] = [:]
    /// Printed under the workload's table.
    var note: String?
    /// What `--instructions` divides a run's count by.
    var unit = CountedUnit.object

    func runs(_ system: System) -> Bool { systems[system] != nil || selfTimed[system] != nil }

    /// The name's first word ("fetch-items"), which `--workload` accepts.
    var shortName: String { String(name.prefix { $0 != " " }) }
}

enum Harness {
    /// Runs every (size, system) of `workload` in its own child process, so
    /// that each peak-memory reading is that run's alone.
    static func measure(_ workload: Workload, sizes: [Int]) throws -> [Measurement] {
        var results: [Measurement] = []
        for size in sizes {
            for system in System.allCases where workload.runs(system) {
                results.append(try runChild(workload: workload.name, size: size, system: system))
            }
        }
        return results
    }

    private static func runChild(workload: String, size: Int, system: System) throws -> Measurement {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        process.arguments = ["--child", workload, String(size), system.rawValue]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError("\(workload) \(size) \(system.rawValue) failed with status \(process.terminationStatus)")
        }
        return try JSONDecoder().decode(Measurement.self, from: output)
    }

    /// In the child: prepares the data, runs the timed part `repetitions`
    /// times on fresh copies, prints one Measurement as JSON. The timed part
    /// runs in `ocdBenchTimedRegion`. Under callgrind (`underCallgrind`) it
    /// runs once and the peak bound is not checked: valgrind's own memory is
    /// in the peak.
    static func child(_ workload: Workload, size: Int, system: System, underCallgrind: Bool = false) throws {
        guard workload.runs(system) else { throw BenchmarkError("\(system) does not run \(workload.name)") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let template = directory.appendingPathComponent("template.sqlite")
        if let prepare = workload.prepare { try prepare(size, template) }
        _ = PerfControl.shared // read before the first timed region, whose instructions it would add to
        var times: [Double] = []
        for repetition in 0..<(underCallgrind ? 1 : repetitions(size)) {
            let database = directory.appendingPathComponent("run\(repetition).sqlite")
            if workload.prepare != nil { try FileManager.default.copyItem(at: template, to: database) }
            if let timed = workload.selfTimed[system] {
                times.append(try timed(size, database))
            } else {
                let body = workload.systems[system]!
                let start = DispatchTime.now().uptimeNanoseconds
                try ocdBenchTimedRegion { try body(size, database) }
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database.path + suffix) }
        }
        let measurement = Measurement(workload: workload.name, size: size, system: system.rawValue,
                                      seconds: times.sorted()[times.count / 2], peak_bytes: peakResidentBytes())
        if let bound = workload.peakBound, !underCallgrind, measurement.peak_bytes > bound {
            throw BenchmarkError("\(workload.name) \(size) \(system): peak \(measurement.peak_bytes / 1_048_576) MB exceeds the bound of \(bound / 1_048_576) MB")
        }
        print(String(decoding: try JSONEncoder().encode(measurement), as: UTF8.self))
    }

    static func repetitions(_ size: Int) -> Int { size <= 50_000 ? 5 : (size <= 200_000 ? 3 : 1) }

    /// The process's peak resident set size (VmHWM in /proc/self/status).
    static func peakResidentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
            return kilobytes * 1024
        }
        return 0
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
