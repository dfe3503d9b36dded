import GRDBSQLite

/// Checks, row by row, that rows SQL sorted with SQLite's BINARY collation
/// (strings by their UTF-8 bytes, as Core Data's own SQL sorts `compare:`)
/// are also in the order `compare:` gives (``SQLiteCompareCollation``), so
/// that a fetch can sort without calling a collation per comparison and use
/// a `COLLATE BINARY` index, and still return what the in-memory sort would.
///
/// Sortedness is a property of neighbours: when every row is at or after
/// the one before it in `compare:` order, the whole result is in that order.
/// Only two strings can make the orders disagree, and then only when one
/// holds a non-ASCII byte at or after their first difference (a decomposed
/// "é" against a precomposed one); the check then says so and the caller
/// sorts by the collation instead. A tie in `compare:` between different
/// bytes also counts as a disagreement: the terms after it, and the primary
/// key after them, decided the binary order but would decide `compare:`'s.
///
/// Cost: one read of each key column per row and a byte comparison where
/// neighbours differ; strings are copied into buffers kept across rows.
struct SQLiteBytewiseOrderCheck {
    /// A sort term's result column and direction.
    struct Key {
        let column: Int32
        let ascending: Bool
    }

    /// A key's value in a row: its storage class, number, and (for text and
    /// blobs) where its bytes lie in the row's byte buffer.
    private struct Value {
        var type: CInt = SQLITE_NULL
        var integer: Int64 = 0
        var real: Double = 0
        var start = 0
        var count = 0
    }

    private let keys: [Key]
    // The previous row's keys and the current one's, swapped after each row: no allocation per row.
    private var previous: [Value], current: [Value]
    // Their text and blob bytes: `currentCount` of `currentBytes` are the current row's (the rest is capacity).
    private var previousBytes: [UInt8] = [], currentBytes: [UInt8] = []
    private var currentCount = 0
    private var hasPrevious = false

    init(keys: [Key]) {
        self.keys = keys
        previous = Array(repeating: Value(), count: keys.count)
        current = previous
    }

    /// Whether the statement's current row keeps the order: at or after
    /// the previous row in `compare:` order. Remembers the row's keys.
    mutating func rowKeepsOrder(_ statement: OpaquePointer) -> Bool {
        currentCount = 0
        for index in keys.indices { current[index] = read(sqlite3_column_value(statement, keys[index].column)) }
        if hasPrevious, !currentFollowsPrevious() { return false }
        swap(&previous, &current)
        swap(&previousBytes, &currentBytes)
        hasPrevious = true
        return true
    }

    private mutating func read(_ value: OpaquePointer?) -> Value {
        var read = Value(type: sqlite3_value_type(value))
        switch read.type {
        case SQLITE_INTEGER: read.integer = sqlite3_value_int64(value)
        case SQLITE_FLOAT: read.real = sqlite3_value_double(value)
        case SQLITE_TEXT, SQLITE_BLOB:
            // `sqlite3_value_text`/`_blob` before `_bytes`, as SQLite asks: the first may convert the value.
            let start = read.type == SQLITE_TEXT
                ? UnsafeRawPointer(sqlite3_value_text(value)) : sqlite3_value_blob(value)
            let bytes = UnsafeRawBufferPointer(start: start, count: Int(sqlite3_value_bytes(value)))
            (read.start, read.count) = (currentCount, bytes.count)
            keep(bytes)
        default: break
        }
        return read
    }

    /// Copies `bytes` after the current row's others, growing the buffer
    /// when they do not fit (`append(contentsOf:)` cost ~180 instructions a key, this ~40).
    private mutating func keep(_ bytes: UnsafeRawBufferPointer) {
        let end = currentCount + bytes.count
        if end > currentBytes.count {
            currentBytes += repeatElement(0, count: max(end, 2 * currentBytes.count) - currentBytes.count)
        }
        if let source = bytes.baseAddress {
            currentBytes.withUnsafeMutableBytes { buffer in
                (buffer.baseAddress! + currentCount).copyMemory(from: source, byteCount: bytes.count)
            }
        }
        currentCount = end
    }

    private enum Outcome { case ordered, equal, disordered }

    /// Whether the current row follows the previous one in `compare:` order,
    /// given that SQL put it at or after it: the first key that differs decides.
    private func currentFollowsPrevious() -> Bool {
        previousBytes.withUnsafeBytes { before in
            currentBytes.withUnsafeBytes { after in
                for index in keys.indices {
                    let a = previous[index], b = current[index]
                    // Each value's bytes lie within its row's buffer (`keep`).
                    let aBytes = UnsafeRawBufferPointer(start: before.baseAddress.map { $0 + a.start }, count: a.count)
                    let bBytes = UnsafeRawBufferPointer(start: after.baseAddress.map { $0 + b.start }, count: b.count)
                    switch Self.compare(a, aBytes, b, bBytes, ascending: keys[index].ascending) {
                    case .ordered: return true
                    case .equal: continue
                    case .disordered: return false
                    }
                }
                return true  // equal keys: the primary key decided, in both orders
            }
        }
    }

    /// How `b` follows `a` (bytes of text and blobs given beside them).
    private static func compare(_ a: Value, _ aBytes: UnsafeRawBufferPointer, _ b: Value,
                                _ bBytes: UnsafeRawBufferPointer, ascending: Bool) -> Outcome {
        switch (a.type, b.type) {
        case (SQLITE_TEXT, SQLITE_TEXT):
            let order = SQLiteCompareCollation.compare(aBytes, bBytes)
            if order == 0 { return aBytes.elementsEqual(bBytes) ? .equal : .disordered }
            return (ascending ? order : -order) < 0 ? .ordered : .disordered
        // No collation takes part: SQLite's own order, which SQL followed, decides unless the values are equal.
        case (SQLITE_NULL, SQLITE_NULL): return .equal
        case (SQLITE_INTEGER, SQLITE_INTEGER): return a.integer == b.integer ? .equal : .ordered
        case (SQLITE_FLOAT, SQLITE_FLOAT): return a.real == b.real ? .equal : .ordered
        case (SQLITE_INTEGER, SQLITE_FLOAT): return equal(a.integer, b.real) ? .equal : .ordered
        case (SQLITE_FLOAT, SQLITE_INTEGER): return equal(b.integer, a.real) ? .equal : .ordered
        case (SQLITE_BLOB, SQLITE_BLOB): return aBytes.elementsEqual(bBytes) ? .equal : .ordered
        default: return .ordered  // different storage classes never compare equal
        }
    }

    /// Whether SQLite compares an integer and a real as equal.
    private static func equal(_ integer: Int64, _ real: Double) -> Bool {
        guard let exact = Int64(exactly: real) else { return false }
        return exact == integer
    }
}
