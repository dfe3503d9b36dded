/// A comparison of two expressions: `age >= 18`, `ANY tags.name BEGINSWITH[c] "sw"`.
///
/// Raw values of ``Operator``, ``Modifier`` and ``Options`` equal Apple's, so
/// they survive archiving and SQL translation the way Core Data's do.
public final class NSComparisonPredicate: NSPredicate, @unchecked Sendable {
    /// The comparison made; raw values are Apple's.
    public enum Operator: UInt, Sendable {
        /// `<`, `<=`, `>` and `>=`: numbers by value, dates by time, strings by Unicode order (with
        /// `[c]`/`[d]` folded).
        case lessThan = 0, lessThanOrEqualTo = 1, greaterThan = 2, greaterThanOrEqualTo = 3
        /// `==`, `!=`; `MATCHES` (an ICU-style regular expression that must match the whole string),
        /// `LIKE` (`*` and `?` wildcards), `BEGINSWITH`, `ENDSWITH`.
        case equalTo = 4, notEqualTo = 5, matches = 6, like = 7, beginsWith = 8, endsWith = 9
        /// `IN` (the left value is an element of the right collection, or a substring of the right
        /// string), a custom selector (Apple's, for predicates built in code; not evaluated here),
        /// `CONTAINS` (the right value is an element or substring of the left) and `BETWEEN` (within a
        /// two-element range, both ends included).
        case `in` = 10, customSelector = 11, contains = 99, between = 100
    }

    /// How the left side is used: as one value, or element by element (`ANY`, `ALL`).
    public enum Modifier: UInt, Sendable {
        /// `direct` compares the left value itself; `all` (`ALL`) requires every element of a collection
        /// to match and `any` (`ANY`, `SOME`) at least one.
        case direct = 0, all = 1, any = 2
    }

    /// String comparison options, written `[c]`, `[d]`, `[n]` in format strings.
    public struct Options: OptionSet, Sendable, Hashable {
        /// Apple's bit values, combined.
        public let rawValue: UInt
        /// Creates options from Apple's bit values.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// `[c]`: compare case-insensitively (Unicode case folding).
        public static let caseInsensitive = Options(rawValue: 1)
        /// `[d]`: ignore diacritics (`é` equals `e`).
        public static let diacriticInsensitive = Options(rawValue: 2)
        /// `[n]`: the strings are already normalized, so comparison may skip it.
        public static let normalized = Options(rawValue: 4)
    }

    /// The left side.
    public let leftExpression: NSExpression
    /// The right side.
    public let rightExpression: NSExpression
    /// The comparison made.
    public let predicateOperatorType: Operator
    /// Whether the left side is compared directly or element by element.
    public let comparisonPredicateModifier: Modifier
    /// String comparison options.
    public let options: Options
    /// The selector of a `.customSelector` comparison (`UTI-CONFORMS-TO` and `UTI-EQUALS` here).
    public let customSelector: Selector?

    /// A comparison of two expressions.
    public init(leftExpression: NSExpression, rightExpression: NSExpression, modifier: Modifier, type: Operator, options: Options = []) {
        self.leftExpression = leftExpression
        self.rightExpression = rightExpression
        self.comparisonPredicateModifier = modifier
        self.predicateOperatorType = type
        self.options = options
        self.customSelector = nil
        super.init(storage: .subclass)
    }

    /// A comparison by a named method. Linux cannot send arbitrary selectors;
    /// `UTI-CONFORMS-TO` and `UTI-EQUALS` evaluate, other selectors fail when evaluated.
    public init(leftExpression: NSExpression, rightExpression: NSExpression, customSelector selector: Selector, modifier: Modifier = .direct) {
        self.leftExpression = leftExpression
        self.rightExpression = rightExpression
        self.comparisonPredicateModifier = modifier
        self.predicateOperatorType = .customSelector
        self.options = []
        self.customSelector = selector
        super.init(storage: .subclass)
    }

    /// Evaluates both sides, then compares; with `ANY`/`ALL` the left side must be
    /// a collection (nil counts as empty), and `ALL` of an empty collection is true.
    override func evaluate(object: Any?, scope: EvaluationScope) throws(PredicateEvaluationError) -> Bool {
        let left = try ExpressionEvaluator.value(of: leftExpression, object: object, scope: scope)
        let right = try ExpressionEvaluator.value(of: rightExpression, object: object, scope: scope)
        if comparisonPredicateModifier == .direct {
            return try compare(left, right)
        }
        let elements: [Any]
        if let value = left {
            guard let collection = Collections.elements(of: value) else {
                throw PredicateEvaluationError("The left hand side for an ALL or ANY operator must be either an NSArray or an NSSet: \(predicateFormat)")
            }
            elements = collection
        } else {
            elements = []
        }
        if comparisonPredicateModifier == .any {
            for element in elements where try compare(Values.normalized(element), right) { return true }
            return false
        }
        for element in elements where try !compare(Values.normalized(element), right) { return false }
        return true
    }

    /// The operator applied to one left value.
    private func compare(_ left: Any?, _ right: Any?) throws(PredicateEvaluationError) -> Bool {
        try ValueComparison.evaluate(predicateOperatorType, left, right, options: options,
                                     customSelector: customSelector, predicate: self)
    }
}
