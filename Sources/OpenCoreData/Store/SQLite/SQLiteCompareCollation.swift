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
        if isASCII(x, from: index) && isASCII(y, from: index) {
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

    /// Whether every byte from `start` on is below 0x80. A tail shorter than
    /// a word is read as the buffer's last word with the bytes before
    /// `start` masked off, so a string of eight bytes or more never takes
    /// the byte loop.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Bool {
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let count = bytes.count
        var index = start
        guard count >= 8 else {
            while index < count {
                if bytes[index] >= 0x80 { return false }
                index += 1
            }
            return true
        }
        while index + 8 <= count {
            if bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & highBits != 0 { return false }
            index += 8
        }
        guard index < count else { return true }
        let last = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
        let before = index - (count - 8)  // bytes of the last word that precede `index`: 1 to 7
        return last & (highBits << UInt64(before * 8)) == 0
    }
}
