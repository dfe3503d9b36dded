import GRDB
import GRDBSQLite

extension Statement {
    /// Runs this statement, its parameters bound already, to completion with
    /// SQLite's C API, then resets it. Outside a transaction it runs through
    /// GRDB's `execute()` instead.
    ///
    /// `execute()` also resets the statement before the run and tells the
    /// connection's observers and its transaction tracking about it: about
    /// 1,500 instructions, a quarter of what SQLite itself spends inserting a
    /// row of ten integers. The store's writes need none of that. They run
    /// inside a transaction, which a write neither opens nor ends (what GRDB
    /// tracks to tell observers of commits), and no observer of the store's
    /// connection watches row changes: persistent history is recorded by
    /// triggers (`SQLiteHistoryTables`), which SQLite runs within the step.
    func runInTransaction(_ db: Database) throws {
        let connection = db.sqliteConnection
        guard sqlite3_get_autocommit(connection) == 0 else { return try execute() }
        while true {
            let code = sqlite3_step(sqliteStatement)
            switch code {
            case SQLITE_ROW: continue
            case SQLITE_DONE:
                sqlite3_reset(sqliteStatement)
                return
            default:
                let message = String(cString: sqlite3_errmsg(connection))
                sqlite3_reset(sqliteStatement)
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql)
            }
        }
    }
}
