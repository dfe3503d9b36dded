/// Model names as Swift source: property names that are keywords are
/// escaped, names that are not identifiers at all are made into ones.
enum SwiftIdentifier {
    /// `name` usable as a declaration or member name.
    static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// `name` with every character that can't appear in an identifier replaced by `_`.
    static func sanitized(_ name: String) -> String {
        var result = String(name.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
        if result.first?.isNumber ?? true { result = "_" + result }
        return result
    }

    /// `name` with its first letter capitalised, as Xcode names accessors (`addToPhotos`).
    static func capitalized(_ name: String) -> String {
        name.prefix(1).uppercased() + name.dropFirst()
    }

    private static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
        "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return",
        "throw", "switch", "where", "while", "Any", "as", "false", "is", "nil", "self", "Self", "super",
        "throws", "true", "try", "Type", "Protocol",
    ]
}
