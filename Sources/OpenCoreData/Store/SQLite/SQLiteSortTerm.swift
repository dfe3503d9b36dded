import Foundation

// A fetch's sort descriptors as ORDER BY terms: each with its collation, and
// which of them a bytewise sort checks (SQLiteBytewiseOrderCheck).

extension SQLiteFetchExecution {
    /// One ORDER BY term: the column's expression, the collation of a
    /// string's sort selector, the direction.
    struct SortTerm {
        let expression: String
        let collation: String?
        let ascending: Bool

        /// The column, when the term is one of the fetched table's (not through a join).
        var tableColumn: String? { expression.hasPrefix("t0.") ? String(expression.dropFirst(3)) : nil }

        /// Whether the term sorts strings as `compare:` does.
        var comparesStrings: Bool { collation == SQLiteCompareCollation.name }

        /// The term in SQL; with `bytewise`, `compare:` strings go by SQLite's BINARY collation.
        func sql(bytewise: Bool) -> String {
            let collate = collation.flatMap { bytewise && comparesStrings ? nil : " COLLATE \($0)" } ?? ""
            return expression + collate + (ascending ? " ASC" : " DESC")
        }
    }

    /// The ORDER BY terms for `descriptors`, or nil when one cannot be sorted
    /// in SQL as in memory (a comparator, SELF, a relationship or a to-many
    /// path). Strings sort with the collation of the descriptor's selector.
    static func sortTerms(_ descriptors: [NSSortDescriptor], query: SQLiteQuery,
                          scope: SQLiteQuery.Scope) -> [SortTerm]? {
        var terms: [SortTerm] = []
        for descriptor in descriptors {
            guard descriptor.comparator == nil, let key = descriptor.key,
                  case .attribute(let sql, let attribute)? = query.resolve(
                      key.split(separator: ".").map(String.init), alias: scope.alias, entity: scope.entity, in: scope),
                  let kind = SQLiteValueKind(attribute.attributeType), kind.isOrdered else { return nil }
            var collation: String?
            if kind == .string {
                let selector = descriptor.selector?.name ?? "compare:"
                guard let known = SQLiteFunctions.collations[selector] else { return nil }
                collation = known.name
            }
            terms.append(SortTerm(expression: sql, collation: collation, ascending: descriptor.ascending))
        }
        return terms
    }

    /// How many leading terms a bytewise sort checks: through the last
    /// `compare:` term; none when there is none, or when a string of
    /// another collation comes before it (its ties, which the check
    /// would have to know, are not equal bytes).
    static func checkedTerms(_ terms: [SortTerm]) -> Int {
        guard let last = terms.lastIndex(where: \.comparesStrings),
              terms[...last].allSatisfy({ $0.collation == nil || $0.comparesStrings }) else { return 0 }
        return last + 1
    }
}
