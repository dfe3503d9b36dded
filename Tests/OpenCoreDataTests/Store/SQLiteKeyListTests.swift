import Foundation
import GRDB
import GRDBSQLite
import Testing
@testable import OpenCoreDataCore

/// `SQLiteKeyList`'s invariants: chunks of at most 512 keys that together
/// are the keys given, in order; a power-of-two parameter count at least the
/// keys' count and below twice it; statements that select exactly the rows
/// of the keys bound, however often a cached statement is reused.
@Suite struct SQLiteKeyListTests {
    @Test func parameterCountsArePowersOfTwoCoveringTheKeys() {
        for count in 1...SQLiteKeyList.maximumCount {
            let parameters = SQLiteKeyList.parameterCount(for: count)
            #expect(parameters.nonzeroBitCount == 1, "\(count) keys: \(parameters)")
            #expect(parameters >= count && (parameters < 2 * count || count == 1), "\(count) keys: \(parameters)")
        }
    }

    @Test(arguments: [0, 1, 2, 3, 511, 512, 513, 1_024, 1_300])
    func chunksAreTheKeysInOrder(count: Int) {
        let keys = (0..<Int64(count)).map { $0 * 7 - 50 }
        let chunks = SQLiteKeyList.chunks(of: keys)
        #expect(chunks.flatMap(\.keys) == keys)
        #expect(chunks.count == (count + 511) / 512)
        for chunk in chunks {
            #expect(!chunk.keys.isEmpty && chunk.keys.count <= SQLiteKeyList.maximumCount)
            #expect(chunk.placeholders == Array(repeating: "?", count: chunk.parameterCount).joined(separator: ", "))
        }
    }

    /// Random key sets (with keys absent from the table and repeated keys)
    /// through one query shape on one connection, so that cached statements
    /// are reused with other keys, some with a trailing parameter.
    @Test func statementsSelectTheRowsOfTheirKeys() throws {
        let db = try DatabaseQueue()
        try db.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, parity INTEGER)")
            for id in 1...2_000 { try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [id, id % 2]) }
        }
        var random = SeededGenerator(seed: 19)
        try db.read { db in
            for round in 0..<60 {
                let count = Int.random(in: 1...1_200, using: &random)
                let keys = (0..<count).map { _ in Int64.random(in: -5...2_100, using: &random) }
                let parity: Int64? = round.isMultiple(of: 3) ? Int64(round % 2) : nil
                var found: [Int64] = []
                for chunk in SQLiteKeyList.chunks(of: keys) {
                    let condition = parity == nil ? "" : " AND parity = ?"
                    let statement = try chunk.statement(
                        "SELECT id FROM t WHERE id IN (\(chunk.placeholders))\(condition) ORDER BY id", in: db,
                        trailing: parity.map { [$0] } ?? [])
                    found += try Int64.fetchAll(statement)
                }
                let expected = Set(keys.filter { (1...2_000).contains($0) && (parity == nil || $0 % 2 == parity) })
                #expect(Set(found) == expected, "round \(round)")
                #expect(found.count == Set(found).count || keys.count > SQLiteKeyList.maximumCount, "round \(round)")
            }
        }
    }

    /// Two lists whose counts round to the same parameter count share one
    /// prepared statement; the second's keys replace the first's.
    @Test func listsOfOneParameterCountShareTheirStatement() throws {
        let db = try DatabaseQueue()
        try db.read { db in
            let sql = { (list: SQLiteKeyList) in "SELECT value FROM json_each('[1,2,3,4,5,6,7]') "
                + "WHERE value IN (\(list.placeholders)) ORDER BY value" }
            let first = SQLiteKeyList(keys: [1, 2, 3, 4, 5][...]), second = SQLiteKeyList(keys: [6, 7, 8][...])
            #expect(first.parameterCount == 8 && second.parameterCount == 4)
            let third = SQLiteKeyList(keys: [2, 7, 9, 4, 1, 1][...])
            let statement = try first.statement(sql(first), in: db)
            #expect(try Int64.fetchAll(statement) == [1, 2, 3, 4, 5])
            #expect(try Int64.fetchAll(second.statement(sql(second), in: db)) == [6, 7])
            let reused = try third.statement(sql(third), in: db)
            #expect(reused === statement)
            #expect(try Int64.fetchAll(reused) == [1, 2, 4, 7])
        }
    }

    /// A statement bound without marking its arguments for GRDB and stepped
    /// with `forEachRow` can be bound again after each run, also after one
    /// whose body threw half-way: the run resets it.
    @Test func steppedStatementsRebindAfterEveryRun() throws {
        struct Stop: Error {}
        let db = try DatabaseQueue()
        try db.read { db in
            let sql = { (list: SQLiteKeyList) in "SELECT value FROM json_each('[1,2,3,4,5,6,7]') "
                + "WHERE value IN (\(list.placeholders)) ORDER BY value" }
            let rows = { (statement: Statement) in
                var values: [Int64] = []
                try statement.forEachRow { values.append(sqlite3_column_int64(statement.sqliteStatement, 0)) }
                return values
            }
            let first = SQLiteKeyList(keys: [7, 2, 5][...]), second = SQLiteKeyList(keys: [1, 3, 4, 6][...])
            let statement = try first.steppedStatement(sql(first), in: db)
            #expect(try rows(statement) == [2, 5, 7])
            #expect(try second.steppedStatement(sql(second), in: db) === statement)
            #expect(throws: Stop.self) { try statement.forEachRow { throw Stop() } }
            #expect(try rows(try second.steppedStatement(sql(second), in: db)) == [1, 3, 4, 6])
            #expect(try rows(try first.steppedStatement(sql(first), in: db)) == [2, 5, 7])
        }
    }

    /// A record read runs without a transaction only when it is one query:
    /// records of one table (Place ⊃ Venue share one) and one key list.
    @Test func oneQueryMeansOneTableAndOneKeyList() throws {
        let place = NSEntityDescription(name: "Place"), venue = NSEntityDescription(name: "Venue")
        let act = NSEntityDescription(name: "Act")
        place.subentities = [venue]
        place.properties = [TestStack.attribute("name", .stringAttributeType)]
        act.properties = [TestStack.attribute("title", .stringAttributeType)]
        let model = NSManagedObjectModel()
        model.entities = [place, venue, act]
        let context = try TestStack.context(model, .sqlite)
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first as? SQLiteStore)
        let ids = { (entity: NSEntityDescription, keys: ClosedRange<Int64>) in
            keys.map { store.objectID(for: entity, primaryKey: $0) }
        }
        let mapping = try #require(store.mapping)
        let oneQuery = { (ids: [NSManagedObjectID]) in SQLiteRecordReader.readsInOneQuery(ids, mapping: mapping) }
        #expect(oneQuery([]))
        #expect(oneQuery(ids(place, 1...512)))
        #expect(oneQuery(ids(place, 1...3) + ids(venue, 4...5)))
        #expect(!oneQuery(ids(place, 1...513)))
        #expect(!oneQuery(ids(place, 1...1) + ids(act, 1...1)))
        #expect(!oneQuery(ids(act, 1...1) + ids(venue, 2...2)))
    }
}

/// `distinctKeysAsRun`: every set of distinct keys drawn from 0…7, each in
/// three orders, is a run exactly when it has two keys or more and leaves
/// none out between its lowest and highest; keys at the ends of `Int64`
/// neither overflow nor pass for a run.
@Suite struct SQLiteKeyListRunTests {
    @Test func everySmallKeySetIsARunExactlyWhenItLeavesNoKeyOut() {
        var random = SeededGenerator(seed: 5)
        for subset in 0..<256 {
            let keys = (0..<Int64(8)).filter { subset & (1 << $0) != 0 }
            let isRun = keys.count >= 2 && keys.last! - keys.first! == Int64(keys.count - 1)
            for order in [keys, keys.reversed(), keys.shuffled(using: &random)] {
                let run = SQLiteKeyList(keys: order[...]).distinctKeysAsRun
                #expect((run != nil) == isRun, "\(order)")
                if let run { #expect(run.lowerBound == keys.first && run.upperBound == keys.last, "\(order)") }
            }
        }
    }

    @Test func keysAtTheEndsOfInt64() {
        #expect(SQLiteKeyList(keys: [Int64.min, Int64.max][...]).distinctKeysAsRun == nil)
        #expect(SQLiteKeyList(keys: [Int64.max, Int64.min, 0][...]).distinctKeysAsRun == nil)
        let top = SQLiteKeyList(keys: [Int64.max, Int64.max - 1][...]).distinctKeysAsRun
        #expect(top?.lowerBound == Int64.max - 1 && top?.upperBound == Int64.max)
        let bottom = SQLiteKeyList(keys: [Int64.min + 1, Int64.min][...]).distinctKeysAsRun
        #expect(bottom?.lowerBound == Int64.min && bottom?.upperBound == Int64.min + 1)
    }
}
