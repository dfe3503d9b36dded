/// The variables visible while evaluating: substitution variables, SUBQUERY
/// iteration variables, and Apple's mutable context dictionary.
final class EvaluationScope {
    private(set) var variables: [String: Any]
    /// Apple's mutable context dictionary, when the caller passed one.
    let context: NSMutableDictionary?

    init(variables: [String: Any] = [:], context: NSMutableDictionary? = nil) {
        self.variables = variables
        self.context = context
    }

    /// A scope that sees this one's variables plus `name` bound to `value`.
    func binding(_ name: String, to value: Any?) -> EvaluationScope {
        let scope = EvaluationScope(variables: variables, context: context)
        scope.variables[name] = value ?? NSNull()
        return scope
    }

    func value(of name: String) throws(PredicateEvaluationError) -> Any? {
        if let value = variables[name] { return Values.normalized(value) }
        if let value = context?.object(forKey: name) { return Values.normalized(value) }
        throw PredicateEvaluationError("Can't get value for '\(name)' in bindings \(variables.keys.sorted())")
    }

    /// `$name := value` stores into the context, as Apple's assignment expressions do.
    func assign(_ value: Any?, to name: String) {
        variables[name] = value ?? NSNull()
        context?.setObject(value ?? NSNull(), forKey: name as NSString)
    }
}

/// Computes the value of an expression for an object.
enum ExpressionEvaluator {
    typealias Failure = PredicateEvaluationError

    static func value(of expression: NSExpression, object: Any?, scope: EvaluationScope) throws(Failure) -> Any? {
        switch expression.kind {
        case .constant(let value):
            return Values.normalized(value)
        case .evaluatedObject:
            return Values.normalized(object)
        case .variable(let name):
            return try scope.value(of: name)
        case .keyPath(let operand, let path):
            let base = try value(of: operand, object: object, scope: scope)
            return try KeyPathValue.value(of: base, keyPath: path)
        case .function(let name, let operand?, let arguments):
            let receiver = try value(of: operand, object: object, scope: scope)
            let values = try arguments.map { (e) throws(Failure) in try value(of: e, object: object, scope: scope) }
            return try CustomFunctions.call(name, receiver: receiver, arguments: values)
        case .function("objectFrom:withIndex:", nil, let arguments) where arguments.count == 2:
            let collection = try value(of: arguments[0], object: object, scope: scope)
            return try FunctionEvaluation.index(collection, arguments[1]) { () throws(Failure) in
                try value(of: arguments[1], object: object, scope: scope)
            }
        case .function(let name, nil, let arguments):
            let values = try arguments.map { (e) throws(Failure) in try value(of: e, object: object, scope: scope) }
            if let function = BuiltInFunction.named(name), function.arity != values.count {
                throw Failure("\(name) takes \(function.arity) argument\(function.arity == 1 ? "" : "s"), not \(values.count)")
            }
            return try FunctionEvaluation.call(name, values)
        case .unionSet(let l, let r), .intersectSet(let l, let r), .minusSet(let l, let r):
            let left = try elements(of: l, object: object, scope: scope)
            let right = try elements(of: r, object: object, scope: scope)
            let rightKeys = Set(right.compactMap(Aggregates.hashKey))
            func inRight(_ e: Any) -> Bool {
                if let key = Aggregates.hashKey(e) { return rightKeys.contains(key) }
                return right.contains { ValueComparison.equal(e, $0) }
            }
            switch expression.expressionType {
            case .unionSet: return Aggregates.distinct(left + right)
            case .intersectSet: return Aggregates.distinct(left.filter(inRight))
            default: return Aggregates.distinct(left.filter { !inRight($0) })
            }
        case .subquery(let collectionExpression, let variable, let predicate):
            var matches: [Any] = []
            for element in try elements(of: collectionExpression, object: object, scope: scope) {
                let inner = scope.binding(variable, to: element)
                if try predicate.evaluate(object: element, scope: inner) { matches.append(element) }
            }
            return matches
        case .aggregate(let items):
            return try items.map { (e) throws(Failure) -> Any in try value(of: e, object: object, scope: scope) ?? NSNull() }
        case .anyKey:
            guard let object = Values.normalized(object), let values = Collections.dictionaryValues(of: object) else {
                throw Failure("ANYKEY can only be evaluated against a dictionary here")
            }
            return values
        case .block(let block, let arguments):
            return Values.normalized(block(object, arguments, scope.context))
        case .conditional(let predicate, let whenTrue, let whenFalse):
            let chosen = try predicate.evaluate(object: object, scope: scope) ? whenTrue : whenFalse
            return try value(of: chosen, object: object, scope: scope)
        case .symbol(let keyword):
            throw Failure("\(keyword.rawValue) can only be used as an index: collection[\(keyword.rawValue)]")
        case .assignment(let name, let valueExpression):
            let result = try value(of: valueExpression, object: object, scope: scope)
            scope.assign(result, to: name)
            return result
        }
    }

    /// The value of a collection-valued expression as elements (nil is empty).
    private static func elements(of expression: NSExpression, object: Any?, scope: EvaluationScope) throws(Failure) -> [Any] {
        guard let value = try value(of: expression, object: object, scope: scope) else { return [] }
        guard let elements = Collections.elements(of: value) else {
            throw Failure("\(expression) must be a collection, found \(type(of: value))")
        }
        return elements
    }
}
