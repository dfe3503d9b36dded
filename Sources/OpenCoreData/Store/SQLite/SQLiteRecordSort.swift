import GRDB
import GRDBSQLite

/// The order of a fetch's records by sort descriptors on the fetched
/// entity's own attributes, worked out in memory from the records read in
/// table order: what `ORDER BY <columns>, t0.Z_PK` gives, without SQLite's
/// sorter. A string sort there runs the `NSCOMPARE` collation through
/// SQLite's general record comparison, ~5,000 instructions per row of a
/// 10k-row fetch; here the same order costs ~1,400 with the per-row check.
///
/// It applies only where the values read order as their columns do:
/// ``columnsOrderAsRead(_:record:)`` checks each row's values, and a fetch
/// whose file holds a value of another class (an integer in a text column,
/// a string cut at a NUL byte or repaired from invalid UTF-8) is sorted by
/// SQL instead.
///
/// Only in a small file (``isSmall(_:)``: see there why).
///
/// A class: the fetch's read loop asks it about every row, and a struct was
/// copied there (its arrays retained and released) each time.
final class SQLiteRecordSort {
    private struct Key {
        let attribute: NSAttributeDescription
        let slot: Int
        let kind: SQLiteSortColumn.Kind
        let ascending: Bool
        /// The column's position in the statement; set by `locateColumns(in:)`.
        var position: CInt = -1
    }

    // Read for every row of the fetch, written only by `locateColumns(in:)` before the first: release builds
    // skip the exclusivity check (~76 instructions a read).
    #if DEBUG
    private var keys: [Key]
    #else
    @exclusivity(unchecked) private var keys: [Key]
    #endif
    /// The layout the slots are of; records of sub-entities have layouts of their own.
    private let layout: PropertySlotLayout

    /// The sort for `descriptors` on `entity`'s records; nil when one is not
    /// `compare:` (the default selector) on a stored attribute of `entity`
    /// itself of a kind above, or when there is nothing to sort.
    init?(_ descriptors: [NSSortDescriptor], entity: SQLiteMapping.Entity) {
        guard !descriptors.isEmpty else { return nil }
        layout = entity.description.slotLayout
        var keys: [Key] = []
        for descriptor in descriptors {
            guard descriptor.comparator == nil, (descriptor.selector?.name ?? "compare:") == "compare:",
                  let name = descriptor.key, !name.contains("."),
                  let stored = entity.attributes.first(where: { $0.attribute.name == name }),
                  let kind = Self.kind(of: stored.attribute.attributeType) else { return nil }
            keys.append(Key(attribute: stored.attribute, slot: layout.slot(of: stored.attribute), kind: kind,
                            ascending: descriptor.ascending))
        }
        self.keys = keys
    }

    private static func kind(of type: NSAttributeType) -> SQLiteSortColumn.Kind? {
        switch type {
        case .stringAttributeType: .string
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType: .integer
        case .doubleAttributeType, .floatAttributeType, .dateAttributeType: .real
        default: nil
        }
    }

    /// Takes the sort columns' positions from `reads`, the statement's reads
    /// of the fetched entity; false when a sort attribute has no column there.
    func locateColumns(in reads: SQLiteRowLayout.Reads) -> Bool {
        for index in keys.indices {
            guard case .attribute(let position, _, _) = reads.sources[keys[index].slot] else { return false }
            keys[index].position = CInt(position)
        }
        return true
    }

    /// Whether `record`, read from the current row, holds each sort column's
    /// value as SQL orders it: none for NULL, the same integer, the same
    /// floating-point value, a string of the column's length (GRDB reads
    /// text up to a NUL byte and repairs invalid UTF-8; SQL's order sees the bytes).
    func columnsOrderAsRead(_ statement: SQLiteStatement, record: StoreSnapshot) -> Bool {
        guard let slots = record.values.buffer?.slots else { return false }
        // By index and through the slots' memory: iterating the keys or copying a value retains and releases.
        for index in keys.indices {
            let key = keys[index], position = key.position
            let slot = record.layout === layout ? key.slot : record.layout.slot(of: key.attribute)
            // The column looked up once, as `SQLiteColumnReader` reads it (an unprotected value, read on
            // the statement's own thread).
            let value = sqlite3_column_value(statement, position)
            switch (key.kind, sqlite3_value_type(value)) {
            case (_, SQLITE_NULL):
                guard case .none = slots[slot] else { return false }
            case (.integer, SQLITE_INTEGER):
                guard SQLiteSortColumn.integer(slots[slot]) == sqlite3_value_int64(value) else { return false }
            case (.real, SQLITE_INTEGER), (.real, SQLITE_FLOAT):
                guard SQLiteSortColumn.real(slots[slot]) == sqlite3_value_double(value) else { return false }
            case (.string, SQLITE_TEXT):
                guard case .string(let string) = slots[slot],
                      string.utf8.count == Int(sqlite3_value_bytes(value)) else { return false }
            default:
                return false
            }
        }
        return true
    }

    /// `records` in the descriptors' order, ties by primary key (as the
    /// SQL's last term, `t0.Z_PK`). The sort keys are copied out of the
    /// records into plain memory first (strings as UTF-8 in one buffer); row
    /// numbers are radix-sorted by their first key's word
    /// (``SQLiteSortColumn/word(_:)``), and only runs of equal words are
    /// compared value by value. Comparing and moving records cost retains and
    /// releases at every step (~18,000 instructions a row of 10k); a merge
    /// sort of row numbers comparing words first ~1,100; this ~500.
    func sort(_ records: inout [StoreSnapshot]) {
        let count = records.count
        let columns = keys.map { key in
            SQLiteSortColumn(key.kind, ascending: key.ascending, count: count) { row in
                records[row].values[slot(of: key, in: records[row])]
            }
        }
        let primaryKeys = UnsafeMutablePointer<Int64>.allocate(capacity: count)
        defer {
            primaryKeys.deallocate()
            for column in columns { column.deallocate() }
        }
        for (row, record) in records.enumerated() { primaryKeys[row] = record.identity.primaryKey ?? 0 }
        // A descending first key sorts by the words' complements: NULL (0) comes last, as SQL puts it.
        let first = columns[0]
        var entries = (0..<count).map { SortEntry(word: first.ascending ? first.word($0) : ~first.word($0), row: $0) }
        Self.radixSort(&entries)
        // Runs of equal words, value by value; in place (sorting an array slice copied it out and back).
        columns.withUnsafeBufferPointer { columns in
            entries.withUnsafeMutableBufferPointer { entries in
                var start = 0
                while start < count {
                    var end = start + 1
                    while end < count && entries[end].word == entries[start].word { end += 1 }
                    var run = UnsafeMutableBufferPointer(rebasing: entries[start..<end])
                    if run.count > 1 {
                        run.sort { a, b in
                            for column in columns {
                                let result = column.compare(a.row, b.row)
                                if result != 0 { return column.ascending ? result < 0 : result > 0 }
                            }
                            return primaryKeys[a.row] < primaryKeys[b.row]
                        }
                    }
                    start = end
                }
            }
        }
        var order = entries.map(\.row)
        // Position i takes the record at order[i]: each cycle of the permutation
        // by swaps, which move records without retaining them.
        for start in order.indices {
            var current = start
            while order[current] != start {
                let next = order[current]
                records.swapAt(current, next)
                order[current] = current
                current = next
            }
            order[current] = current
        }
    }

    /// Whether the file is small enough for its fetches to sort in memory:
    /// at most `largestFile` bytes (its page count, WAL included, by its page
    /// size), so that no fetch from it makes more records than the
    /// processor's caches hold. The records are made in table order, their
    /// IDs and slot buffers laid out in memory that way, and everything after
    /// the sort (objects made, rows cached, values read, all freed) visits
    /// them in sorted order: in cache that costs nothing, past it a miss per
    /// record and pass, while SQL's sorter hands rows over in order. Measured
    /// on fetch-graph (wall clock, a shared two-core machine, runs of each
    /// alternating): 10k photos (a 0.5 MB file) ~15% faster sorted here than
    /// by SQL, 20k (1 MB) ~5% faster, 40k (2 MB) ~5% slower, 100k (5 MB)
    /// ~25% slower; in instructions it is ~20% fewer at every size. A
    /// proxy, since a fetch's size is known only once read: no fetch from a
    /// file makes more records than the file holds rows.
    static func isSmall(_ db: Database) throws -> Bool {
        let pages = try Int.fetchOne(db.cachedStatement(sql: "PRAGMA page_count")) ?? .max
        let pageSize = try Int.fetchOne(db.cachedStatement(sql: "PRAGMA page_size")) ?? .max
        return pages <= largestFile / max(pageSize, 1)
    }

    static let largestFile = 1 << 20

    /// A row number with its first sort key's word.
    private struct SortEntry {
        let word: UInt64
        let row: Int
    }

    /// `entries` in ascending order of their words, stable: least significant
    /// byte first, a counting pass per byte, skipping a byte all words share.
    private static func radixSort(_ entries: inout [SortEntry]) {
        let count = entries.count
        guard count > 1 else { return }
        var scratch = entries
        var counts = [Int](repeating: 0, count: 256)
        entries.withUnsafeMutableBufferPointer { entries in
            scratch.withUnsafeMutableBufferPointer { scratch in
                counts.withUnsafeMutableBufferPointer { counts in
                    var source = entries, target = scratch
                    for shift in stride(from: UInt64(0), to: 64, by: 8) {
                        counts.update(repeating: 0)
                        for entry in source { counts[Int(truncatingIfNeeded: entry.word >> shift) & 0xFF] += 1 }
                        if counts[Int(truncatingIfNeeded: source[0].word >> shift) & 0xFF] == count { continue }
                        var offset = 0
                        for byte in 0..<256 { (counts[byte], offset) = (offset, offset + counts[byte]) }
                        for entry in source {
                            let byte = Int(truncatingIfNeeded: entry.word >> shift) & 0xFF
                            target[counts[byte]] = entry
                            counts[byte] += 1
                        }
                        swap(&source, &target)
                    }
                    if source.baseAddress != entries.baseAddress {
                        entries.baseAddress!.update(from: source.baseAddress!, count: count)
                    }
                }
            }
        }
    }

    @inline(__always)
    private func slot(of key: Key, in record: StoreSnapshot) -> Int {
        record.layout === layout ? key.slot : record.layout.slot(of: key.attribute)
    }
}
