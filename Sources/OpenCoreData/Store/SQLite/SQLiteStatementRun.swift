import GRDB
import GRDBSQLite

extension Statement {
    /// Runs this statement, its parameters bound already, to completion with
    /// SQLite's C API, then resets it (so that its parameters can be bound
    /// again without a reset first). Outside a transaction it runs through
    /// GRDB's `execute()` instead, reset after all the same.
    ///
    /// `execute()` also resets the statement before the run and tells the
    /// connection's observers and its transaction tracking about it: about
    /// 1,500 instructions, a quarter of what SQLite itself spends inserting a
    /// row of ten integers. The store's writes need none of that. They run
    /// inside a transaction, which a write neither opens nor ends (what GRDB
    /// tracks to tell observers of commits), and no observer of the store's
    /// connection watches row changes: persistent history is recorded by
    /// triggers (`SQLiteHistoryTables`), which SQLite runs within the step.
    func runInTransaction() throws {
        // The statement's own connection: `Database.sqliteConnection` costs an exclusivity check per row.
        guard sqlite3_get_autocommit(sqlite3_db_handle(sqliteStatement)) == 0 else {
            defer { sqlite3_reset(sqliteStatement) }
            return try execute()
        }
        try forEachRow {}
    }

    /// Binds `values` to this statement's parameters, in order, and marks the
    /// statement as holding its arguments, so that GRDB's `execute()` and
    /// cursors made without arguments keep them (as ``SQLiteKeyList`` does).
    ///
    /// GRDB's `StatementArguments(_:)` maps its sequence in generic code not
    /// specialized here: its first use in a process looks up the array's
    /// `Collection` conformance, a scan of every conformance record loaded
    /// (~300,000 instructions, paid by the process's first fetch or count).
    func bind(_ values: [DatabaseValue]) throws {
        setUncheckedArguments(StatementArguments())
        guard values.count == Int(sqlite3_bind_parameter_count(sqliteStatement)) else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "wrong number of statement arguments: "
                                + "\(values.count) for \(sqlite3_bind_parameter_count(sqliteStatement))", sql: sql)
        }
        for (index, value) in zip(CInt(1)..., values) { try checkBinding(value.bind(to: sqliteStatement, at: index)) }
    }

    /// Throws SQLite's error for `code`, what a `sqlite3_bind_*` call on
    /// this statement returned, unless it is `SQLITE_OK`.
    @inline(__always)
    func checkBinding(_ code: CInt) throws {
        guard code == SQLITE_OK else { throw bindingError(code) }
    }

    /// The error of a failed binding: out of line, so that the check stays small where each row binds.
    @inline(never)
    private func bindingError(_ code: CInt) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code),
                      message: String(cString: sqlite3_errmsg(sqlite3_db_handle(sqliteStatement))), sql: sql)
    }

    /// Steps this statement, its parameters bound already, through its rows
    /// with SQLite's C API, calling `body` at each (read the row's columns
    /// with ``SQLiteColumnReader``), then resets it, also when `body` or a
    /// step throws.
    ///
    /// A GRDB cursor over the statement (`Row.fetchCursor`) costs about
    /// 10,000 instructions to make: the connection's read tracking and
    /// authorizer bookkeeping, which the store's reads don't use. That was
    /// a tenth of reading one record by key, the read a fired fault makes.
    func forEachRow(_ body: () throws -> Void) throws {
        defer { sqlite3_reset(sqliteStatement) }
        while true {
            let code = sqlite3_step(sqliteStatement)
            switch code {
            case SQLITE_ROW: try body()
            case SQLITE_DONE: return
            default:
                throw DatabaseError(resultCode: ResultCode(rawValue: code),
                                    message: String(cString: sqlite3_errmsg(sqlite3_db_handle(sqliteStatement))),
                                    sql: sql)
            }
        }
    }

    /// The rows this statement returns, each as its columns'
    /// `DatabaseValue`s, stepped as ``forEachRow(_:)`` steps (a GRDB row
    /// request costs ~10–30k instructions more, which the handful of
    /// statements opening a store pays).
    func rowValues() throws -> [[DatabaseValue]] {
        var rows: [[DatabaseValue]] = []
        let columns = CInt(columnCount)
        try forEachRow {
            rows.append((0..<columns).map { DatabaseValue(sqliteStatement: sqliteStatement, index: $0) })
        }
        return rows
    }
}
