import GRDB
import GRDBSQLite

/// `NSCOMPARE`, the collation of `compare:`, registered through SQLite's C
/// API: SQLite calls it once per comparison of a sort, so it orders two UTF-8
/// strings where they lie when their bytes decide the order, and makes Swift
/// strings for ``ValueComparison/compareStrings(_:_:)`` only when they don't.
enum SQLiteCompareCollation {
    static let name = "NSCOMPARE"

    static func register(in db: Database) {
        sqlite3_create_collation_v2(db.sqliteConnection, name, SQLITE_UTF8, nil, { _, length1, bytes1, length2, bytes2 in
            SQLiteCompareCollation.compare(UnsafeRawBufferPointer(start: bytes1, count: Int(length1)),
                                           UnsafeRawBufferPointer(start: bytes2, count: Int(length2)))
        }, nil)
    }

    /// The order of two UTF-8 strings as `compareStrings` gives it: -1, 0 or 1.
    ///
    /// Where the strings first differ, and from there to their ends, both
    /// are ASCII: then the bytes decide. The equal bytes before are whole
    /// characters of both strings (an ASCII byte starts a character), and an
    /// ASCII character never combines with what precedes it, so no
    /// normalisation `compare(_:)` applies can change the order. Otherwise
    /// (a non-ASCII byte at or after the first difference) the strings are
    /// compared as strings. The common prefix and the ASCII checks go eight
    /// bytes at a time: SQLite calls this some 12 times per row of a sorted
    /// fetch, and byte loops made it ~175 instructions a call.
    static func compare(_ x: UnsafeRawBufferPointer, _ y: UnsafeRawBufferPointer) -> Int32 {
        let index = commonPrefixLength(x, y)
        if ASCIIStringMatching.isASCII(x, from: index) && ASCIIStringMatching.isASCII(y, from: index) {
            let common = Swift.min(x.count, y.count)
            if index < common { return x[index] < y[index] ? -1 : 1 }
            return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
        }
        let result = ValueComparison.compareStrings(String(decoding: x, as: UTF8.self),
                                                    String(decoding: y, as: UTF8.self))
        return Int32(result.rawValue)
    }

    /// How many leading bytes the two buffers share.
    @inline(__always)
    static func commonPrefixLength(_ x: UnsafeRawBufferPointer, _ y: UnsafeRawBufferPointer) -> Int {
        let common = Swift.min(x.count, y.count)
        var index = 0
        while index + 8 <= common {
            let a = UInt64(littleEndian: x.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let b = UInt64(littleEndian: y.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            // In little-endian order the lowest set bit of the difference is in the first byte that differs.
            if a != b { return index + (a ^ b).trailingZeroBitCount / 8 }
            index += 8
        }
        while index < common, x[index] == y[index] { index += 1 }
        return index
    }
}
