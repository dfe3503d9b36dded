/// An expression in a predicate: a constant, a key path, a variable, a function…
///
/// OpenCoreData's counterpart of Foundation's `NSExpression`, with Apple's names
/// and ``ExpressionType`` raw values. One class holds every kind (Apple uses a
/// class cluster); the kind decides which properties are meaningful, and reading
/// one that is not (``keyPath`` of a constant) stops the program as Apple raises.
/// Expressions are immutable, so they are safe to share between threads.
public final class NSExpression: NSObject, NSCopying, @unchecked Sendable {
    /// The kind of an expression; raw values are Apple's `NSExpression.ExpressionType`.
    public enum ExpressionType: UInt, Sendable {
        /// A constant (`42`, `"text"`, `%@`), the object being evaluated (`SELF`), a variable (`$name`),
        /// a key path (`album.title`), a function call (`sum:`, `now()`, arithmetic).
        case constantValue = 0, evaluatedObject = 1, variable = 2, keyPath = 3, function = 4
        /// The set operations `UNION`, `INTERSECT` and `MINUS` of two collections, a `SUBQUERY(…)`, and an
        /// aggregate literal (`{1, 2, 3}`).
        case unionSet = 5, intersectSet = 6, minusSet = 7, subquery = 13, aggregate = 14
        /// `ANYKEY` (any value of a dictionary), a block built in code (`NSExpression(block:arguments:)`,
        /// called at each evaluation), and `TERNARY(condition, a, b)`.
        case anyKey = 15, block = 19, conditional = 20
    }

    /// What the expression is, with its parts. Shared with the parser, printer and evaluator.
    enum Kind {
        case constant(Any?)
        case evaluatedObject
        case variable(String)
        /// `operand.keyPath`; the operand is SELF for plain key paths.
        case keyPath(NSExpression, String)
        /// A built-in function by Apple's selector name (`sum:`, `add:to:`, `now`), or
        /// `FUNCTION(operand, 'selector', …)` when `operand` is non-nil.
        case function(String, operand: NSExpression?, [NSExpression])
        case unionSet(NSExpression, NSExpression)
        case intersectSet(NSExpression, NSExpression)
        case minusSet(NSExpression, NSExpression)
        case subquery(NSExpression, variable: String, NSPredicate)
        case aggregate([NSExpression])
        case anyKey
        case block((Any?, [NSExpression], NSMutableDictionary?) -> Any, [NSExpression])
        case conditional(NSPredicate, NSExpression, NSExpression)
        /// `FIRST`, `LAST` or `SIZE` inside `collection[…]`.
        case symbol(Keyword)
        /// `$name := expression`.
        case assignment(String, NSExpression)
    }

    let kind: Kind

    init(kind: Kind) {
        self.kind = kind
        super.init()
    }

    // MARK: Creating expressions

    /// An expression that always evaluates to `value` (`nil` prints as `nil`).
    public convenience init(forConstantValue value: Any?) { self.init(kind: .constant(value)) }

    /// An expression for the object being evaluated (`SELF`).
    public static func expressionForEvaluatedObject() -> NSExpression { NSExpression(kind: .evaluatedObject) }

    /// An expression for the value of a substitution variable (`$name`).
    public convenience init(forVariable name: String) { self.init(kind: .variable(name)) }

    /// An expression reading `keyPath` from the evaluated object.
    public convenience init(forKeyPath keyPath: String) {
        self.init(kind: .keyPath(NSExpression(kind: .evaluatedObject), keyPath))
    }

    /// An expression calling a built-in function by Apple's name (`"sum:"`, `"modulus:by:"`, `"now"`).
    ///
    /// Unknown names are accepted here and fail when evaluated, as Apple's do.
    public convenience init(forFunction name: String, arguments: [Any]) {
        self.init(kind: .function(name, operand: nil, arguments.map(NSExpression.wrap)))
    }

    /// `FUNCTION(target, selectorName, arguments…)`: a method called on the target's value.
    ///
    /// Linux has no Objective-C runtime; see ``registerFunction(_:_:)`` for the
    /// selectors that can be evaluated.
    public convenience init(forFunction target: NSExpression, selectorName name: String, arguments: [Any]?) {
        self.init(kind: .function(name, operand: target, (arguments ?? []).map(NSExpression.wrap)))
    }

    /// The union of two collection expressions.
    public convenience init(forUnionSet left: NSExpression, with right: NSExpression) {
        self.init(kind: .unionSet(left, right))
    }

    /// The intersection of two collection expressions.
    public convenience init(forIntersectSet left: NSExpression, with right: NSExpression) {
        self.init(kind: .intersectSet(left, right))
    }

    /// The elements of `left` that are not in `right`.
    public convenience init(forMinusSet left: NSExpression, with right: NSExpression) {
        self.init(kind: .minusSet(left, right))
    }

    /// `SUBQUERY(collection, $variable, predicate)`: the elements of the collection
    /// for which the predicate holds, each bound to `$variable` in turn.
    public convenience init(forSubquery collection: NSExpression, usingIteratorVariable variable: String, predicate: NSPredicate) {
        self.init(kind: .subquery(collection, variable: variable, predicate))
    }

    /// `{a, b, …}`: a collection of expressions (`subexpressions` may also be an `NSArray`).
    public convenience init(forAggregate subexpressions: [NSExpression]) { self.init(kind: .aggregate(subexpressions)) }

    /// `ANYKEY`: any key of the evaluated object (meaningful for dictionaries here).
    public static func expressionForAnyKey() -> NSExpression { NSExpression(kind: .anyKey) }

    /// An expression computed by a closure from the evaluated object, the argument
    /// expressions, and the evaluation context (as Apple's, the closure is not
    /// required to be `Sendable`; share such expressions between threads only
    /// if the closure is safe to call from several).
    public convenience init(block: @escaping (Any?, [NSExpression], NSMutableDictionary?) -> Any, arguments: [NSExpression]?) {
        self.init(kind: .block(block, arguments ?? []))
    }

    /// The same as ``init(block:arguments:)``, under Apple's other Swift name.
    public convenience init(forBlock block: @escaping (Any?, [NSExpression], NSMutableDictionary?) -> Any, arguments: [NSExpression]?) {
        self.init(block: block, arguments: arguments)
    }

    /// `TERNARY(predicate, trueExpression, falseExpression)`.
    public convenience init(forConditional predicate: NSPredicate, trueExpression: NSExpression, falseExpression: NSExpression) {
        self.init(kind: .conditional(predicate, trueExpression, falseExpression))
    }

    /// Parses an expression from a format string, substituting `%@`/`%K`/`%d`… arguments.
    ///
    /// Stops the program with ``PredicateSyntaxError/message`` when the string does
    /// not parse, as Apple raises; use ``parse(_:arguments:)`` for text from users.
    public convenience init(format: String, _ arguments: Any...) {
        self.init(format: format, argumentArray: arguments)
    }

    /// Parses an expression from a format string with arguments from an array.
    public convenience init(format: String, argumentArray arguments: [Any]) {
        do {
            self.init(kind: try NSExpression.parse(format, arguments: arguments).kind)
        } catch {
            preconditionFailure(error.message)
        }
    }

    /// Parses an expression, throwing where Apple would raise.
    ///
    /// Cost: linear in the length of the format string.
    public static func parse(_ format: String, arguments: [Any] = []) throws(PredicateSyntaxError) -> NSExpression {
        var parser = try Parser(format: format, arguments: arguments)
        return try parser.parseWholeExpression()
    }

    static func wrap(_ value: Any) -> NSExpression {
        (value as? NSExpression) ?? NSExpression(forConstantValue: value)
    }

    // MARK: Reading the parts

    /// Which kind of expression this is.
    public var expressionType: ExpressionType {
        switch kind {
        case .constant, .symbol: .constantValue
        case .evaluatedObject: .evaluatedObject
        case .variable, .assignment: .variable
        case .keyPath: .keyPath
        case .function: .function
        case .unionSet: .unionSet
        case .intersectSet: .intersectSet
        case .minusSet: .minusSet
        case .subquery: .subquery
        case .aggregate: .aggregate
        case .anyKey: .anyKey
        case .block: .block
        case .conditional: .conditional
        }
    }

    private func wrongKind(_ property: String) -> Never {
        preconditionFailure("\(property) is not defined for an expression of type \(expressionType): \(description)")
    }

    /// The value of a constant expression.
    public var constantValue: Any? {
        switch kind {
        case .constant(let value): value
        case .symbol(let keyword): keyword.rawValue
        default: wrongKind("constantValue")
        }
    }

    /// The key path of a key-path expression.
    public var keyPath: String {
        guard case .keyPath(_, let path) = kind else { wrongKind("keyPath") }
        return path
    }

    /// The variable name of a variable expression (without `$`).
    public var variable: String {
        switch kind {
        case .variable(let name), .assignment(let name, _): name
        case .subquery(_, let name, _): name
        default: wrongKind("variable")
        }
    }

    /// The function name (`"sum:"`) or selector name of a function expression.
    public var function: String {
        guard case .function(let name, _, _) = kind else { wrongKind("function") }
        return name
    }

    /// The arguments of a function or block expression.
    public var arguments: [NSExpression]? {
        switch kind {
        case .function(_, _, let arguments), .block(_, let arguments): arguments
        default: wrongKind("arguments")
        }
    }

    /// The receiver of a key path (SELF, or `$x` in `$x.name`) or of `FUNCTION(…)`.
    public var operand: NSExpression {
        switch kind {
        case .keyPath(let operand, _): return operand
        case .function(_, let operand?, _): return operand
        case .function: return .expressionForEvaluatedObject()
        default: wrongKind("operand")
        }
    }

    /// The collection of an aggregate (`[NSExpression]`) or subquery (its collection expression).
    public var collection: Any {
        switch kind {
        case .aggregate(let items): items
        case .subquery(let collection, _, _): collection
        default: wrongKind("collection")
        }
    }

    /// The predicate of a subquery or conditional expression.
    public var predicate: NSPredicate {
        switch kind {
        case .subquery(_, _, let predicate), .conditional(let predicate, _, _): predicate
        default: wrongKind("predicate")
        }
    }

    /// The left side of a union, intersect or minus set expression.
    public var left: NSExpression {
        switch kind {
        case .unionSet(let l, _), .intersectSet(let l, _), .minusSet(let l, _): l
        default: wrongKind("left")
        }
    }

    /// The right side of a union, intersect or minus set expression.
    public var right: NSExpression {
        switch kind {
        case .unionSet(_, let r), .intersectSet(_, let r), .minusSet(_, let r): r
        default: wrongKind("right")
        }
    }

    /// The expression a conditional yields when its predicate holds.
    public var `true`: NSExpression {
        guard case .conditional(_, let t, _) = kind else { wrongKind("true") }
        return t
    }

    /// The expression a conditional yields when its predicate does not hold.
    public var `false`: NSExpression {
        guard case .conditional(_, _, let f) = kind else { wrongKind("false") }
        return f
    }

    /// The closure of a block expression.
    public var expressionBlock: (Any?, [NSExpression], NSMutableDictionary?) -> Any {
        guard case .block(let block, _) = kind else { wrongKind("expressionBlock") }
        return block
    }

    // MARK: Evaluating

    /// The value of the expression for `object`; `context` supplies `$variables`
    /// and receives `$x := …` assignments.
    ///
    /// Stops the program with a message when the expression cannot be evaluated
    /// (unknown function, unbound variable), as Apple raises; see
    /// ``evaluate(with:variables:)`` for a throwing variant.
    public func expressionValue(with object: Any?, context: NSMutableDictionary?) -> Any? {
        do {
            let scope = EvaluationScope(context: context)
            return try ExpressionEvaluator.value(of: self, object: object, scope: scope)
        } catch {
            preconditionFailure(error.message)
        }
    }

    /// The value of the expression for `object`, throwing where Apple would raise.
    public func evaluate(with object: Any?, variables: [String: Any] = [:]) throws(PredicateEvaluationError) -> Any? {
        try ExpressionEvaluator.value(of: self, object: object, scope: EvaluationScope(variables: variables))
    }

    /// A copy with `$variables` replaced by constants from `variables`; variables
    /// not in the dictionary stay as they are.
    public func withSubstitutionVariables(_ variables: [String: Any]) -> NSExpression {
        Substitution(variables: variables).expression(self)
    }

    /// Does nothing: OpenCoreData never archives expressions, so there is no
    /// "evaluation disabled after unarchiving" state to leave. Kept for Apple's API.
    public func allowEvaluation() {}

    // MARK: NSObject

    /// The expression in format-string syntax; parses back to an equal expression.
    public override var description: String { PredicateFormatter.format(self) }

    /// Structural equality: same kind and equal parts; constants compare as
    /// predicates compare values (so `1` equals `1.0`).
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSExpression else { return false }
        return self === other || StructuralEquality.equal(self, other)
    }

    /// A hash consistent with ``isEqual(_:)``, from the expression type.
    public override var hash: Int { Int(expressionType.rawValue) }

    /// Expressions are immutable: a copy is the expression itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }
}
