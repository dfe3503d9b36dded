import Testing
@testable import OpenCoreDataCore

/// `SQLiteRecordQueries` keeps each table's record query by key-list size
/// and answers from the entry it used last when the table repeats: in runs
/// of one table and in random alternation, every query is the one of the
/// table and key count asked for.
@Suite struct SQLiteRecordQueriesTests {
    @Test func eachQueryIsItsTablesAndKeyCounts() {
        let queries = SQLiteRecordQueries()
        let tables = ["ZPHOTO", "ZALBUM", "ZPHOTOS", "Z_2TAGS", "ZPHOTO "]
        var random = SeededGenerator(seed: 41)
        for round in 0..<2_000 {
            // Runs of one table now and then, as faults of one entity fire one by one.
            let table = round % 7 < 3 ? "ZPHOTO" : tables.randomElement(using: &random)!
            let count = Int.random(in: 1...SQLiteKeyList.maximumCount, using: &random)
            let keys = SQLiteKeyList.chunks(of: (0..<Int64(count)).map { $0 })[0]
            let sql = queries.sql(table: table, keys: keys)
            #expect(sql == "SELECT * FROM \(table) WHERE Z_PK IN (\(keys.placeholders))", "round \(round)")
        }
    }
}
