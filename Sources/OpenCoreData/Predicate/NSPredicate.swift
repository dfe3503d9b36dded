/// A condition that objects can be tested against: OpenCoreData's `NSPredicate`.
///
/// Created from a format string (`NSPredicate(format: "age > %d", 18)`), from a
/// constant (`NSPredicate(value: true)`), from a closure, or built by hand as an
/// ``NSComparisonPredicate`` or ``NSCompoundPredicate``. Parsing returns one of
/// those subclasses, as Apple's class cluster does. Predicates are immutable
/// after construction and so may be shared between threads.
///
/// In a file that imports both Foundation and OpenCoreData, `NSPredicate`
/// names this class: the `OpenCoreData` module re-exports it by name, and a
/// scoped import takes precedence over Foundation's whole-module one.
public class NSPredicate: NSObject, NSCopying, @unchecked Sendable {
    enum Storage {
        case value(Bool)
        case block((Any?, [String: Any]?) -> Bool)
        /// Comparison and compound predicates keep their parts in the subclass.
        case subclass
    }

    let storage: Storage

    init(storage: Storage) {
        self.storage = storage
        super.init()
    }

    /// A predicate that always evaluates to `value` (`TRUEPREDICATE` / `FALSEPREDICATE`).
    public init(value: Bool) {
        storage = .value(value)
        super.init()
    }

    /// A predicate that evaluates a closure with the object and the substitution variables.
    ///
    /// Block predicates cannot be printed as a parseable format string nor
    /// translated to SQL, as with Apple's.
    public init(block: @escaping (Any?, [String: Any]?) -> Bool) {
        storage = .block(block)
        super.init()
    }

    /// Parses a predicate, throwing where Apple's `init(format:)` would raise.
    ///
    /// Use this for text that comes from users. Cost: linear in the length of
    /// the format string; nesting deeper than 100 levels is a syntax error.
    public static func parse(_ format: String, arguments: [Any] = []) throws(PredicateSyntaxError) -> NSPredicate {
        var parser = try Parser(format: format, arguments: arguments)
        return try parser.parseWholePredicate()
    }

    /// The predicate in format-string syntax, which parses back to an equal predicate
    /// (except block predicates, printed as `BLOCKPREDICATE(…)`).
    public var predicateFormat: String { PredicateFormatter.format(self) }

    /// Whether `object` satisfies the predicate.
    ///
    /// Stops the program with a message when the predicate cannot be evaluated
    /// (unbound `$VARIABLE`, comparing a string with a date, unsupported function),
    /// as Apple raises; use ``evaluateThrowing(with:substitutionVariables:)`` to get an error.
    public func evaluate(with object: Any?) -> Bool {
        evaluate(with: object, substitutionVariables: nil)
    }

    /// Whether `object` satisfies the predicate with `$VARIABLES` taken from `bindings`.
    public func evaluate(with object: Any?, substitutionVariables bindings: [String: Any]?) -> Bool {
        do {
            return try evaluateThrowing(with: object, substitutionVariables: bindings)
        } catch {
            preconditionFailure(error.message)
        }
    }

    /// Whether `object` satisfies the predicate, throwing where Apple would raise.
    ///
    /// Cost: one walk of the predicate tree; key paths through to-many
    /// relationships visit every related object.
    public func evaluateThrowing(with object: Any?, substitutionVariables bindings: [String: Any]? = nil) throws(PredicateEvaluationError) -> Bool {
        try evaluate(object: object, scope: EvaluationScope(variables: bindings ?? [:]))
    }

    /// Evaluation proper; subclasses override it.
    func evaluate(object: Any?, scope: EvaluationScope) throws(PredicateEvaluationError) -> Bool {
        switch storage {
        case .value(let value): return value
        case .block(let block): return block(object, scope.variables)
        case .subclass: preconditionFailure("\(type(of: self)) must override evaluate(object:scope:)")
        }
    }

    /// Does nothing: OpenCoreData never archives predicates, so there is no
    /// "evaluation disabled after unarchiving" state to leave. Kept for Apple's API.
    public func allowEvaluation() {}

    // MARK: NSObject

    /// ``predicateFormat``.
    public override var description: String { predicateFormat }

    /// Structural equality: same kind of predicate with equal parts; block
    /// predicates are equal only to themselves.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSPredicate else { return false }
        return self === other || StructuralEquality.equal(self, other)
    }

    /// A hash consistent with ``isEqual(_:)``.
    public override var hash: Int { StructuralEquality.hash(self) }

    /// Predicates are immutable: a copy is the predicate itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }
}

/// Lets `NSPredicate`'s format initialisers return a comparison or compound
/// predicate, as Apple's class cluster does: an initialiser in a protocol
/// extension may assign `self`. Not meant to be adopted by anything else.
public protocol _PredicateFactory {}

extension NSPredicate: _PredicateFactory {}

extension _PredicateFactory where Self: NSPredicate {
    /// Parses a format string, substituting `%@`, `%K`, `%d`… with the arguments in order.
    ///
    /// Arguments are `Any` so code written for Apple's `CVarArg...` compiles
    /// unchanged. Stops the program with ``PredicateSyntaxError/message`` when the
    /// string does not parse, as Apple raises; use ``NSPredicate/parse(_:arguments:)``
    /// for text from users.
    public init(format predicateFormat: String, _ arguments: Any...) {
        self.init(format: predicateFormat, argumentArray: arguments)
    }

    /// Parses a format string with arguments taken from an array.
    public init(format predicateFormat: String, argumentArray arguments: [Any]?) {
        let parsed: NSPredicate
        do {
            parsed = try NSPredicate.parse(predicateFormat, arguments: arguments ?? [])
        } catch {
            preconditionFailure(error.message)
        }
        guard let typed = parsed as? Self else {
            preconditionFailure("\"\(predicateFormat)\" parses to \(type(of: parsed)), not \(Self.self)")
        }
        self = typed
    }

    /// A copy with `$VARIABLES` replaced by the values in `variables`.
    ///
    /// Apple requires a value for every variable; variables missing from the
    /// dictionary are left in place here, so evaluating the copy reports them.
    /// Variables bound by a `SUBQUERY` are never substituted.
    public func withSubstitutionVariables(_ variables: [String: Any]) -> Self {
        Substitution(variables: variables).predicate(self) as! Self
    }
}
