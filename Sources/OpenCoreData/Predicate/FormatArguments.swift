/// The `%@`, `%K`, `%d`… arguments of a format string, consumed in order.
///
/// Apple takes C varargs; OpenCoreData takes `Any` values, so each conversion
/// checks that its argument has a fitting type and reports the argument's
/// position when it does not (Apple would read garbage memory instead).
struct FormatArguments {
    private let values: [Any]
    private var next = 0

    init(_ values: [Any]) { self.values = values }

    /// The expression for the conversion `spec` (`"@"`, `"K"`, `"ld"`, `"f"`…) at `token`.
    mutating func expression(for spec: String, token: Token, format: String) throws(PredicateSyntaxError) -> NSExpression {
        func fail(_ expected: String, _ found: String) -> PredicateSyntaxError {
            PredicateSyntaxError(format: format, utf16Offset: token.offset, expected: expected, found: found)
        }
        guard let conversion = spec.last else { throw fail("a format specifier", "'%'") }
        if conversion == "%" {
            throw fail("an expression ('%%' stands for a percent sign, which is not a token outside strings)", "'%%'")
        }
        guard next < values.count else {
            throw fail("argument \(next + 1) for '%\(spec)'", "only \(values.count) argument\(values.count == 1 ? "" : "s")")
        }
        let value = values[next]
        next += 1
        // Made only for an error: a type's name costs ~9k instructions.
        let argument = next
        func described() -> String { "a value of type \(type(of: value)) (argument \(argument))" }
        switch conversion {
        case "@":
            let constant = FormatArguments.unwrapNull(value)
            // Only an object can be a predicate or an expression: a cast of any other value (an array of names)
            // to a class bridged it to an object first (~590,000 instructions the first time in a process).
            if let object = constant, type(of: object) is AnyObject.Type {
                if object is NSPredicate { throw fail("an expression value for '%@', not a predicate", described()) }
                // As in Foundation, an expression argument stands for itself, not for a constant holding it.
                if let expression = object as? NSExpression { return expression }
            }
            return NSExpression(forConstantValue: constant)
        case "K":
            guard let key = value as? String ?? (value as? NSString).map({ String($0) }) else {
                throw fail("a key path string for '%K'", described())
            }
            // An empty key could only fail later, inside an object's key-value coding.
            guard !key.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) else {
                throw fail("a key path without empty keys for '%K'", "\"\(key)\" (argument \(next))")
            }
            guard Parser.keyCount(key) <= Parser.maximumKeyPathKeys else {
                throw fail("a key path of at most \(Parser.maximumKeyPathKeys) keys for '%K'", "\(Parser.keyCount(key)) keys (argument \(next))")
            }
            return NSExpression(forKeyPath: key)
        case "s", "S":
            guard let string = value as? String ?? (value as? NSString).map({ String($0) }) else {
                throw fail("a string for '%\(spec)'", described())
            }
            return NSExpression(forConstantValue: string)
        case "c", "C":
            if let string = value as? String, string.count == 1 { return NSExpression(forConstantValue: string) }
            guard let code = NumericValue(value)?.integer, let scalar = Unicode.Scalar(UInt32(truncatingIfNeeded: code)) else {
                throw fail("a character for '%\(spec)'", described())
            }
            return NSExpression(forConstantValue: String(Character(scalar)))
        case "f", "F", "e", "E", "g", "G", "a", "A":
            guard let number = NumericValue(value) else { throw fail("a number for '%\(spec)'", described()) }
            return NSExpression(forConstantValue: number.double)
        case "p":
            throw fail("a conversion other than '%p' (pointers have no value on Linux)", "'%p'")
        default:  // d i o u x X D U O
            guard let number = NumericValue(value), let integer = number.integer else {
                throw fail("an integer for '%\(spec)'", described())
            }
            return NSExpression(forConstantValue: integer)
        }
    }

    /// `NSNull` and `nil` wrapped in `Any` both mean NULL.
    static func unwrapNull(_ value: Any) -> Any? { Values.normalized(value) }
}
