/// What `ocd-bench --instructions` divides a run's instruction count by: the
/// objects of the workload's size for most workloads; the events or the one
/// open of the workloads that time something else.
struct CountedUnit: Sendable {
    /// Singular, for the table's header ("instructions per photo").
    var name: String
    /// How many of them a run at `size` does.
    var count: @Sendable (_ size: Int) -> Int

    static let object = CountedUnit(name: "object") { $0 }
}
