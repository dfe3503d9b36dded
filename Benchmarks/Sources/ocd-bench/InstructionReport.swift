import Foundation

/// The tables of `ocd-bench --instructions`: instructions per object (or per
/// event, per open) for each system, and the ratios of OpenCoreData to raw
/// SQLite and to GRDB.
enum InstructionReport {
    /// One workload's table, in the layout of the timing tables.
    static func table(_ workload: Workload, _ results: [InstructionMeasurement]) -> String {
        var lines = ["== \(workload.name): instructions per \(workload.unit.name) (callgrind, one run)"]
        var header = "size".padding(toLength: 10, withPad: " ", startingAt: 0)
        for system in System.allCases { header += system.rawValue.padding(toLength: 14, withPad: " ", startingAt: 0) }
        lines.append(header + "ocd/raw  ocd/grdb")
        for size in Set(results.map(\.size)).sorted() {
            let row = self.row(results, size)
            var line = String(size).padding(toLength: 10, withPad: " ", startingAt: 0)
            for system in System.allCases {
                let cell = row[system].map { grouped($0.perUnit) } ?? "-"
                line += cell.padding(toLength: 14, withPad: " ", startingAt: 0)
            }
            line += ratio(row, .raw).padding(toLength: 9, withPad: " ", startingAt: 0) + ratio(row, .grdb)
            lines.append(line)
        }
        if let note = workload.note { lines.append(note) }
        return lines.joined(separator: "\n")
    }

    /// Every workload in one Markdown table, as the README's tables are written.
    static func markdown(_ results: [InstructionMeasurement]) -> String {
        var lines = ["| workload | size | per | OpenCoreData | raw SQLite | GRDB | OCD/raw | OCD/GRDB |",
                     "|---|---:|---|---:|---:|---:|---:|---:|"]
        var seen = Set<String>()
        for result in results where seen.insert("\(result.workload) \(result.size)").inserted {
            let row = self.row(results.filter { $0.workload == result.workload }, result.size)
            let cells = System.allCases.map { row[$0].map { grouped($0.perUnit) } ?? "-" }
            lines.append("| \(result.workload) | \(grouped(Double(result.size))) | \(result.unit) | "
                         + cells.joined(separator: " | ") + " | \(ratio(row, .raw)) | \(ratio(row, .grdb)) |")
        }
        return lines.joined(separator: "\n")
    }

    private static func row(_ results: [InstructionMeasurement], _ size: Int) -> [System: InstructionMeasurement] {
        var row: [System: InstructionMeasurement] = [:]
        for result in results where result.size == size { row[System(rawValue: result.system)!] = result }
        return row
    }

    private static func ratio(_ row: [System: InstructionMeasurement], _ other: System) -> String {
        guard let ocd = row[.opencoredata], let base = row[other], base.instructions > 0 else { return "-" }
        return String(format: "%.1f×", ocd.perUnit / base.perUnit)
    }

    /// A non-negative count rounded to a whole number, with thousands separators: 67,295.
    static func grouped(_ value: Double) -> String {
        let digits = String(Int(value.rounded()))
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }
}
