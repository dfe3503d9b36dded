import GRDB

/// Turns a predicate into an SQL condition with bound parameters, walking
/// the predicate layer's own tree (compound, comparison, expression kinds).
///
/// Every condition it writes is two-valued (0 or 1, never NULL), so NOT and
/// OR mean what they mean in memory: NULL equals only NULL, an ordering
/// comparison with NULL is false, ANY/ALL skip NULL values as key paths
/// through to-many relationships do. A part it cannot express with the same
/// meaning yields nil, and the caller evaluates that part in memory.
/// Compiling is linear in the size of the predicate.
struct SQLitePredicateCompiler {
    let query: SQLiteQuery

    /// One side of a comparison.
    enum Operand {
        /// A nullable SQL value of `kind`.
        case value(String, SQLiteValueKind, NSAttributeType)
        /// A non-null integer (`@count`).
        case count(String)
        /// An object: its key and entity number columns.
        case object(key: String, entityNumber: String?)
        case constant(Any?)
        case toMany(owner: String, relationship: NSRelationshipDescription, storage: SQLiteMapping.Storage, rest: [String])
    }

    func condition(_ predicate: NSPredicate, in scope: SQLiteQuery.Scope) -> String? {
        switch predicate {
        case let compound as NSCompoundPredicate:
            let parts = compound.predicates.map { condition($0, in: scope) }
            guard parts.allSatisfy({ $0 != nil }) else { return nil }
            let sql = parts.map { $0! }
            switch compound.compoundPredicateType {
            case .and: return sql.isEmpty ? "1" : "(" + sql.joined(separator: " AND ") + ")"
            case .or: return sql.isEmpty ? "0" : "(" + sql.joined(separator: " OR ") + ")"
            case .not: return sql.count == 1 ? "NOT \(sql[0])" : nil
            }
        case let comparison as NSComparisonPredicate:
            return self.comparison(comparison, in: scope)
        default:
            if case .value(let value) = predicate.storage { return value ? "1" : "0" }
            return nil
        }
    }

    private func comparison(_ p: NSComparisonPredicate, in scope: SQLiteQuery.Scope) -> String? {
        guard p.predicateOperatorType != .customSelector,
              let left = operand(p.leftExpression, in: scope), let right = operand(p.rightExpression, in: scope) else { return nil }
        if p.comparisonPredicateModifier != .direct {
            guard case .toMany(let owner, let relationship, let storage, let rest) = left else { return nil }
            return quantified(all: p.comparisonPredicateModifier == .all, owner: owner, relationship: relationship,
                              storage: storage, rest: rest, in: scope) { element in
                leaf(p.predicateOperatorType, element, right, p.options)
            }
        }
        // `tags CONTAINS x` and `x IN tags` ask whether any destination value is x.
        if case .toMany(let owner, let relationship, let storage, let rest) = left, p.predicateOperatorType == .contains, case .constant = right {
            return quantified(all: false, owner: owner, relationship: relationship, storage: storage, rest: rest, in: scope) { element in
                leaf(.equalTo, element, right, p.options)
            }
        }
        if case .toMany(let owner, let relationship, let storage, let rest) = right, p.predicateOperatorType == .in, case .constant = left {
            return quantified(all: false, owner: owner, relationship: relationship, storage: storage, rest: rest, in: scope) { element in
                leaf(.equalTo, element, left, p.options)
            }
        }
        return leaf(p.predicateOperatorType, left, right, p.options)
    }

    /// `EXISTS` (ANY) or `NOT EXISTS … NOT` (ALL) over the destinations' values.
    private func quantified(all: Bool, owner: String, relationship: NSRelationshipDescription, storage: SQLiteMapping.Storage,
                            rest: [String], in scope: SQLiteQuery.Scope, test: (Operand) -> String?) -> String? {
        let alias = query.newAlias()
        guard let (from, correlation, entity) = query.destinations(of: relationship, storage: storage, owner: owner, destination: alias) else { return nil }
        let inner = SQLiteQuery.Scope(query: query, alias: alias, entity: entity, variables: scope.variables)
        let element: Operand
        let present: String
        switch query.resolve(rest, alias: alias, entity: entity, in: inner) {
        case .attribute(let sql, let attribute)?:
            guard let kind = SQLiteValueKind(attribute.attributeType) else { return nil }
            element = .value(sql, kind, attribute.attributeType)
            present = "\(sql) IS NOT NULL"
        case .object(let key, let number)?:
            element = .object(key: key, entityNumber: number)
            present = "\(key) IS NOT NULL"
        default:
            return nil
        }
        guard let condition = test(element) else { return nil }
        let body = "FROM \(from) \(inner.joins.joined(separator: " ")) WHERE \(correlation) AND \(present)"
        return all ? "NOT EXISTS (SELECT 1 \(body) AND NOT \(condition))" : "EXISTS (SELECT 1 \(body) AND \(condition))"
    }

    func operand(_ expression: NSExpression, in scope: SQLiteQuery.Scope) -> Operand? {
        switch expression.kind {
        case .constant(let value):
            return .constant(Values.normalized(value))
        case .evaluatedObject:
            return .object(key: "\(scope.alias).Z_PK", entityNumber: "\(scope.alias).Z_ENT")
        case .variable(let name):
            return scope.variables[name].map { .object(key: "\($0.alias).Z_PK", entityNumber: "\($0.alias).Z_ENT") }
        case .keyPath(let base, let path):
            var components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            if case .subquery(let collection, let variable, let predicate) = base.kind {
                return components == ["@count"] ? subqueryCount(collection, variable: variable, predicate: predicate, in: scope) : nil
            }
            let start: (alias: String, entity: SQLiteMapping.Entity)
            switch base.kind {
            case .evaluatedObject: start = (scope.alias, scope.entity)
            case .variable(let name):
                guard let bound = scope.variables[name] else { return nil }
                start = bound
            default: return nil
            }
            if components.first == "self" || components.first == "SELF" { components.removeFirst() }
            let counts = components.last == "@count"
            if counts { components.removeLast() }
            guard !components.contains(where: { $0.hasPrefix("@") }) else { return nil }
            switch query.resolve(components, alias: start.alias, entity: start.entity, in: scope) {
            case .attribute(let sql, let attribute)?:
                guard !counts, let kind = SQLiteValueKind(attribute.attributeType) else { return nil }
                return .value(sql, kind, attribute.attributeType)
            case .object(let key, let number)?:
                return counts ? nil : .object(key: key, entityNumber: number)
            case .toMany(let owner, let relationship, let storage, let rest)?:
                guard counts else { return .toMany(owner: owner, relationship: relationship, storage: storage, rest: rest) }
                guard rest.isEmpty else { return nil }
                let alias = query.newAlias()
                guard let (from, correlation, _) = query.destinations(of: relationship, storage: storage, owner: owner, destination: alias) else { return nil }
                return .count("(SELECT COUNT(*) FROM \(from) WHERE \(correlation))")
            case nil:
                return nil
            }
        default:
            return nil
        }
    }

    /// `SUBQUERY(collection, $v, predicate).@count`: a COUNT over the destinations matching `predicate`.
    private func subqueryCount(_ collection: NSExpression, variable: String, predicate: NSPredicate, in scope: SQLiteQuery.Scope) -> Operand? {
        guard case .toMany(let owner, let relationship, let storage, let rest)? = operand(collection, in: scope), rest.isEmpty else { return nil }
        let alias = query.newAlias()
        guard let (from, correlation, entity) = query.destinations(of: relationship, storage: storage, owner: owner, destination: alias) else { return nil }
        var variables = scope.variables
        variables[variable] = (alias, entity)
        let inner = SQLiteQuery.Scope(query: query, alias: alias, entity: entity, variables: variables)
        guard let condition = condition(predicate, in: inner) else { return nil }
        return .count("(SELECT COUNT(*) FROM \(from) \(inner.joins.joined(separator: " ")) WHERE \(correlation) AND \(condition))")
    }
}
