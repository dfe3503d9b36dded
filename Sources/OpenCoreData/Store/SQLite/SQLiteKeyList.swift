import GRDB
import GRDBSQLite

/// Primary keys for an `… IN (?, ?, …)` list, in chunks of at most
/// ``maximumCount`` keys, each chunk's parameters padded to a power of two
/// by repeating its last key (an `IN` list is a set: the padding matches no
/// other row).
///
/// Padding gives a query shape at most ten SQL texts, so its statements stay
/// in the connection's cache instead of being prepared per chunk (about 660k
/// instructions for 500 placeholders), and the keys are bound with
/// `sqlite3_bind_int64` rather than through `StatementArguments` (about 1,300
/// instructions a key).
struct SQLiteKeyList {
    /// The most keys in one list: well below SQLite's bound-parameter limit.
    static let maximumCount = 512

    /// The keys of this chunk, in the order given.
    let keys: ArraySlice<Int64>

    /// The number of `?` parameters the list takes: the keys' count rounded up to a power of two.
    var parameterCount: Int { Self.parameterCount(for: keys.count) }

    /// `?, ?, …` with ``parameterCount`` parameters, for the inside of `IN (…)`.
    var placeholders: String { Self.placeholderLists[parameterCount.trailingZeroBitCount] }

    /// The keys as one range, when they are two or more distinct keys that
    /// leave none out between the lowest and the highest (in any order): a
    /// batch of records made together, or fetched in key order. O(n).
    ///
    /// SQLite reads the rows of an `IN` list through a temporary index it
    /// builds of the list's values, then finds each row by key; a range it
    /// walks in the table's own order: ~1,900 instructions a row less for
    /// fault batches of 100 consecutive keys (the benchmark's batched walk,
    /// 15,092 a photo by list, 13,195 by range). Only for keys known
    /// distinct: repeated keys would pass for a run.
    var distinctKeysAsRun: SQLiteKeyRuns.KeyRange? {
        guard keys.count >= 2, var lowest = keys.first else { return nil }
        var highest = lowest
        for key in keys {
            lowest = Swift.min(lowest, key)
            highest = Swift.max(highest, key)
        }
        let (span, overflow) = highest.subtractingReportingOverflow(lowest)
        guard !overflow, span == Int64(keys.count - 1) else { return nil }
        return SQLiteKeyRuns.KeyRange(lowerBound: lowest, upperBound: highest)
    }

    /// `keys` in chunks of at most ``maximumCount``; none for no keys.
    static func chunks(of keys: [Int64]) -> [SQLiteKeyList] {
        stride(from: 0, to: keys.count, by: maximumCount).map {
            SQLiteKeyList(keys: keys[$0..<min($0 + maximumCount, keys.count)])
        }
    }

    /// The parameters a list of `count` keys (1 through ``maximumCount``) takes.
    static func parameterCount(for count: Int) -> Int {
        count <= 1 ? 1 : 1 << (Int.bitWidth - (count - 1).leadingZeroBitCount)
    }

    /// `?, ?, …` for 1, 2, 4, … ``maximumCount`` parameters, by exponent: each list twice the one before
    /// (`String(repeating:count:)` appended each `?, ` alone, ~230,000 instructions for the ten lists).
    private static let placeholderLists: [String] = {
        var lists = ["?"]
        while lists.count <= maximumCount.trailingZeroBitCount { lists.append(lists.last! + ", " + lists.last!) }
        return lists
    }()

    /// The cached statement for `sql`, whose parameters are this list's
    /// (``placeholders``) followed by `trailing`, with all of them bound.
    ///
    /// The statement is marked as holding its arguments, so GRDB only resets
    /// it before running it (`execute()` or a cursor without arguments) and
    /// the bindings made here stay.
    func statement(_ sql: String, in db: Database, trailing: [Int64] = []) throws -> Statement {
        let statement = try db.cachedStatement(sql: sql)
        try Self.bind(keys, paddedTo: parameterCount, then: trailing, to: statement)
        return statement
    }

    /// The cached statement for `sql`, its parameters this list's keys, for
    /// a statement that only `forEachRow` steps: bound without marking it
    /// for GRDB (see ``bind(_:paddedTo:then:to:markingArguments:)``).
    func steppedStatement(_ sql: String, in db: Database) throws -> Statement {
        let statement = try db.cachedStatement(sql: sql)
        try Self.bind(keys, paddedTo: parameterCount, then: [], to: statement, markingArguments: false)
        return statement
    }

    /// Binds `keys`, the last of them repeated up to `count` parameters,
    /// then `trailing`, to the parameters of `statement` in order with
    /// `sqlite3_bind_int64`, and marks the statement as holding its arguments
    /// (see ``statement(_:in:trailing:)``) unless `markingArguments` is false.
    ///
    /// Marking is what GRDB's own runs of the statement need, and costs a
    /// reset, a check of the dispatch queue and a clearing of every binding
    /// (~850 instructions: 3% of a fault fired alone). A statement that only
    /// `forEachRow` steps needs none of it, as that run resets it after
    /// itself: the statement is new or reset whenever it is bound again.
    static func bind(_ keys: ArraySlice<Int64>, paddedTo count: Int, then trailing: [Int64],
                     to statement: Statement, markingArguments: Bool = true) throws {
        if markingArguments { statement.setUncheckedArguments(StatementArguments()) }
        let sqliteStatement = statement.sqliteStatement
        var index: CInt = 0
        func bind(_ value: Int64) throws {
            index += 1
            try statement.checkBinding(sqlite3_bind_int64(sqliteStatement, index, value))
        }
        for key in keys { try bind(key) }
        if let last = keys.last {
            for _ in keys.count..<max(count, keys.count) { try bind(last) }
        }
        for value in trailing { try bind(value) }
    }
}

extension SQLiteKeyRuns.KeyRange {
    /// Binds the range's bounds, then `trailing`, to the parameters of `statement` in order
    /// (`SQLiteKeyList.bind(_:paddedTo:then:to:markingArguments:)`).
    func bind(to statement: Statement, then trailing: [Int64] = [], markingArguments: Bool = true) throws {
        try SQLiteKeyList.bind([lowerBound, upperBound], paddedTo: 2, then: trailing, to: statement,
                               markingArguments: markingArguments)
    }
}
