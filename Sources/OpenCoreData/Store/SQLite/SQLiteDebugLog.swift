import GRDB
import Logging

/// A store's SQL debug log (``CoreDataDebug``), made only when the level is
/// above 0: a store without one pays a nil check, never a formatted line.
///
/// Statements are logged from SQLite's own trace of each connection, so that
/// every statement the store runs, through whichever code path, is seen once:
/// `CoreData: sql: …` when it ends, then its time. The line shapes are Apple's,
/// as Core Data prints them with `-com.apple.CoreData.SQLDebug` (see
/// SQLDebugLogTests for where they were read).
final class SQLiteDebugLog: Sendable {
    let level: Int
    let logger: Logger

    /// The log for the store at `url`, or nil when the SQL debug level is 0.
    /// Each line carries the store's path as `store` metadata.
    init?(store url: URL) {
        let level = CoreDataDebug.sqlDebugLevel
        guard level > 0 else { return nil }
        self.level = level
        var logger = CoreDataDebug.logger
        logger[metadataKey: "store"] = "\(url.path)"
        self.logger = logger
    }

    /// Starts tracing `db`'s statements; called as each connection opens.
    func trace(_ db: Database) {
        db.trace(options: .profile) { [self] event in
            guard case let .profile(statement, duration) = event else { return }
            let sql = statement.sql
            log("CoreData: sql: \(sql)")
            if level >= 2 {
                for (index, value) in Self.boundValues(sql: sql, expanded: statement.expandedSQL).enumerated() {
                    log("CoreData: details: SQLite bind[\(index)] = \(value)")
                }
            }
            let reads = sql.prefix(6).uppercased() == "SELECT" || sql.prefix(4).uppercased() == "WITH"
            log("CoreData: annotation: sql \(reads ? "connection fetch" : "execution") time: \(Self.seconds(duration))")
        }
    }

    /// After a fetch: its total time and row count; from level 2 also which entity it read.
    func fetched(entity: String?, rows: Int, seconds: TimeInterval) {
        if level >= 2 { log("CoreData: annotation: fetch on entity '\(entity ?? "")' returned \(rows) rows") }
        log("CoreData: annotation: total fetch execution time: \(Self.seconds(seconds)) for \(rows) rows.")
    }

    /// From level 3: the faults a store read fulfilled.
    func fulfilledFromDatabase(_ ids: some Sequence<NSManagedObjectID>) {
        guard level >= 3 else { return }
        for id in ids { log("CoreData: annotation: fault fulfilled from database for : \(id.uriRepresentation())") }
    }

    func log(_ line: String) {
        logger.info("\(line)")
    }

    /// Seconds as Core Data prints them: four decimals and an `s`.
    static func seconds(_ interval: TimeInterval) -> String {
        String(format: "%.4fs", interval)
    }

    /// Monotonic seconds, for timing fetches.
    static func now() -> TimeInterval { ProcessInfo.processInfo.systemUptime }

    /// The literals SQLite put in place of each `?` of `sql` in `expanded`
    /// (`sqlite3_expanded_sql`): the text between parameters is copied
    /// unchanged, so each value ends where the following text begins. A
    /// literal in `sql` is skipped whole, so a `?` inside it is not a parameter.
    static func boundValues(sql: String, expanded: String) -> [String] {
        let sql = Array(sql.utf8), expanded = Array(expanded.utf8)
        var values: [String] = []
        var i = 0, j = 0
        while i < sql.count, j < expanded.count {
            let byte = sql[i]
            if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                let end = literalEnd(sql, from: i)
                j += end - i
                i = end
            } else if byte == UInt8(ascii: "?") {
                i += 1
                while i < sql.count, sql[i] >= UInt8(ascii: "0"), sql[i] <= UInt8(ascii: "9") { i += 1 }
                let end = valueEnd(expanded, from: j)
                values.append(String(decoding: expanded[j..<end], as: UTF8.self))
                j = end
            } else {
                i += 1
                j += 1
            }
        }
        return values
    }

    /// The index after the quoted literal starting at `start` (a doubled quote stays inside).
    private static func literalEnd(_ text: [UInt8], from start: Int) -> Int {
        let quote = text[start]
        var index = start + 1
        while index < text.count {
            if text[index] == quote {
                if index + 1 < text.count, text[index + 1] == quote { index += 2; continue }
                return index + 1
            }
            index += 1
        }
        return index
    }

    /// The index after the SQL literal SQLite wrote at `start`: a quoted
    /// string, a blob `x'…'`, or a bare number or NULL.
    private static func valueEnd(_ text: [UInt8], from start: Int) -> Int {
        guard start < text.count else { return start }
        if text[start] == UInt8(ascii: "'") { return literalEnd(text, from: start) }
        if text[start] == UInt8(ascii: "x") || text[start] == UInt8(ascii: "X"),
           start + 1 < text.count, text[start + 1] == UInt8(ascii: "'") {
            return literalEnd(text, from: start + 1)
        }
        var index = start
        let bare = Set("0123456789+-.eENULnul".utf8)
        while index < text.count, bare.contains(text[index]) { index += 1 }
        return index
    }
}
