/// The functions `NSExpression(forFunction:arguments:)` knows, by Apple's names.
///
/// Source: Apple's `NSExpression` documentation, "Function Expressions" (the
/// list in `init(forFunction:arguments:)`), and H-EXPR. Format strings may spell
/// one-argument functions without the colon (`sum(…)`, `now()`); keyword-style
/// names keep theirs (`modulus:by:(10, 3)`).
struct BuiltInFunction: Sendable {
    /// Apple's selector-style name: `"sum:"`, `"add:to:"`, `"now"`.
    let name: String
    /// How many arguments the function takes.
    let arity: Int
    /// Whether the one argument is a collection (`sum:`, `max:`…).
    var takesCollection = false

    static let all: [BuiltInFunction] = {
        let collection = ["sum:", "count:", "min:", "max:", "average:", "median:", "mode:", "stddev:", "distinct:"]
        let unary = ["sqrt:", "log:", "ln:", "exp:", "floor:", "ceiling:", "abs:", "trunc:", "uppercase:", "lowercase:",
                     "length:", "onesComplement:", "noindex:", "random:", "canonical:"]
        let binary = ["add:to:", "from:subtract:", "multiply:by:", "divide:by:", "modulus:by:", "raise:toPower:",
                      "bitwiseAnd:with:", "bitwiseOr:with:", "bitwiseXor:with:", "leftshift:by:", "rightshift:by:",
                      "castObject:toType:", "objectFrom:withIndex:", "distanceToLocation:fromLocation:"]
        return collection.map { BuiltInFunction(name: $0, arity: 1, takesCollection: true) }
            + unary.map { BuiltInFunction(name: $0, arity: 1) }
            + binary.map { BuiltInFunction(name: $0, arity: 2) }
            + [BuiltInFunction(name: "now", arity: 0), BuiltInFunction(name: "random", arity: 0)]
    }()

    private static let byLowercasedName: [String: BuiltInFunction] = {
        var names: [String: BuiltInFunction] = [:]
        for function in all {
            names[function.name.lowercased()] = function
            if function.arity == 1, function.name.hasSuffix(":") { names[String(function.name.lowercased().dropLast())] = function }
        }
        names["randomn"] = names["random:"]
        return names
    }()

    /// The function spelled `name` in a format string, ignoring case.
    static func named(_ name: String) -> BuiltInFunction? { byLowercasedName[name.lowercased()] }

    /// Whether `name` is printed as an infix operator (`+ - * / **`), and its precedence.
    static func infixOperator(_ name: String) -> (symbol: String, precedence: Int)? {
        switch name {
        case "add:to:": ("+", 1)
        case "from:subtract:": ("-", 1)
        case "multiply:by:": ("*", 2)
        case "divide:by:": ("/", 2)
        case "raise:toPower:": ("**", 3)
        default: nil
        }
    }
}
