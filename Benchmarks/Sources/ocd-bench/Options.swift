/// ocd-bench's command line, other than `--child`.
struct Options {
    /// The size `--instructions` runs every workload at, unless `--size` says otherwise.
    static let instructionSize = 10_000

    var quick = false, json = false, instructions = false
    /// The `--workload` names: a workload's full name or its first word.
    var workloadNames: [String] = []
    var size: Int?

    static let usage = """
        usage: ocd-bench [--quick] [--json] [--instructions] [--workload NAME]... [--size N]
               ocd-bench --child WORKLOAD SIZE SYSTEM [--under-callgrind]
        """

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--quick": quick = true
            case "--json": json = true
            case "--instructions": instructions = true
            case "--workload":
                guard let name = rest.popFirst() else { throw BenchmarkError("--workload needs a name\n" + Self.usage) }
                workloadNames.append(name)
            case "--size":
                guard let value = rest.popFirst(), let size = Int(value), size > 0 else {
                    throw BenchmarkError("--size needs a positive number\n" + Self.usage)
                }
                self.size = size
            default: throw BenchmarkError("unknown option \(argument)\n" + Self.usage)
            }
        }
    }

    /// The workloads `--workload` names, in the order of `all`; all of them without it.
    func selected(_ all: [Workload]) throws -> [Workload] {
        for name in workloadNames where !all.contains(where: { $0.name == name || $0.shortName == name }) {
            throw BenchmarkError("no workload \(name); there are: " + all.map(\.shortName).joined(separator: ", "))
        }
        if workloadNames.isEmpty { return all }
        return all.filter { workloadNames.contains($0.name) || workloadNames.contains($0.shortName) }
    }

    /// The sizes to run `workload` at: `--size`, else 10k for `--instructions`
    /// (valgrind is some 50 times slower), else the smallest one, at most 10k,
    /// for `--quick`, else all the workload's sizes.
    func sizes(_ workload: Workload) -> [Int] {
        if let size { return [size] }
        if instructions { return [Self.instructionSize] }
        return quick ? [min(workload.sizes.min()!, 10_000)] : workload.sizes
    }
}
