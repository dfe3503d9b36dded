/// Equality and hashing of predicate and expression trees, for `isEqual` and `hash`.
///
/// Two trees are equal when they have the same shape and equal parts;
/// constants compare as predicates compare values, so `1`, `1.0` and `YES` are
/// equal constants (as equal `NSNumber`s are in Apple's). Block predicates and
/// block expressions are equal only to themselves.
enum StructuralEquality {
    static func equal(_ a: NSPredicate, _ b: NSPredicate) -> Bool {
        if a === b { return true }
        switch (a, b) {
        case let (x as NSComparisonPredicate, y as NSComparisonPredicate):
            return x.predicateOperatorType == y.predicateOperatorType
                && x.comparisonPredicateModifier == y.comparisonPredicateModifier
                && x.options == y.options && x.customSelector == y.customSelector
                && equal(x.leftExpression, y.leftExpression) && equal(x.rightExpression, y.rightExpression)
        case let (x as NSCompoundPredicate, y as NSCompoundPredicate):
            return x.compoundPredicateType == y.compoundPredicateType && x.predicates.count == y.predicates.count
                && zip(x.predicates, y.predicates).allSatisfy { equal($0, $1) }
        case (is NSComparisonPredicate, _), (is NSCompoundPredicate, _), (_, is NSComparisonPredicate), (_, is NSCompoundPredicate):
            return false
        default:
            if case .value(let x) = a.storage, case .value(let y) = b.storage { return x == y }
            return false
        }
    }

    static func equal(_ a: NSExpression, _ b: NSExpression) -> Bool {
        if a === b { return true }
        switch (a.kind, b.kind) {
        case let (.constant(x), .constant(y)):
            return constantsEqual(x, y)
        case (.evaluatedObject, .evaluatedObject), (.anyKey, .anyKey): return true
        case let (.variable(x), .variable(y)): return x == y
        case let (.keyPath(o1, p1), .keyPath(o2, p2)): return p1 == p2 && equal(o1, o2)
        case let (.function(n1, o1, a1), .function(n2, o2, a2)):
            guard n1 == n2, a1.count == a2.count, (o1 == nil) == (o2 == nil) else { return false }
            if let o1, let o2, !equal(o1, o2) { return false }
            return zip(a1, a2).allSatisfy { equal($0, $1) }
        case let (.unionSet(l1, r1), .unionSet(l2, r2)), let (.intersectSet(l1, r1), .intersectSet(l2, r2)),
             let (.minusSet(l1, r1), .minusSet(l2, r2)):
            return equal(l1, l2) && equal(r1, r2)
        case let (.subquery(c1, v1, p1), .subquery(c2, v2, p2)):
            return v1 == v2 && equal(c1, c2) && equal(p1, p2)
        case let (.aggregate(i1), .aggregate(i2)):
            return i1.count == i2.count && zip(i1, i2).allSatisfy { equal($0, $1) }
        case let (.aggregate(items), .constant(value?)), let (.constant(value?), .aggregate(items)):
            // A `%@` array prints as `{…}` and reads back as an aggregate of constants.
            guard let elements = Collections.elements(of: value), elements.count == items.count else { return false }
            guard Collections.isOrdered(value) else {
                // A set has no order of its own (each copy of a Swift set may
                // iterate differently): every item must match a distinct element.
                var unmatched = elements.map { NSExpression(forConstantValue: $0) }
                for item in items {
                    guard let match = unmatched.firstIndex(where: { equal(item, $0) }) else { return false }
                    unmatched.remove(at: match)
                }
                return true
            }
            return zip(items, elements).allSatisfy { equal($0, NSExpression(forConstantValue: $1)) }
        case let (.conditional(p1, t1, f1), .conditional(p2, t2, f2)):
            return equal(p1, p2) && equal(t1, t2) && equal(f1, f2)
        case let (.symbol(x), .symbol(y)): return x == y
        case let (.assignment(n1, v1), .assignment(n2, v2)): return n1 == n2 && equal(v1, v2)
        default: return false
        }
    }

    /// Constants are equal when their values are, and both are or are not strings
    /// (so `"1"` and `1` differ, as they print differently).
    private static func constantsEqual(_ x: Any?, _ y: Any?) -> Bool {
        let x = Values.normalized(x), y = Values.normalized(y)
        if let x, let y, (Values.string(x) == nil) != (Values.string(y) == nil) { return false }
        return ValueComparison.equal(x, y)
    }

    /// A hash from the tree's shape and names (never from constant values, which
    /// compare across types).
    static func hash(_ predicate: NSPredicate) -> Int {
        var hasher = Hasher()
        switch predicate {
        case let c as NSComparisonPredicate:
            hasher.combine(c.predicateOperatorType)
            hasher.combine(c.comparisonPredicateModifier)
            hasher.combine(shape(c.leftExpression))
            hasher.combine(shape(c.rightExpression))
        case let c as NSCompoundPredicate:
            hasher.combine(c.compoundPredicateType)
            hasher.combine(c.predicates.count)
            for p in c.predicates.prefix(4) { hasher.combine(hash(p)) }
        default:
            if case .value(let v) = predicate.storage { hasher.combine(v) } else { hasher.combine(ObjectIdentifier(predicate)) }
        }
        return hasher.finalize()
    }

    private static func shape(_ expression: NSExpression) -> String {
        switch expression.kind {
        case .keyPath(_, let path): path
        case .variable(let name): "$" + name
        case .function(let name, _, _): name
        case .constant, .aggregate: "value"
        default: "\(expression.expressionType.rawValue)"
        }
    }
}
