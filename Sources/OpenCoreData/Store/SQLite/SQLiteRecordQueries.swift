import Foundation

/// The store's queries for whole records by key, `SELECT * FROM <table>
/// WHERE Z_PK IN (…)` (or `BETWEEN ? AND ?` for a range), kept per table with how their rows' columns map to
/// each entity's slots (``SQLiteRowLayout``), so that a read builds neither.
///
/// A fault fired alone is one such read, and building the SQL text and the
/// column layout for it cost about 30,000 instructions: a quarter of the
/// fault. The layout is kept with the column names it was made from and made
/// again when a statement reports others (or the store's mapping changed);
/// a cached statement returns the same names array, so the check is a
/// comparison of two array buffers. Safe from any thread: each call takes
/// the lock once.
final class SQLiteRecordQueries: @unchecked Sendable {
    /// What a read needs of a table's layout: the reads of the entity asked
    /// for, and where the primary key is.
    struct Plan {
        let reads: SQLiteRowLayout.Reads
        let primaryKeyPosition: Int
    }

    /// A class, changed in place under the lock: a struct was copied out of
    /// the dictionary and back (its arrays retained and released) twice a read.
    private final class Table {
        let name: String
        /// The SQL by the key list's parameter count's exponent (``SQLiteKeyList``).
        var sql: [String?] = []
        /// The SQL for a range of keys.
        lazy var rangeSQL = "SELECT * FROM \(name) WHERE Z_PK BETWEEN ? AND ?"
        var mapping: SQLiteMapping?
        var columnNames: [String] = []
        var layout: SQLiteRowLayout?
        var primaryKeyPosition = 0

        init(name: String) { self.name = name }
    }

    private let lock = NSLock()
    private var tables: [String: Table] = [:]
    /// The entry asked for last: reads come in runs of one table (faults of
    /// one entity fired one by one), and comparing its short name costs
    /// ~15 instructions where hashing it for the dictionary costs ~300.
    private var last: Table?

    /// The query text for the rows of `table` whose keys are in `keys`.
    func sql(table: String, keys: SQLiteKeyList) -> String {
        let exponent = keys.parameterCount.trailingZeroBitCount
        return lock.withLock {
            let entry = self.entry(table)
            if exponent < entry.sql.count, let sql = entry.sql[exponent] { return sql }
            let sql = "SELECT * FROM \(table) WHERE Z_PK IN (\(keys.placeholders))"
            if entry.sql.count <= exponent { entry.sql += repeatElement(nil, count: exponent + 1 - entry.sql.count) }
            entry.sql[exponent] = sql
            return sql
        }
    }

    /// The query text for the rows of `table` whose keys are the two parameters' range, both included.
    func rangeSQL(table: String) -> String {
        lock.withLock { entry(table).rangeSQL }
    }

    /// The entry of `table`, made when first asked for; under the lock.
    private func entry(_ table: String) -> Table {
        if let last, last.name == table { return last }
        let entry: Table
        if let known = tables[table] {
            entry = known
        } else {
            entry = Table(name: table)
            tables[table] = entry
        }
        last = entry
        return entry
    }

    /// How rows of `table` with `columnNames` (a statement's) are read as
    /// records of `entity`; nil when `mapping` has no table for the entity.
    func plan(table: String, columnNames: [String], entity: NSEntityDescription, mapping: SQLiteMapping) -> Plan? {
        lock.withLock {
            let entry = self.entry(table)
            if entry.layout == nil || entry.mapping !== mapping || entry.columnNames != columnNames {
                entry.mapping = mapping
                entry.columnNames = columnNames
                entry.layout = SQLiteRowLayout(columnNames: columnNames)
                entry.primaryKeyPosition = columnNames.firstIndex { $0.uppercased() == "Z_PK" } ?? 0
            }
            return entry.layout?.reads(of: entity, in: mapping).map {
                Plan(reads: $0, primaryKeyPosition: entry.primaryKeyPosition)
            }
        }
    }
}
