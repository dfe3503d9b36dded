import Foundation
import GRDB
import GRDBSQLite

/// SQL functions and collations the store registers on every connection,
/// for what SQLite has no equivalent of. Each calls the predicate layer's own
/// code (``ValueComparison``, ``StringMatching``), so a predicate means the
/// same in SQL as in memory. They run in Swift once per row they touch and
/// use no index.
///
/// They are registered with SQLite's C API and read their arguments with it.
/// GRDB's `DatabaseFunction` wraps each call's arguments in an array of
/// `DatabaseValue`s and boxes its result (~1,650 instructions a call of
/// `NSSTRINGOP`, more than the match itself), its `DatabaseCollation` makes
/// both strings through Foundation at every comparison of a sort, and
/// registering them through GRDB cost ~40k instructions of each store open.
/// The arguments are read as GRDB reads them: text up to its first NUL
/// byte, a blob as UTF-8 text (nil when it is not), integers from integers
/// or from floating-point values in range.
enum SQLiteFunctions {
    /// A collation SQL sorts strings with: its name, and how it orders two strings.
    struct Collation: Sendable {
        let name: String
        let order: @Sendable (String, String) -> ComparisonResult
    }

    /// The collation of each sort selector, named so in SQL: `compare:` is
    /// `NSCOMPARE` (registered on its own, see ``SQLiteCompareCollation``;
    /// this entry names it), and so on. Strings only; the store uses them on string columns.
    static let collations: [String: Collation] = Dictionary(
        uniqueKeysWithValues: ([compare] + otherCollations).map { ($0.selector, $0.collation) })

    private static let compare = (selector: "compare:", collation: Collation(name: SQLiteCompareCollation.name) {
        ValueComparison.compareStrings($0, $1)
    })

    /// The collations registered here, by position (the registration's context is the position plus one).
    private static let otherCollations: [(selector: String, collation: Collation)] = [
        ("caseInsensitiveCompare:", Collation(name: "NSCASEINSENSITIVE") { $0.caseInsensitiveCompare($1) }),
        ("localizedCompare:", Collation(name: "NSLOCALIZED") { $0.localizedCompare($1) }),
        ("localizedCaseInsensitiveCompare:",
         Collation(name: "NSLOCALIZEDCASEINSENSITIVE") { $0.localizedCaseInsensitiveCompare($1) }),
        ("localizedStandardCompare:", Collation(name: "NSCOLLATEFINDERLIKE") { $0.localizedStandardCompare($1) }),
    ]

    /// Registers the functions and collations on `db`'s connection. A
    /// registration SQLite refuses (out of memory) leaves the name unknown:
    /// SQL that uses it then fails to prepare, with SQLite's error.
    static func register(in db: Database) {
        let connection = db.sqliteConnection
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
        sqlite3_create_function_v2(connection, "NSFOLD", 2, flags, nil, { context, _, arguments in
            SQLiteFunctions.fold(context, arguments.unsafelyUnwrapped)
        }, nil, nil, nil)
        sqlite3_create_function_v2(connection, "NSSTRINGOP", 4, flags, nil, { context, _, arguments in
            SQLiteFunctions.stringOperator(context, arguments.unsafelyUnwrapped)
        }, nil, nil, nil)
        for position in otherCollations.indices {
            sqlite3_create_collation_v2(connection, otherCollations[position].collation.name, SQLITE_UTF8,
                                        UnsafeMutableRawPointer(bitPattern: position + 1),
                                        { position, length1, bytes1, length2, bytes2 in
                SQLiteFunctions.order(Int(bitPattern: position) - 1, bytes1, length1, bytes2, length2)
            }, nil)
        }
        SQLiteCompareCollation.register(in: db)
    }

    /// `NSFOLD(text, options)`: `text` folded as `[c]` (1) and `[d]` (2) ask. NULL stays NULL.
    /// ASCII text is folded byte by byte (``ASCIIStringMatching``), without a string.
    private static func fold(_ context: OpaquePointer?, _ arguments: UnsafeMutablePointer<OpaquePointer?>) {
        let options = NSComparisonPredicate.Options(rawValue: UInt(truncatingIfNeeded: integer(arguments[1]) ?? 0))
        if let bytes = textBytes(arguments[0]) {
            let folded = ASCIIStringMatching.withFolded(bytes, caseInsensitive: options.contains(.caseInsensitive)) {
                guard let folded = $0 else { return false }
                // A nil pointer would make the result NULL, not the empty string.
                guard let start = folded.baseAddress, !folded.isEmpty else {
                    sqlite3_result_text(context, "", 0, transient)
                    return true
                }
                sqlite3_result_text(context, start.assumingMemoryBound(to: CChar.self), CInt(folded.count), transient)
                return true
            }
            if folded { return }
        }
        guard let text = string(arguments[0]) else { return sqlite3_result_null(context) }
        sqlite3_result_text(context, ValueComparison.fold(text, options), -1, transient)
    }

    /// `NSSTRINGOP(operator, text, pattern, options)`: BEGINSWITH, ENDSWITH,
    /// LIKE, MATCHES or CONTAINS (operator numbers of
    /// `NSComparisonPredicate.Operator`); 0 when either string is NULL. An
    /// invalid regular expression is an SQL error. Plain ASCII text is
    /// matched by its bytes (``ASCIIStringMatching``), except by MATCHES.
    private static func stringOperator(_ context: OpaquePointer?, _ arguments: UnsafeMutablePointer<OpaquePointer?>) {
        guard let raw = integer(arguments[0]), raw >= 0,
              let type = NSComparisonPredicate.Operator(rawValue: UInt(raw)) else {
            return sqlite3_result_int64(context, 0)
        }
        let options = NSComparisonPredicate.Options(rawValue: UInt(truncatingIfNeeded: integer(arguments[3]) ?? 0))
        if let text = textBytes(arguments[1]), let pattern = textBytes(arguments[2]),
           let matches = ASCIIStringMatching.match(type, text, pattern,
                                                   caseInsensitive: options.contains(.caseInsensitive)) {
            return sqlite3_result_int64(context, matches ? 1 : 0)
        }
        guard let text = string(arguments[1]), let pattern = string(arguments[2]) else {
            return sqlite3_result_int64(context, 0)
        }
        if type == .contains {
            return sqlite3_result_int64(context, StringMatching.contains(text, pattern, options: options) ? 1 : 0)
        }
        do {
            sqlite3_result_int64(context, try StringMatching.match(type, text, pattern, options: options) ? 1 : 0)
        } catch {
            sqlite3_result_error(context, "\(error)", -1)
            sqlite3_result_error_code(context, SQLITE_ERROR)
        }
    }

    /// The order of two UTF-8 strings (not NUL-terminated) under collation `position` of `otherCollations`.
    private static func order(_ position: Int, _ bytes1: UnsafeRawPointer?, _ length1: CInt,
                              _ bytes2: UnsafeRawPointer?, _ length2: CInt) -> CInt {
        let x = String(decoding: UnsafeRawBufferPointer(start: bytes1, count: Int(length1)), as: UTF8.self)
        let y = String(decoding: UnsafeRawBufferPointer(start: bytes2, count: Int(length2)), as: UTF8.self)
        return CInt(otherCollations[position].collation.order(x, y).rawValue)
    }

    /// A text argument's bytes up to its first NUL byte (what its string
    /// holds); nil for any other storage class. Valid until the call returns.
    private static func textBytes(_ value: OpaquePointer?) -> UnsafeRawBufferPointer? {
        guard sqlite3_value_type(value) == SQLITE_TEXT, let text = sqlite3_value_text(value) else { return nil }
        return UnsafeRawBufferPointer(start: text, count: strlen(text))
    }

    /// A text argument's string (up to its first NUL byte), a blob's as
    /// UTF-8; nil for NULL, numbers and blobs that are not UTF-8.
    private static func string(_ value: OpaquePointer?) -> String? {
        switch sqlite3_value_type(value) {
        case SQLITE_TEXT:
            return sqlite3_value_text(value).map { String(cString: $0) }
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(value))
            guard count > 0, let bytes = sqlite3_value_blob(value) else { return "" }
            return String(data: Data(bytes: bytes, count: count), encoding: .utf8)
        default:
            return nil
        }
    }

    /// An integer argument, or a floating-point one in `Int64`'s range
    /// (truncated); nil for anything else.
    private static func integer(_ value: OpaquePointer?) -> Int64? {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER:
            return sqlite3_value_int64(value)
        case SQLITE_FLOAT:
            let double = sqlite3_value_double(value)
            return double >= Double(Int64.min) && double < Double(Int64.max) ? Int64(double) : nil
        default:
            return nil
        }
    }

    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
}
