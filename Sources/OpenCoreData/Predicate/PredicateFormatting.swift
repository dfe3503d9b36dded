/// Printing predicates and expressions back as format strings (`predicateFormat`).
///
/// The output parses back to an equal predicate: strings are double-quoted with
/// escapes, key paths that collide with reserved words get `#`, `%K` keys print
/// as plain key paths, dates as `CAST(<seconds since 2001>, "NSDate")`, variables
/// as `$NAME`. Compound subpredicates are parenthesised the way Apple prints
/// them: `a == 1 AND (b == 2 OR c == 3)`.
enum PredicateFormatter {
    static func format(_ predicate: NSPredicate) -> String {
        switch predicate {
        case let c as NSComparisonPredicate: return format(c)
        case let c as NSCompoundPredicate: return format(c)
        default:
            switch predicate.storage {
            case .value(let value): return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
            case .block: return "BLOCKPREDICATE(\(String(UInt(bitPattern: ObjectIdentifier(predicate).hashValue), radix: 16)))"
            case .subclass: return String(describing: type(of: predicate))
            }
        }
    }

    private static func format(_ c: NSCompoundPredicate) -> String {
        func operand(_ p: NSPredicate) -> String {
            if let inner = p as? NSCompoundPredicate, inner.compoundPredicateType != .not { return "(\(format(inner)))" }
            return format(p)
        }
        switch c.compoundPredicateType {
        case .not: return "NOT " + operand(c.predicates[0])
        case .and: return c.predicates.isEmpty ? "TRUEPREDICATE" : c.predicates.map(operand).joined(separator: " AND ")
        case .or: return c.predicates.isEmpty ? "FALSEPREDICATE" : c.predicates.map(operand).joined(separator: " OR ")
        }
    }

    private static func format(_ c: NSComparisonPredicate) -> String {
        let modifier = switch c.comparisonPredicateModifier {
        case .direct: ""
        case .any: "ANY "
        case .all: "ALL "
        }
        var symbol: String
        switch c.predicateOperatorType {
        case .lessThan: symbol = "<"
        case .lessThanOrEqualTo: symbol = "<="
        case .greaterThan: symbol = ">"
        case .greaterThanOrEqualTo: symbol = ">="
        case .equalTo: symbol = "=="
        case .notEqualTo: symbol = "!="
        case .matches: symbol = "MATCHES"
        case .like: symbol = "LIKE"
        case .beginsWith: symbol = "BEGINSWITH"
        case .endsWith: symbol = "ENDSWITH"
        case .in: symbol = "IN"
        case .contains: symbol = "CONTAINS"
        case .between: symbol = "BETWEEN"
        case .customSelector: symbol = c.customSelector?.name ?? "customSelector"
        }
        var flags = ""
        if c.options.contains(.caseInsensitive) { flags += "c" }
        if c.options.contains(.diacriticInsensitive) { flags += "d" }
        if c.options.contains(.normalized) { flags += "n" }
        if !flags.isEmpty { symbol += "[\(flags)]" }
        return "\(modifier)\(format(c.leftExpression)) \(symbol) \(format(c.rightExpression))"
    }

    // MARK: Expressions

    static func format(_ expression: NSExpression) -> String { format(expression, followed: false) }

    /// `expression` printed where `followed` says whether an arithmetic, set or
    /// postfix operator follows it at the same level. It matters for `$x :=
    /// value` only: the parser reads the value as far as it goes, so a followed
    /// assignment is parenthesised and an unfollowed one is not (parentheses
    /// the input did not have would nest deeper than the parser allows).
    private static func format(_ expression: NSExpression, followed: Bool) -> String {
        switch expression.kind {
        case .constant(let value): return constant(value)
        case .evaluatedObject: return "SELF"
        case .variable(let name): return "$" + name
        case .keyPath(let operand, let path):
            let escaped = path.split(separator: ".", omittingEmptySubsequences: false)
                .map { Keyword.isReserved(String($0)) ? "#" + $0 : String($0) }.joined(separator: ".")
            if case .evaluatedObject = operand.kind { return escaped }
            return postfixOperand(operand) + "." + escaped
        case .function(let name, let operand?, let arguments):
            let rest = arguments.map { ", " + format($0) }.joined()
            return "FUNCTION(\(format(operand)), \(constant(name))\(rest))"
        case .function(let name, nil, let arguments):
            if let negated = negation(expression) { return "-" + unaryOperand(negated, followed: followed) }
            if let infix = BuiltInFunction.infixOperator(name), arguments.count == 2 {
                return infixOperation(infix, arguments[0], arguments[1], followed: followed)
            }
            if name == "objectFrom:withIndex:", arguments.count == 2 {
                return postfixOperand(arguments[0]) + "[\(format(arguments[1]))]"
            }
            if name == "castObject:toType:", arguments.count == 2 {
                return "CAST(\(format(arguments[0])), \(format(arguments[1])))"
            }
            return "\(name)(\(arguments.map(format).joined(separator: ", ")))"
        case .unionSet(let l, let r): return "\(format(l, followed: true)) UNION \(setOperand(r, followed: followed))"
        case .intersectSet(let l, let r): return "\(format(l, followed: true)) INTERSECT \(setOperand(r, followed: followed))"
        case .minusSet(let l, let r): return "\(format(l, followed: true)) MINUS \(setOperand(r, followed: followed))"
        case .subquery(let collection, let variable, let predicate):
            return "SUBQUERY(\(format(collection)), $\(variable), \(format(predicate)))"
        case .aggregate(let items): return "{" + items.map(format).joined(separator: ", ") + "}"
        case .anyKey: return "ANYKEY"
        case .block(_, let arguments): return "BLOCK(\(arguments.map(format).joined(separator: ", ")))"
        case .conditional(let p, let t, let f): return "TERNARY(\(format(p)), \(format(t)), \(format(f)))"
        case .symbol(let keyword): return keyword.rawValue
        case .assignment(let name, let value):
            return followed ? "($\(name) := \(format(value)))" : "$\(name) := \(format(value))"
        }
    }

    /// The operand of a unary minus: the parser reads `-x` (x not a number
    /// literal) as `from:subtract:(0, x)`, so that tree prints as `-x`. Printed
    /// as `0 - (0 - x)` instead, a chain of n minuses would nest three levels
    /// per minus and outgrow the parser's depth limit, which counts one.
    private static func negation(_ e: NSExpression) -> NSExpression? {
        guard case .function("from:subtract:", nil, let arguments) = e.kind, arguments.count == 2,
              case .constant(let zero?) = arguments[0].kind, type(of: zero) == Int.self, zero as? Int == 0 else { return nil }
        return arguments[1]
    }

    /// What follows a unary minus: bare when the parser reads it back as the
    /// minus's operand (postfix expressions, another unary minus, constants
    /// other than numbers), else in parentheses (infix operations; number
    /// literals, which `-` would fold into a negative constant).
    private static func unaryOperand(_ e: NSExpression, followed: Bool) -> String {
        if negation(e) != nil { return format(e, followed: followed) }
        // A number literal would fold into a negative one, so `-(2)`; every
        // other constant reads back bare: a negative number keeps its own
        // minus (`--2` is -(-2)), nil, strings, dates and collections.
        if case .constant = e.kind {
            let text = format(e)
            return text.first.map { $0.isNumber || $0 == "." } == true ? "(\(text))" : text
        }
        return precedence(e) == nil ? format(e, followed: followed) : "(\(format(e)))"
    }

    /// Precedence of an expression printed as an infix operation, else nil.
    private static func precedence(_ e: NSExpression) -> Int? {
        if negation(e) != nil { return 4 } // a unary minus, as a negative number below
        return switch e.kind {
        case .function(let name, nil, let arguments) where arguments.count == 2: BuiltInFunction.infixOperator(name)?.precedence
        case .unionSet, .intersectSet, .minusSet: 0
        case .constant(let value):
            // A negative number prints with a leading minus, which binds like a unary operator.
            if let v = Values.normalized(value), Values.string(v) == nil, let n = NumericValue(v), n.double < 0 { 4 } else { nil }
        default: nil
        }
    }

    private static func infixOperation(_ op: (symbol: String, precedence: Int), _ left: NSExpression, _ right: NSExpression,
                                       followed: Bool) -> String {
        let rightAssociative = op.symbol == "**"
        let leftInParentheses = precedence(left).map { $0 < op.precedence || ($0 == op.precedence && rightAssociative) } ?? false
        let rightInParentheses = precedence(right).map { $0 < op.precedence || ($0 == op.precedence && !rightAssociative) } ?? false
        let l = leftInParentheses ? "(\(format(left)))" : format(left, followed: true)
        let r = rightInParentheses ? "(\(format(right)))" : format(right, followed: followed)
        return "\(l) \(op.symbol) \(r)"
    }

    /// The receiver of `.key` or `[index]`: bare when it is a primary expression.
    private static func postfixOperand(_ e: NSExpression) -> String {
        switch e.kind {
        case .variable, .evaluatedObject, .keyPath, .subquery, .aggregate: return format(e)
        case .function: return precedence(e) == nil ? format(e) : "(\(format(e)))"
        default: return "(\(format(e)))"
        }
    }

    private static func setOperand(_ e: NSExpression, followed: Bool) -> String {
        precedence(e) == 0 ? "(\(format(e)))" : format(e, followed: followed)
    }

    // MARK: Constants

    static func constant(_ value: Any?) -> String {
        guard let value = Values.normalized(value) else { return "nil" }
        if let string = Values.string(value) { return quoted(string) }
        if let number = NumericValue(value) { return self.number(number) }
        if let date = Values.date(value) { return "CAST(\(seconds(date.timeIntervalSinceReferenceDate)), \"NSDate\")" }
        if let elements = Collections.elements(of: value) {
            var printed = elements.map { constant($0) }
            // A set's iteration order differs between copies and runs; sorted, it prints the same each time.
            if !Collections.isOrdered(value) { printed.sort() }
            return "{" + printed.joined(separator: ", ") + "}"
        }
        if let expression = value as? NSExpression { return format(expression) }
        return String(describing: value)
    }

    private static func number(_ number: NumericValue) -> String {
        switch number {
        case .integer(let i): return "\(i)"
        case .double(let d):
            if d.isNaN { return "CAST(\"nan\", \"NSNumber\")" }
            if d.isInfinite { return d < 0 ? "-1e999" : "1e999" }
            // Apple prints NSNumber(2.0) as 2; the value, and so equality, is the same.
            if d.rounded() == d, abs(d) < 1e15 { return "\(Int(d))" }
            return "\(d)"
        }
    }

    /// Apple prints dates with `%f`; that keeps microseconds, so fall back to
    /// the shortest exact form when it would round.
    private static func seconds(_ interval: TimeInterval) -> String {
        // `%f` prints an infinite date as `inf`, which reads back as a key.
        guard interval.isFinite else { return number(.double(interval)) }
        let fixed = String(format: "%f", interval)
        return Double(fixed) == interval ? fixed : "\(interval)"
    }

    static func quoted(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u" + String(format: "%04X", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
