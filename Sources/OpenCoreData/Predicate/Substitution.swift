/// Replacing `$VARIABLES` by constant values, for `withSubstitutionVariables(_:)`.
///
/// Variables bound by an enclosing SUBQUERY are left alone: they name the
/// iteration element, not a substitution variable. Cost: one copy of the tree.
struct Substitution {
    let variables: [String: Any]
    var bound: Set<String> = []

    func predicate(_ predicate: NSPredicate) -> NSPredicate {
        switch predicate {
        case let c as NSComparisonPredicate:
            let left = expression(c.leftExpression), right = expression(c.rightExpression)
            if let selector = c.customSelector {
                return NSComparisonPredicate(leftExpression: left, rightExpression: right, customSelector: selector,
                                             modifier: c.comparisonPredicateModifier)
            }
            return NSComparisonPredicate(leftExpression: left, rightExpression: right, modifier: c.comparisonPredicateModifier,
                                         type: c.predicateOperatorType, options: c.options)
        case let c as NSCompoundPredicate:
            return NSCompoundPredicate(type: c.compoundPredicateType, subpredicates: c.predicates.map(self.predicate))
        default:
            return predicate
        }
    }

    func expression(_ expression: NSExpression) -> NSExpression {
        let kind: NSExpression.Kind
        switch expression.kind {
        case .variable(let name):
            guard !bound.contains(name), let value = variables[name] else { return expression }
            return NSExpression(forConstantValue: FormatArguments.unwrapNull(value))
        case .constant, .evaluatedObject, .anyKey, .symbol:
            return expression
        case .keyPath(let operand, let path): kind = .keyPath(self.expression(operand), path)
        case .function(let name, let operand, let arguments):
            kind = .function(name, operand: operand.map(self.expression), arguments.map(self.expression))
        case .unionSet(let l, let r): kind = .unionSet(self.expression(l), self.expression(r))
        case .intersectSet(let l, let r): kind = .intersectSet(self.expression(l), self.expression(r))
        case .minusSet(let l, let r): kind = .minusSet(self.expression(l), self.expression(r))
        case .subquery(let collection, let variable, let predicate):
            var inner = self
            inner.bound.insert(variable)
            kind = .subquery(self.expression(collection), variable: variable, inner.predicate(predicate))
        case .aggregate(let items): kind = .aggregate(items.map(self.expression))
        case .block(let block, let arguments): kind = .block(block, arguments.map(self.expression))
        case .conditional(let p, let t, let f): kind = .conditional(predicate(p), self.expression(t), self.expression(f))
        case .assignment(let name, let value): kind = .assignment(name, self.expression(value))
        }
        return NSExpression(kind: kind)
    }
}
