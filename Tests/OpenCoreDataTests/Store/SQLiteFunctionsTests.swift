import Foundation
import GRDB
import Testing
@testable import OpenCoreDataCore

/// The SQL functions and collations the SQLite store registers
/// (`SQLiteFunctions`), called from SQL: arguments read as GRDB's
/// `DatabaseFunction` read them (text up to a NUL byte, blobs as UTF-8,
/// numbers not as strings), an invalid MATCHES pattern an SQL error, and
/// each collation ordering strings as its sort selector does in memory.
@Suite struct SQLiteFunctionsTests {
    private static func connection() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.prepareDatabase { SQLiteFunctions.register(in: $0) }
        return try DatabaseQueue(configuration: configuration)
    }

    private static func value(_ sql: String, in queue: DatabaseQueue) throws -> DatabaseValue {
        try queue.read { try DatabaseValue.fetchOne($0, sql: "SELECT \(sql)") } ?? .null
    }

    @Test func foldReadsTextAndUTF8Blobs() throws {
        let queue = try Self.connection()
        #expect(try Self.value("NSFOLD('ÉCOLE Ünï', 3)", in: queue) == "ecole uni".databaseValue)
        #expect(try Self.value("NSFOLD('ÉCOLE', 1)", in: queue) == "école".databaseValue)
        #expect(try Self.value("NSFOLD('ÉCOLE', 0)", in: queue) == "ÉCOLE".databaseValue)
        #expect(try Self.value("NSFOLD('ÉCOLE', 1.0)", in: queue) == "école".databaseValue)
        #expect(try Self.value("NSFOLD(CAST('ABC' AS BLOB), 1)", in: queue) == "abc".databaseValue)
        #expect(try Self.value("NSFOLD(x'', 1)", in: queue) == "".databaseValue)
        #expect(try Self.value("NSFOLD('', 1)", in: queue) == "".databaseValue)
        #expect(try Self.value("NSFOLD('Ann-B', 1)", in: queue) == "ann-b".databaseValue)
        #expect(try Self.value("NSFOLD('Ann-B', 2)", in: queue) == "Ann-B".databaseValue)
        #expect(try Self.value("NSFOLD('AB' || char(0) || 'CD', 1)", in: queue) == "ab".databaseValue)
        for notText in ["NULL", "12", "1.5", "x'FF'"] {
            #expect(try Self.value("NSFOLD(\(notText), 1)", in: queue) == .null, "\(notText)")
        }
    }

    @Test func stringOperatorsMatchAsPredicatesDo() throws {
        let queue = try Self.connection()
        typealias Operator = OpenCoreDataCore.NSComparisonPredicate.Operator
        func holds(_ type: Operator, _ text: String, _ pattern: String, _ options: Int = 0) throws -> Bool {
            let call = "NSSTRINGOP(\(type.rawValue), \(text), \(pattern), \(options))"
            return try Self.value(call, in: queue) == 1.databaseValue
        }
        #expect(try holds(.beginsWith, "'Anna'", "'an'", 1))
        #expect(try !holds(.beginsWith, "'Anna'", "'an'"))
        #expect(try holds(.endsWith, "'Zoë'", "'OE'", 3))
        #expect(try holds(.contains, "'bob'", "''"))
        #expect(try holds(.contains, "CAST('carl' AS BLOB)", "'ar'"))
        #expect(try holds(.like, "'anna'", "'a*a'"))
        #expect(try holds(.like, "'Anna'", "'a?N*'", 1))
        #expect(try !holds(.like, "'Anna'", "'a?N*'"))
        #expect(try holds(.like, "'a*b'", "'a\\*b'"))
        #expect(try !holds(.like, "'axb'", "'a\\*b'"))
        #expect(try holds(.matches, "'abc'", "'[a-c]+'"))
        #expect(try !holds(.matches, "'abcd'", "'a|abc'"))
        // A NULL, a number or a blob that is not UTF-8 matches nothing, nor does an unknown operator.
        #expect(try !holds(.contains, "NULL", "'a'"))
        #expect(try !holds(.beginsWith, "12", "'1'"))
        #expect(try !holds(.contains, "x'FF'", "''"))
        #expect(try Self.value("NSSTRINGOP(-1, 'a', 'a', 0)", in: queue) == 0.databaseValue)
        #expect(try Self.value("NSSTRINGOP(50, 'a', 'a', 0)", in: queue) == 0.databaseValue)
    }

    /// An invalid regular expression fails the statement with the
    /// predicate's message, and a fetch through the store throws.
    @Test func anInvalidPatternFailsTheStatement() throws {
        let queue = try Self.connection()
        do {
            let matches = OpenCoreDataCore.NSComparisonPredicate.Operator.matches.rawValue
            _ = try Self.value("NSSTRINGOP(\(matches), 'a', '(', 0)", in: queue)
            Issue.record("an invalid pattern matched")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .SQLITE_ERROR)
            #expect(error.message?.contains("invalid pattern") == true, "\(error)")
        }

        let context = try TestStack.context(TestStack.albumsModel(), .sqlite)
        try context.performAndWait {
            TestStack.insert("Album", into: context, ["name": "Trips"])
            try context.save()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Album")
            request.predicate = NSPredicate(format: "name MATCHES '('")
            #expect(throws: (any Error).self) { try context.fetch(request) }
        }
    }

    /// Each collation sorts as its selector compares, ties in insertion order.
    @Test func collationsOrderAsTheirSelectors() throws {
        let words = ["ann", "Ann", "anna", "ANN", "bob", "Bób", "bo", "zoë", "Zoe", "zoe", "émile", "Emile",
                     "e\u{301}mile", "carl", "", "b", "éa", "file10", "file9", "File2", "straße", "STRASSE",
                     "日本", "😀"]
        var random = SeededGenerator(seed: 23)
        let rows = (0..<300).map { _ in words.randomElement(using: &random)! }
        let queue = try Self.connection()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (word TEXT)")
            for word in rows { try db.execute(sql: "INSERT INTO t (word) VALUES (?)", arguments: [word]) }
        }
        for (selector, collation) in SQLiteFunctions.collations {
            let sorted = try queue.read { db in
                try String.fetchAll(db, sql: "SELECT word FROM t ORDER BY word COLLATE \(collation.name), rowid")
            }
            let expected = rows.enumerated().sorted { a, b in
                let order = collation.order(a.element, b.element)
                return order == .orderedSame ? a.offset < b.offset : order == .orderedAscending
            }.map(\.element)
            #expect(sorted == expected, "\(selector)")
        }
    }
}
