extension Parser {
    /// Literals, key paths, variables, format arguments, `{…}`, `(…)` and function calls.
    mutating func parsePrimary() throws(PredicateSyntaxError) -> Node {
        let token = current
        func constant(_ value: Any?) -> Node {
            advance()
            return .expression(NSExpression(forConstantValue: value))
        }
        switch token.kind {
        case .integer(let i): return constant(i)
        case .double(let d): return constant(d)
        case .string(let s): return constant(s)
        // NSNumber, as in Foundation (kCFBooleanTrue/False): callers read the constant as a number too.
        case .keyword(.true), .keyword(.yes): return constant(NSNumber(value: true))
        case .keyword(.false), .keyword(.no): return constant(NSNumber(value: false))
        case .keyword(.null), .keyword(.nil): return constant(nil)
        case .keyword(.self):
            advance()
            return .expression(.expressionForEvaluatedObject())
        case .keyword(.anyKey):
            advance()
            return .expression(.expressionForAnyKey())
        case .variable(let name):
            advance()
            guard isSymbol(":=") else { return .expression(NSExpression(forVariable: name)) }
            advance()
            try nest()
            defer { depth -= 1 }
            return .expression(NSExpression(kind: .assignment(name, try parseExpression())))
        case .formatArgument(let spec):
            advance()
            return .expression(try arguments.expression(for: spec, token: token, format: format))
        case .symbol("{"):
            advance()
            try nest()
            defer { depth -= 1 }
            var items: [NSExpression] = []
            if !take("}") {
                repeat { items.append(try parseExpression()) } while take(",")
                try expect("}")
            }
            return .expression(NSExpression(forAggregate: items))
        case .symbol("("):
            advance()
            let node = try parseOr(allowsExpression: true)
            try expect(")")
            return node
        case .keyword(.fetch):
            throw error(expected: "an expression (FETCH(…) reads from a store and is not supported in predicates here)")
        case .keyword(.subquery):
            advance()
            return .expression(try parseSubquery())
        case .keyword(.cast):
            advance()
            let arguments = try parseArguments(token: token)
            guard arguments.count == 2 else { throw error(expected: "CAST(value, 'ClassName') with two arguments", at: token) }
            // `CAST(<number>, "NSDate")` is how dates print; read it back as the date constant.
            if case .constant(let seconds?) = arguments[0].kind, let number = NumericValue(seconds),
               Values.string(seconds) == nil, case .constant(let type as String) = arguments[1].kind, type == "NSDate" {
                return .expression(NSExpression(forConstantValue: Date(timeIntervalSinceReferenceDate: number.double)))
            }
            return .expression(NSExpression(kind: .function("castObject:toType:", operand: nil, arguments)))
        case .identifier(let name):
            advance()
            guard isSymbol("(") else { return .expression(NSExpression(forKeyPath: name)) }
            return .expression(try parseCall(named: name, token: token))
        case .selectorName(let name):
            advance()
            guard isSymbol("(") else { throw error(expected: "'(' after the function name \(name)") }
            return .expression(try parseCall(named: name, token: token))
        default:
            throw error(expected: "an expression")
        }
    }

    /// `( expression, … )`, the opening parenthesis being current.
    private mutating func parseArguments(token: Token) throws(PredicateSyntaxError) -> [NSExpression] {
        try expect("(")
        try nest()
        defer { depth -= 1 }
        var arguments: [NSExpression] = []
        if !take(")") {
            repeat { arguments.append(try parseExpression()) } while take(",")
            try expect(")")
        }
        return arguments
    }

    /// `FUNCTION(…)`, `TERNARY(…)` and the built-in functions (`sum(…)`, `modulus:by:(…)`).
    private mutating func parseCall(named name: String, token: Token) throws(PredicateSyntaxError) -> NSExpression {
        switch name.uppercased() {
        case "FUNCTION":
            let arguments = try parseArguments(token: token)
            guard arguments.count >= 2, case .constant(let selector as String) = arguments[1].kind else {
                throw error(expected: "FUNCTION(receiver, 'selectorName', arguments…)", at: token)
            }
            return NSExpression(kind: .function(selector, operand: arguments[0], Array(arguments.dropFirst(2))))
        case "TERNARY":
            try expect("(")
            try nest()
            defer { depth -= 1 }
            guard case .predicate(let condition) = try parseOr(allowsExpression: true) else {
                throw error(expected: "a predicate as the first argument of TERNARY", at: token)
            }
            try expect(",")
            let whenTrue = try parseExpression()
            try expect(",")
            let whenFalse = try parseExpression()
            try expect(")")
            return NSExpression(forConditional: condition, trueExpression: whenTrue, falseExpression: whenFalse)
        default:
            guard let function = BuiltInFunction.named(name) else {
                throw error(expected: "a known function name", at: token)
            }
            var arguments = try parseArguments(token: token)
            // `max(a, b, c)` is `max:({a, b, c})`: aggregate functions take one collection.
            if function.takesCollection, arguments.count != 1 {
                arguments = [NSExpression(forAggregate: arguments)]
            }
            guard arguments.count == function.arity else {
                throw error(expected: "\(function.arity) argument\(function.arity == 1 ? "" : "s") for \(function.name)", at: token)
            }
            return NSExpression(kind: .function(function.name, operand: nil, arguments))
        }
    }

    /// `SUBQUERY(collection, $variable, predicate)`, after the keyword.
    private mutating func parseSubquery() throws(PredicateSyntaxError) -> NSExpression {
        try expect("(")
        try nest()
        defer { depth -= 1 }
        let collection = try parseExpression()
        try expect(",")
        guard case .variable(let variable) = current.kind else { throw error(expected: "a $variable in SUBQUERY") }
        advance()
        try expect(",")
        guard case .predicate(let predicate) = try parseOr(allowsExpression: true) else {
            throw error(expected: "a predicate in SUBQUERY")
        }
        try expect(")")
        return NSExpression(forSubquery: collection, usingIteratorVariable: variable, predicate: predicate)
    }
}
