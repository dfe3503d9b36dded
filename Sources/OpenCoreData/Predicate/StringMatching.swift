/// The string operators: BEGINSWITH, ENDSWITH, CONTAINS, LIKE and MATCHES.
enum StringMatching {
    typealias Options = NSComparisonPredicate.Options

    static func contains(_ text: String, _ part: String, options: Options) -> Bool {
        let text = ValueComparison.fold(text, options), part = ValueComparison.fold(part, options)
        return part.isEmpty || text.contains(part)
    }

    static func match(_ type: NSComparisonPredicate.Operator, _ text: String, _ pattern: String, options: Options) throws(PredicateEvaluationError) -> Bool {
        if type == .matches { return try matchesRegularExpression(text, pattern, options: options) }
        let text = ValueComparison.fold(text, options), pattern = ValueComparison.fold(pattern, options)
        switch type {
        case .beginsWith: return text.hasPrefix(pattern)
        case .endsWith: return text.hasSuffix(pattern)
        default: return like(Array(text), Array(pattern))
        }
    }

    /// LIKE: `*` matches zero or more characters, `?` exactly one, `\` escapes;
    /// the whole string must match.
    static func like(_ text: [Character], _ pattern: [Character]) -> Bool {
        like(text, pattern, star: "*", question: "?", escape: "\\", equal: ==)
    }

    /// LIKE over any elements (characters, or the bytes of plain ASCII text,
    /// `ASCIIStringMatching`): `star` matches any run of elements, `question`
    /// one, `escape` makes the next literal; elements compare by `equal`.
    ///
    /// Greedy matching with one backtrack point for the last `star`: time
    /// O(text × pattern) in the worst case, never exponential.
    static func like<Elements: RandomAccessCollection>(
        _ text: Elements, _ pattern: Elements, star: Elements.Element, question: Elements.Element,
        escape: Elements.Element, equal: (Elements.Element, Elements.Element) -> Bool
    ) -> Bool where Elements.Index == Int, Elements.Element: Equatable {
        func literal(_ p: Int) -> Elements.Element {
            pattern[p] == escape && p + 1 < pattern.count ? pattern[p + 1] : pattern[p]
        }
        var t = 0, p = 0
        var starP = -1, starT = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == star {
                starP = p
                starT = t
                p += 1
            } else if p < pattern.count, pattern[p] == question || equal(literal(p), text[t]) {
                p += pattern[p] == escape && p + 1 < pattern.count ? 2 : 1
                t += 1
            } else if starP >= 0 {
                p = starP + 1
                starT += 1
                t = starT
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == star { p += 1 }
        return p == pattern.count
    }

    /// MATCHES: an ICU regular expression that must match the whole string.
    static func matchesRegularExpression(_ text: String, _ pattern: String, options: Options) throws(PredicateEvaluationError) -> Bool {
        let regex = try RegularExpressionCache.shared.expression(pattern, caseInsensitive: options.contains(.caseInsensitive))
        let text = options.contains(.diacriticInsensitive) ? ValueComparison.fold(text, [.diacriticInsensitive]) : text
        let range = NSRange(text.startIndex..., in: text)
        return regex.firstMatch(in: text, options: [.anchored], range: range).map { $0.range == range } ?? false
    }
}

/// Compiled MATCHES patterns, so evaluating a predicate over many objects
/// compiles its pattern once. Bounded: emptied when it reaches 256 entries.
final class RegularExpressionCache: @unchecked Sendable {
    static let shared = RegularExpressionCache()

    private let lock = NSLock()
    private var expressions: [String: NSRegularExpression] = [:]

    func expression(_ pattern: String, caseInsensitive: Bool) throws(PredicateEvaluationError) -> NSRegularExpression {
        let key = (caseInsensitive ? "i:" : "s:") + pattern
        lock.lock()
        defer { lock.unlock() }
        if let cached = expressions[key] { return cached }
        // Anchor the end too: MATCHES is about the whole string.
        guard let regex = try? NSRegularExpression(pattern: "(?:\(pattern))\\z", options: caseInsensitive ? [.caseInsensitive] : []) else {
            throw PredicateEvaluationError("Can't do regex matching, reason: invalid pattern \"\(pattern)\"")
        }
        if expressions.count >= 256 { expressions.removeAll() }
        expressions[key] = regex
        return regex
    }
}
