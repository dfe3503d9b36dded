/// Arithmetic, set operators and postfix key paths and subscripts: the
/// expression levels of ``Parser``, loosest first.
extension Parser {
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
                    let extended = path + "." + key
                    guard Parser.keyCount(extended) <= Parser.maximumKeyPathKeys else {
                        throw error(expected: "a shorter key path (at most \(Parser.maximumKeyPathKeys) keys)")
                    }
                    expression = NSExpression(kind: .keyPath(operand, extended))
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
