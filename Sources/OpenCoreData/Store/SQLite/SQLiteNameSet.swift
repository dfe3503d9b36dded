/// Names already given in one namespace (a table's columns, the join tables),
/// handing out Core Data's numeric suffixes on a clash.
struct SQLiteNameSet {
    private var used: Set<String>

    init(_ reserved: Set<String> = []) { used = reserved }

    /// `base` if it is free, else `base` with the first free suffix 1, 2, …
    /// (`ZTITLE1`, `Z_3ARTWORKS1`). Marks the result as used.
    mutating func claim(_ base: String) -> String {
        var candidate = base, suffix = 0
        while used.contains(candidate) { suffix += 1; candidate = base + String(suffix) }
        used.insert(candidate)
        return candidate
    }
}
