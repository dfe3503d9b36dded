/// A walk over every expression of a predicate or expression tree, for
/// checks that read the tree without rebuilding it (key paths a fetch uses,
/// variables a template needs).
///
/// `visit` receives each expression and the SUBQUERY variables bound where it
/// stands; it returns false to skip the expression's children. Cost: one pass.
enum ExpressionWalk {
    static func walk(_ predicate: NSPredicate, bound: Set<String> = [], _ visit: (NSExpression, Set<String>) -> Bool) {
        switch predicate {
        case let comparison as NSComparisonPredicate:
            walk(comparison.leftExpression, bound: bound, visit)
            walk(comparison.rightExpression, bound: bound, visit)
        case let compound as NSCompoundPredicate:
            for sub in compound.predicates { walk(sub, bound: bound, visit) }
        default:
            break
        }
    }

    static func walk(_ expression: NSExpression, bound: Set<String> = [], _ visit: (NSExpression, Set<String>) -> Bool) {
        guard visit(expression, bound) else { return }
        switch expression.kind {
        case .constant, .evaluatedObject, .anyKey, .symbol, .variable:
            break
        case .keyPath(let operand, _):
            walk(operand, bound: bound, visit)
        case .function(_, let operand, let arguments):
            if let operand { walk(operand, bound: bound, visit) }
            for argument in arguments { walk(argument, bound: bound, visit) }
        case .unionSet(let l, let r), .intersectSet(let l, let r), .minusSet(let l, let r):
            walk(l, bound: bound, visit)
            walk(r, bound: bound, visit)
        case .subquery(let collection, let variable, let predicate):
            walk(collection, bound: bound, visit)
            walk(predicate, bound: bound.union([variable]), visit)
        case .aggregate(let items), .block(_, let items):
            for item in items { walk(item, bound: bound, visit) }
        case .conditional(let predicate, let whenTrue, let whenFalse):
            walk(predicate, bound: bound, visit)
            walk(whenTrue, bound: bound, visit)
            walk(whenFalse, bound: bound, visit)
        case .assignment(_, let value):
            walk(value, bound: bound, visit)
        }
    }

    /// The substitution variables `predicate` uses (not SUBQUERY iteration variables).
    static func variables(in predicate: NSPredicate) -> Set<String> {
        var names = Set<String>()
        walk(predicate) { expression, bound in
            if case .variable(let name) = expression.kind, !bound.contains(name) { names.insert(name) }
            return true
        }
        return names
    }
}
