/// Recursive-descent parser for predicate and expression format strings.
///
/// Precedence, loosest first: `OR`/`||`, `AND`/`&&`, `NOT`/`!`, comparison,
/// `+ -`, `* /`, `**` (right-associative), unary `-`, postfix `.key` and `[index]`.
/// Apple does not document precedence; NOT tighter than AND tighter than OR
/// is what Apple's parser does (reference §5.4 and §10 item 5) and what C does.
///
/// A `(` may open a parenthesised predicate or expression; the parser reads
/// what is inside once, as a ``Node`` that can be either, and lets the token
/// after `)` decide. So parsing never backtracks and costs time linear in the
/// input. Nesting deeper than ``maximumDepth`` throws instead of recursing on,
/// so hostile input cannot overflow the stack.
struct Parser {
    /// A parsed piece that may turn out to be a predicate or an expression.
    enum Node {
        case predicate(NSPredicate)
        case expression(NSExpression)
    }

    /// How deep parentheses, function calls, `NOT`s and operator chains may nest.
    static let maximumDepth = 100

    /// How many keys one key path may have. Each key costs a join in SQL and a
    /// step per object in memory; no model is that deep, and a hostile
    /// 100,000-key path would cost that much per fetched object.
    static let maximumKeyPathKeys = 1_000

    /// The number of keys of `path` (dots plus one).
    static func keyCount(_ path: String) -> Int {
        path.utf8.reduce(1) { $1 == UInt8(ascii: ".") ? $0 + 1 : $0 }
    }

    let format: String
    let tokens: [Token]
    var index = 0
    var arguments: FormatArguments
    var depth = 0

    init(format: String, arguments: [Any]) throws(PredicateSyntaxError) {
        self.format = format
        self.tokens = try Lexer.tokenize(format)
        self.arguments = FormatArguments(arguments)
    }

    // MARK: Entry points

    mutating func parseWholePredicate() throws(PredicateSyntaxError) -> NSPredicate {
        let node = try parseOr(allowsExpression: false)
        guard case .predicate(let predicate) = node else { throw error(expected: "a comparison operator") }
        try expectEnd()
        return predicate
    }

    mutating func parseWholeExpression() throws(PredicateSyntaxError) -> NSExpression {
        let expression = try parseExpression()
        try expectEnd()
        return expression
    }

    func expectEnd() throws(PredicateSyntaxError) {
        guard current.kind == .end else {
            throw error(expected: "an operator or end of input")
        }
    }

    // MARK: Tokens

    var current: Token { tokens[index] }

    mutating func advance() { if index < tokens.count - 1 { index += 1 } }

    func error(expected: String, at token: Token? = nil) -> PredicateSyntaxError {
        let token = token ?? current
        return PredicateSyntaxError(format: format, utf16Offset: token.offset, expected: expected, found: token.quoted)
    }

    func isSymbol(_ s: String) -> Bool { current.kind == .symbol(s) }

    func isKeyword(_ k: Keyword) -> Bool { current.kind == .keyword(k) }

    mutating func take(_ s: String) -> Bool {
        guard isSymbol(s) else { return false }
        advance()
        return true
    }

    mutating func expect(_ s: String) throws(PredicateSyntaxError) {
        guard take(s) else { throw error(expected: "'\(s)'") }
    }

    mutating func nest() throws(PredicateSyntaxError) {
        depth += 1
        if depth > Parser.maximumDepth {
            throw error(expected: "less nesting (at most \(Parser.maximumDepth) levels)")
        }
    }

    // MARK: Predicates

    /// `a OR b OR c` becomes one OR compound with three subpredicates.
    mutating func parseOr(allowsExpression: Bool) throws(PredicateSyntaxError) -> Node {
        try nest()
        defer { depth -= 1 }
        let first = try parseAnd(allowsExpression: allowsExpression)
        guard isKeyword(.or) || isSymbol("||") else { return first }
        var subpredicates = [try predicate(first)]
        while isKeyword(.or) || isSymbol("||") {
            advance()
            subpredicates.append(try predicate(parseAnd(allowsExpression: false)))
        }
        return .predicate(NSCompoundPredicate(type: .or, subpredicates: subpredicates))
    }

    mutating func parseAnd(allowsExpression: Bool) throws(PredicateSyntaxError) -> Node {
        let first = try parseNot(allowsExpression: allowsExpression)
        guard isKeyword(.and) || isSymbol("&&") else { return first }
        var subpredicates = [try predicate(first)]
        while isKeyword(.and) || isSymbol("&&") {
            advance()
            subpredicates.append(try predicate(parseNot(allowsExpression: false)))
        }
        return .predicate(NSCompoundPredicate(type: .and, subpredicates: subpredicates))
    }

    /// A node before `AND`/`OR` must be a predicate; a bare expression there lacks its operator.
    func predicate(_ node: Node) throws(PredicateSyntaxError) -> NSPredicate {
        guard case .predicate(let p) = node else { throw error(expected: "a comparison operator") }
        return p
    }

    mutating func parseNot(allowsExpression: Bool) throws(PredicateSyntaxError) -> Node {
        if isKeyword(.not) || isSymbol("!") {
            advance()
            try nest()
            defer { depth -= 1 }
            return .predicate(NSCompoundPredicate(notPredicateWithSubpredicate: try predicate(parseNot(allowsExpression: false))))
        }
        return try parseComparison(allowsExpression: allowsExpression)
    }

    mutating func parseComparison(allowsExpression: Bool) throws(PredicateSyntaxError) -> Node {
        switch current.kind {
        case .keyword(.truePredicate):
            advance()
            return .predicate(NSPredicate(value: true))
        case .keyword(.falsePredicate):
            advance()
            return .predicate(NSPredicate(value: false))
        case .keyword(let word) where [.any, .some, .all, .none].contains(word):
            advance()
            let left = try parseExpression()
            let modifier: NSComparisonPredicate.Modifier = word == .all ? .all : .any
            let comparison = try parseOperatorAndRight(left: left, modifier: modifier)
            // NONE x is NOT (ANY x) (Predicate Programming Guide, "Aggregate Operations").
            return .predicate(word == .none ? NSCompoundPredicate(notPredicateWithSubpredicate: comparison) : comparison)
        default:
            let left = try parseExpressionNode()
            guard case .expression(let expression) = left else { return left }
            if allowsExpression && !isComparisonOperator { return left }
            return .predicate(try parseOperatorAndRight(left: expression, modifier: .direct))
        }
    }

    var isComparisonOperator: Bool {
        switch current.kind {
        case .symbol(let s): return ["==", "!=", "<", "<=", ">", ">="].contains(s)
        case .keyword(let k):
            return [.like, .matches, .contains, .beginsWith, .endsWith, .in, .between, .utiConformsTo, .utiEquals].contains(k)
        default: return false
        }
    }

    mutating func parseOperatorAndRight(left: NSExpression, modifier: NSComparisonPredicate.Modifier) throws(PredicateSyntaxError) -> NSComparisonPredicate {
        let operatorToken = current
        var type: NSComparisonPredicate.Operator
        var uti: Keyword?
        switch current.kind {
        case .symbol("=="): type = .equalTo
        case .symbol("!="): type = .notEqualTo
        case .symbol("<"): type = .lessThan
        case .symbol("<="): type = .lessThanOrEqualTo
        case .symbol(">"): type = .greaterThan
        case .symbol(">="): type = .greaterThanOrEqualTo
        case .keyword(.like): type = .like
        case .keyword(.matches): type = .matches
        case .keyword(.contains): type = .contains
        case .keyword(.beginsWith): type = .beginsWith
        case .keyword(.endsWith): type = .endsWith
        case .keyword(.in): type = .in
        case .keyword(.between): type = .between
        case .keyword(.utiConformsTo), .keyword(.utiEquals):
            type = .customSelector
            if case .keyword(let k) = current.kind { uti = k }
        default: throw error(expected: "a comparison operator")
        }
        advance()
        var options: NSComparisonPredicate.Options = []
        if isSymbol("[") {
            advance()
            guard case .identifier(let letters) = current.kind, !letters.isEmpty, !letters.hasPrefix("@") else {
                throw error(expected: "options c, d or n")
            }
            for letter in letters.lowercased() {
                switch letter {
                case "c": options.insert(.caseInsensitive)
                case "d": options.insert(.diacriticInsensitive)
                case "n": options.insert(.normalized)
                default: throw error(expected: "options c, d or n")
                }
            }
            advance()
            try expect("]")
        }
        let right = try parseExpression()
        if let uti {
            return NSComparisonPredicate(leftExpression: left, rightExpression: right,
                                         customSelector: Selector(uti.rawValue), modifier: modifier)
        }
        if type == .between, case .aggregate(let bounds) = right.kind, bounds.count != 2 {
            throw error(expected: "two bounds {lower, upper} after BETWEEN", at: operatorToken)
        }
        return NSComparisonPredicate(leftExpression: left, rightExpression: right, modifier: modifier, type: type, options: options)
    }
}
