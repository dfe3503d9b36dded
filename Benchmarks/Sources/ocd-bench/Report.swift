import Foundation

/// The table printed for one workload: time per system, and the ratios of
/// OpenCoreData to raw SQLite and to GRDB (once OpenCoreData runs it).
enum Report {
    static func table(_ workload: Workload, _ results: [Measurement]) -> String {
        var lines = ["== \(workload.name)"]
        var header = "size".padding(toLength: 10, withPad: " ", startingAt: 0)
        for system in System.allCases { header += system.rawValue.padding(toLength: 14, withPad: " ", startingAt: 0) }
        header += "ocd/raw  ocd/grdb"
        if workload.isAboutMemory { header += "  peak MB (ocd/raw/grdb)" }
        lines.append(header)
        for size in Set(results.map(\.size)).sorted() {
            let row = Dictionary(uniqueKeysWithValues: results.filter { $0.size == size }.map { ($0.system, $0) })
            var line = String(size).padding(toLength: 10, withPad: " ", startingAt: 0)
            for system in System.allCases {
                let cell = row[system.rawValue].map(\.seconds).map(format) ?? "-"
                line += cell.padding(toLength: 14, withPad: " ", startingAt: 0)
            }
            let ocd = row[System.opencoredata.rawValue]?.seconds
            func ratio(_ other: System) -> String {
                guard let ocd, let base = row[other.rawValue]?.seconds, base > 0 else { return "-" }
                return String(format: "%.2f×", ocd / base)
            }
            line += ratio(.raw).padding(toLength: 9, withPad: " ", startingAt: 0) + ratio(.grdb).padding(toLength: 10, withPad: " ", startingAt: 0)
            if workload.isAboutMemory {
                line += System.allCases.map { row[$0.rawValue].map { String($0.peak_bytes / 1_048_576) } ?? "-" }.joined(separator: "/")
            }
            lines.append(line)
        }
        if let note = workload.note { lines.append(note) }
        return lines.joined(separator: "\n")
    }

    /// Seconds, in microseconds when below a hundredth (per-event workloads).
    static func format(_ seconds: Double) -> String {
        seconds < 0.01 ? String(format: "%.1fµs", seconds * 1e6) : String(format: "%.3fs", seconds)
    }
}
