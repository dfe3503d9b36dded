/// An index Core Data creates on one of its tables.
struct SQLiteIndex: Hashable, Sendable {
    var name: String
    var table: String
    /// The indexed terms in order, as written inside the parentheses: a bare
    /// column (`ZCART`) or a column with collation and order
    /// (`ZSTARTDATE COLLATE BINARY DESC`), depending on where the index comes from.
    var terms: [String]
    var isUnique: Bool

    /// The `CREATE [UNIQUE] INDEX` statement, without a trailing semicolon.
    var createStatement: String {
        "CREATE \(isUnique ? "UNIQUE " : "")INDEX \(name) ON \(table) (\(terms.joined(separator: ", ")))"
    }
}
