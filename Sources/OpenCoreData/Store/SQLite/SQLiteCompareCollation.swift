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
    /// compared as strings. One pass over the common prefix; the previous
    /// version scanned both strings whole for non-ASCII bytes first.
    static func compare(_ x: UnsafeRawBufferPointer, _ y: UnsafeRawBufferPointer) -> Int32 {
        let common = Swift.min(x.count, y.count)
        var index = 0
        if common > 0 {
            let a = x.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let b = y.baseAddress!.assumingMemoryBound(to: UInt8.self)
            while index < common, a[index] == b[index] { index += 1 }
        }
        if isASCII(x, from: index) && isASCII(y, from: index) {
            if index < common { return x[index] < y[index] ? -1 : 1 }
            return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
        }
        let result = ValueComparison.compareStrings(String(decoding: x, as: UTF8.self),
                                                    String(decoding: y, as: UTF8.self))
        return Int32(result.rawValue)
    }

    private static func isASCII(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Bool {
        guard start < bytes.count else { return true }
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        for index in start..<bytes.count where base[index] >= 0x80 { return false }
        return true
    }
}
