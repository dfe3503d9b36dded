import GRDB

/// SQL functions the store registers on every connection, for predicate
/// operators SQLite has no equivalent for. They run in Swift once per row
/// they are applied to, so predicates that use them cost a function call per
/// candidate row and use no index.
enum SQLiteFunctions {
    /// `NSFOLD(text, options)`: `text` folded for comparison; options bit 1 is
    /// `[c]` (case), bit 2 `[d]` (diacritics). NULL stays NULL.
    static let fold = DatabaseFunction("NSFOLD", argumentCount: 2, pure: true) { values in
        guard let text = String.fromDatabaseValue(values[0]) else { return nil }
        return folded(text, options: Int.fromDatabaseValue(values[1]) ?? 0)
    }

    /// `NSMATCHES(text, pattern, options)`: whether the regular expression
    /// `pattern` (ICU syntax) matches all of `text`; NULL for NULL input.
    static let matches = DatabaseFunction("NSMATCHES", argumentCount: 3, pure: true) { values in
        guard let text = String.fromDatabaseValue(values[0]), let pattern = String.fromDatabaseValue(values[1]) else { return nil }
        let options = Int.fromDatabaseValue(values[2]) ?? 0
        var regexOptions: NSRegularExpression.Options = []
        if options & 1 != 0 { regexOptions.insert(.caseInsensitive) }
        guard let regex = try? NSRegularExpression(pattern: "^(?:" + pattern + ")$", options: regexOptions) else { return false }
        let subject = options & 2 != 0 ? folded(text, options: 2) : text
        return regex.firstMatch(in: subject, range: NSRange(subject.startIndex..., in: subject)) != nil
    }

    static func folded(_ text: String, options: Int) -> String {
        var folding: String.CompareOptions = []
        if options & 1 != 0 { folding.insert(.caseInsensitive) }
        if options & 2 != 0 { folding.insert(.diacriticInsensitive) }
        return folding.isEmpty ? text : text.folding(options: folding, locale: nil)
    }

    static func register(in db: Database) {
        db.add(function: fold)
        db.add(function: matches)
    }
}
