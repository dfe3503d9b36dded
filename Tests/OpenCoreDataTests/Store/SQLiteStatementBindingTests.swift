import Foundation
import GRDB
import Testing
@testable import OpenCoreDataCore

/// `Statement.bind(_:)`: the store's fetches and counts bind their
/// arguments with it instead of GRDB's `StatementArguments(_:)`, then run
/// the statement through GRDB's cursors without arguments.
@Suite struct SQLiteStatementBindingTests {
    @Test func valuesAreBoundInOrderAndKeptByGRDBsCursors() throws {
        let values: [DatabaseValue] = [7.databaseValue, 2.5.databaseValue, "text".databaseValue,
                                       Data([1, 2, 3]).databaseValue, .null]
        let rows = try DatabaseQueue().read { db in
            let statement = try db.makeStatement(sql: "SELECT ?, ?, ?, ?, ?")
            try statement.bind(values)
            let first = try Row.fetchAll(statement)
            // Bound again: the new values replace the old ones.
            try statement.bind(["other".databaseValue, 1.databaseValue, .null, .null, 3.databaseValue])
            return first + (try Row.fetchAll(statement))
        }
        #expect(rows.count == 2)
        #expect(Array(rows[0].databaseValues) == values)
        #expect(Array(rows[1].databaseValues) == ["other".databaseValue, 1.databaseValue, .null, .null,
                                                  3.databaseValue])
    }

    @Test func aCountAndAFetchOneKeepTheirArguments() throws {
        let count = try DatabaseQueue().write { db in
            try db.execute(sql: "CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1), (2), (3)")
            let statement = try db.makeStatement(sql: "SELECT COUNT(*) FROM t WHERE a >= ?")
            try statement.bind([2.databaseValue])
            return try Int.fetchOne(statement)
        }
        #expect(count == 2)
    }

    @Test func theWrongNumberOfValuesThrows() throws {
        try DatabaseQueue().read { db in
            let statement = try db.makeStatement(sql: "SELECT ?, ?")
            let error = #expect(throws: DatabaseError.self) { try statement.bind([1.databaseValue]) }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(error?.message?.contains("1 for 2") == true)
        }
    }
}
