import GRDB

/// SQL functions and collations the store registers on every connection,
/// for what SQLite has no equivalent of. Each calls the predicate layer's own
/// code (``ValueComparison``, ``StringMatching``), so a predicate means the
/// same in SQL as in memory. They run in Swift once per row they touch and
/// use no index.
enum SQLiteFunctions {
    /// `NSFOLD(text, options)`: `text` folded as `[c]` (1) and `[d]` (2) ask. NULL stays NULL.
    static let fold = DatabaseFunction("NSFOLD", argumentCount: 2, pure: true) { values in
        guard let text = String.fromDatabaseValue(values[0]) else { return nil }
        return ValueComparison.fold(text, .init(rawValue: UInt(Int.fromDatabaseValue(values[1]) ?? 0)))
    }

    /// `NSSTRINGOP(operator, text, pattern, options)`: BEGINSWITH, ENDSWITH,
    /// LIKE, MATCHES or CONTAINS (operator numbers of
    /// `NSComparisonPredicate.Operator`); 0 when either string is NULL. An
    /// invalid regular expression is an SQL error.
    static let stringOperator = DatabaseFunction("NSSTRINGOP", argumentCount: 4, pure: true) { values in
        guard let raw = UInt.fromDatabaseValue(values[0]), let type = NSComparisonPredicate.Operator(rawValue: raw),
              let text = String.fromDatabaseValue(values[1]), let pattern = String.fromDatabaseValue(values[2]) else { return false }
        let options = NSComparisonPredicate.Options(rawValue: UInt(Int.fromDatabaseValue(values[3]) ?? 0))
        if type == .contains { return StringMatching.contains(text, pattern, options: options) }
        do {
            return try StringMatching.match(type, text, pattern, options: options)
        } catch {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "\(error)")
        }
    }

    /// The collation of each sort selector, named so in SQL: `compare:` is
    /// `NSCOMPARE` (registered through C, see ``SQLiteCompareCollation``; this
    /// entry names it), and so on. Strings only; the store uses them on string columns.
    static let collations: [String: DatabaseCollation] = [
        "compare:": DatabaseCollation(SQLiteCompareCollation.name) { ValueComparison.compareStrings($0, $1) },
        "caseInsensitiveCompare:": DatabaseCollation("NSCASEINSENSITIVE") { $0.caseInsensitiveCompare($1) },
        "localizedCompare:": DatabaseCollation("NSLOCALIZED") { $0.localizedCompare($1) },
        "localizedCaseInsensitiveCompare:": DatabaseCollation("NSLOCALIZEDCASEINSENSITIVE") { $0.localizedCaseInsensitiveCompare($1) },
        "localizedStandardCompare:": DatabaseCollation("NSCOLLATEFINDERLIKE") { $0.localizedStandardCompare($1) },
    ]

    static func register(in db: Database) {
        db.add(function: fold)
        db.add(function: stringOperator)
        for collation in collations.values where collation.name != SQLiteCompareCollation.name { db.add(collation: collation) }
        SQLiteCompareCollation.register(in: db)
    }
}
