/// `AND`, `OR` and `NOT` of other predicates.
///
/// An AND of no subpredicates is true and an OR of none is false (Apple's
/// NSCompoundPredicate overview); a NOT has exactly one subpredicate.
public final class NSCompoundPredicate: NSPredicate, @unchecked Sendable {
    /// How the subpredicates combine; raw values are Apple's.
    public enum LogicalType: UInt, Sendable {
        /// `NOT` negates its one subpredicate; `AND` is true when every subpredicate is (and for none);
        /// `OR` when at least one is (false for none).
        case not = 0, and = 1, or = 2
    }

    /// How the subpredicates combine.
    public let compoundPredicateType: LogicalType
    /// The predicates combined, as `NSPredicate`s (typed `[Any]` as in Apple's API).
    public var subpredicates: [Any] { predicates }

    let predicates: [NSPredicate]

    /// Combines `subpredicates`; a `.not` predicate uses only the first.
    public init(type: LogicalType, subpredicates: [NSPredicate]) {
        precondition(type != .not || subpredicates.count == 1, "a NOT predicate takes exactly one subpredicate")
        compoundPredicateType = type
        predicates = subpredicates
        super.init(storage: .subclass)
    }

    /// True when every subpredicate is.
    public convenience init(andPredicateWithSubpredicates subpredicates: [NSPredicate]) {
        self.init(type: .and, subpredicates: subpredicates)
    }

    /// True when any subpredicate is.
    public convenience init(orPredicateWithSubpredicates subpredicates: [NSPredicate]) {
        self.init(type: .or, subpredicates: subpredicates)
    }

    /// True when `predicate` is false.
    public convenience init(notPredicateWithSubpredicate predicate: NSPredicate) {
        self.init(type: .not, subpredicates: [predicate])
    }

    /// Short-circuits: AND stops at the first false subpredicate, OR at the first true.
    override func evaluate(object: Any?, scope: EvaluationScope) throws(PredicateEvaluationError) -> Bool {
        switch compoundPredicateType {
        case .not:
            return try !predicates[0].evaluate(object: object, scope: scope)
        case .and:
            for p in predicates where try !p.evaluate(object: object, scope: scope) { return false }
            return true
        case .or:
            for p in predicates where try p.evaluate(object: object, scope: scope) { return true }
            return false
        }
    }
}
