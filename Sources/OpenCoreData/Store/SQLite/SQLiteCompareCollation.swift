import GRDB
import GRDBSQLite

/// `NSCOMPARE`, the collation of `compare:`, registered through SQLite's C
/// API: SQLite calls it once per comparison of a sort, so for two ASCII
/// strings it compares the bytes where they lie (the order
/// ``ValueComparison/compareStrings(_:_:)`` gives them) instead of making two
/// Swift strings; other strings go through that function.
enum SQLiteCompareCollation {
    static let name = "NSCOMPARE"

    static func register(in db: Database) {
        sqlite3_create_collation_v2(db.sqliteConnection, name, SQLITE_UTF8, nil, { _, length1, bytes1, length2, bytes2 in
            let x = UnsafeRawBufferPointer(start: bytes1, count: Int(length1))
            let y = UnsafeRawBufferPointer(start: bytes2, count: Int(length2))
            if x.allSatisfy({ $0 < 0x80 }) && y.allSatisfy({ $0 < 0x80 }) {
                let common = Swift.min(x.count, y.count)
                let order = common == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, common)
                if order != 0 { return order < 0 ? -1 : 1 }
                return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
            }
            let result = ValueComparison.compareStrings(String(decoding: x, as: UTF8.self), String(decoding: y, as: UTF8.self))
            return Int32(result.rawValue)
        }, nil)
    }
}
