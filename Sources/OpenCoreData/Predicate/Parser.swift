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
            guard case .predicate(let next) = try parseAnd(allowsExpression: false) else { fatalError("unreachable") }
            subpredicates.append(next)
        }
        return .predicate(NSCompoundPredicate(type: .or, subpredicates: subpredicates))
    }

    mutating func parseAnd(allowsExpression: Bool) throws(PredicateSyntaxError) -> Node {
        let first = try parseNot(allowsExpression: allowsExpression)
        guard isKeyword(.and) || isSymbol("&&") else { return first }
        var subpredicates = [try predicate(first)]
        while isKeyword(.and) || isSymbol("&&") {
            advance()
            guard case .predicate(let next) = try parseNot(allowsExpression: false) else { fatalError("unreachable") }
            subpredicates.append(next)
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
            guard case .predicate(let operand) = try parseNot(allowsExpression: false) else { fatalError("unreachable") }
            return .predicate(NSCompoundPredicate(notPredicateWithSubpredicate: operand))
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
        case .keyword(.any), .keyword(.some), .keyword(.all), .keyword(.none):
            guard case .keyword(let word) = current.kind else { fatalError("unreachable") }
            advance()
            let left = try parseExpression()
            let modifier: NSComparisonPredicate.Modifier = word == .all ? .all : .any
            let comparison = try parseOperatorAndRight(left: left, modifier: modifier)
            // NONE x is NOT (ANY x) (Predicate Programming Guide, "Aggregate Operations").
            return .predicate(word == .none ? NSCompoundPredicate(notPredicateWithSubpredicate: comparison) : comparison)
        default:
            let left = try parseExpressionNode()
            if case .predicate = left { return left }
            guard case .expression(let expression) = left else { fatalError("unreachable") }
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

    // MARK: Expressions

    mutating func parseExpression() throws(PredicateSyntaxError) -> NSExpression {
        let start = current
        guard case .expression(let e) = try parseExpressionNode() else {
            throw error(expected: "an expression, not a predicate", at: start)
        }
        return e
    }

    /// An expression, or a parenthesised predicate when the input holds one.
    mutating func parseExpressionNode() throws(PredicateSyntaxError) -> Node {
        try nest()
        defer { depth -= 1 }
        let first = try parseAdditive()
        guard case .expression(var left) = first, let setOperator = currentSetOperator else { return first }
        let saved = depth
        defer { depth = saved }
        var word: String? = setOperator
        // `a UNION b`: set operators read as words after a complete expression,
        // where a key could not stand, so they need not be reserved.
        while let name = word {
            advance()
            try nest()
            let right = try parseAdditiveExpression()
            switch name {
            case "UNION": left = NSExpression(forUnionSet: left, with: right)
            case "INTERSECT": left = NSExpression(forIntersectSet: left, with: right)
            default: left = NSExpression(forMinusSet: left, with: right)
            }
            word = currentSetOperator
        }
        return .expression(left)
    }

    var currentSetOperator: String? {
        guard case .identifier(let word) = current.kind else { return nil }
        let upper = word.uppercased()
        return ["UNION", "INTERSECT", "MINUS"].contains(upper) ? upper : nil
    }

    mutating func parseAdditiveExpression() throws(PredicateSyntaxError) -> NSExpression {
        let start = current
        guard case .expression(let e) = try parseAdditive() else {
            throw error(expected: "an expression, not a predicate", at: start)
        }
        return e
    }

    mutating func parseAdditive() throws(PredicateSyntaxError) -> Node {
        let first = try parseMultiplicative()
        guard isSymbol("+") || isSymbol("-"), case .expression(var left) = first else { return first }
        let saved = depth
        defer { depth = saved }
        while isSymbol("+") || isSymbol("-") {
            let name = isSymbol("+") ? "add:to:" : "from:subtract:"
            advance()
            try nest()
            let right = try operand(parseMultiplicative())
            left = NSExpression(kind: .function(name, operand: nil, [left, right]))
        }
        return .expression(left)
    }

    mutating func parseMultiplicative() throws(PredicateSyntaxError) -> Node {
        let first = try parsePower()
        guard isSymbol("*") || isSymbol("/"), case .expression(var left) = first else { return first }
        let saved = depth
        defer { depth = saved }
        while isSymbol("*") || isSymbol("/") {
            let name = isSymbol("*") ? "multiply:by:" : "divide:by:"
            advance()
            try nest()
            let right = try operand(parsePower())
            left = NSExpression(kind: .function(name, operand: nil, [left, right]))
        }
        return .expression(left)
    }

    mutating func parsePower() throws(PredicateSyntaxError) -> Node {
        let base = try parseUnary()
        guard isSymbol("**"), case .expression(let left) = base else { return base }
        advance()
        try nest()
        defer { depth -= 1 }
        let exponent = try operand(parsePower())
        return .expression(NSExpression(kind: .function("raise:toPower:", operand: nil, [left, exponent])))
    }

    /// An operand of an arithmetic operator must be an expression.
    func operand(_ node: Node) throws(PredicateSyntaxError) -> NSExpression {
        guard case .expression(let e) = node else { throw error(expected: "an arithmetic operand, not a predicate") }
        return e
    }

    /// Unary minus binds tighter than `**`: `-2 ** 2` is 4. Apple does not
    /// document this; its lexer reads `-2` as one number [Inf, reference §5.4].
    mutating func parseUnary() throws(PredicateSyntaxError) -> Node {
        guard isSymbol("-") else { return try parsePostfix() }
        advance()
        try nest()
        defer { depth -= 1 }
        switch current.kind {
        case .integer(let i):
            advance()
            return try parsePostfix(startingWith: NSExpression(forConstantValue: -i))
        case .double(let d):
            advance()
            return try parsePostfix(startingWith: NSExpression(forConstantValue: -d))
        default:
            let negated = try operand(parseUnary())
            return .expression(NSExpression(kind: .function("from:subtract:", operand: nil, [NSExpression(forConstantValue: 0), negated])))
        }
    }

    mutating func parsePostfix() throws(PredicateSyntaxError) -> Node {
        let primary = try parsePrimary()
        guard case .expression(let e) = primary else { return primary }
        return try parsePostfix(startingWith: e)
    }

    /// `.key` and `[index]` after a primary expression.
    mutating func parsePostfix(startingWith base: NSExpression) throws(PredicateSyntaxError) -> Node {
        var expression = base
        let saved = depth
        defer { depth = saved }
        while true {
            if isSymbol(".") {
                advance()
                let key: String
                switch current.kind {
                case .identifier(let name):
                    key = name
                    advance()
                case .formatArgument("K"):
                    // `%K.%K`: each argument is one more step of the key path.
                    let token = current
                    advance()
                    key = try arguments.expression(for: "K", token: token, format: format).keyPath
                default:
                    throw error(expected: "a key after '.'")
                }
                if case .keyPath(let operand, let path) = expression.kind {
                    expression = NSExpression(kind: .keyPath(operand, path + "." + key))
                } else {
                    try nest()
                    expression = NSExpression(kind: .keyPath(expression, key))
                }
            } else if isSymbol("[") {
                advance()
                try nest()
                let index: NSExpression
                switch current.kind {
                case .keyword(let k) where k == .first || k == .last || k == .size:
                    advance()
                    index = NSExpression(kind: .symbol(k))
                default:
                    index = try parseExpression()
                }
                try expect("]")
                expression = NSExpression(kind: .function("objectFrom:withIndex:", operand: nil, [expression, index]))
            } else {
                return .expression(expression)
            }
        }
    }
}
