import GRDBSQLite
import Foundation

/// Hand-written SQLite C API code: prepared statements, one transaction, no
/// error checking beyond what is needed. The physical limit of each workload.
final class RawConnection {
    private var db: OpaquePointer?

    init(_ url: URL) throws {
        guard sqlite3_open_v2(url.path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else {
            throw BenchmarkError("can't open \(url.path)")
        }
        execute("PRAGMA journal_mode=WAL")
    }

    deinit { sqlite3_close(db) }

    func execute(_ sql: String) {
        if sqlite3_exec(db, sql, nil, nil, nil) != SQLITE_OK {
            fatalError("\(sql): \(String(cString: sqlite3_errmsg(db)))")
        }
    }

    func prepare(_ sql: String) -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            fatalError("\(sql): \(String(cString: sqlite3_errmsg(db)))")
        }
        return statement
    }

    /// Runs `statement` once per element of `rows`, binding with `bind`.
    func run<S: Sequence>(_ sql: String, _ rows: S, bind: (OpaquePointer, S.Element) -> Void) {
        let statement = prepare(sql)
        for row in rows {
            sqlite3_reset(statement)
            bind(statement, row)
            guard sqlite3_step(statement) == SQLITE_DONE else { fatalError(String(cString: sqlite3_errmsg(db))) }
        }
        sqlite3_finalize(statement)
    }

    /// Steps through `sql`'s rows, handing each to `read`.
    func query(_ sql: String, bind: (OpaquePointer) -> Void = { _ in }, read: (OpaquePointer) -> Void) {
        let statement = prepare(sql)
        bind(statement)
        while sqlite3_step(statement) == SQLITE_ROW { read(statement) }
        sqlite3_finalize(statement)
    }
}

/// SQLITE_TRANSIENT: SQLite copies bound text.
let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

extension OpaquePointer {
    func bind(_ index: Int32, _ value: Int) { sqlite3_bind_int64(self, index, Int64(value)) }
    func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(self, index, value) }
    func bind(_ index: Int32, _ value: String) { sqlite3_bind_text(self, index, value, -1, transient) }
    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(self, column)) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(self, column) }
    func text(_ column: Int32) -> String { sqlite3_column_text(self, column).map { String(cString: $0) } ?? "" }
}
