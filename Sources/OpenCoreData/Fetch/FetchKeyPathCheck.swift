/// Checks, before a fetch runs, that every key its predicate and sort
/// descriptors read from objects exists in the model: key paths from the
/// fetched objects, from objects reached through relationships, from a
/// SUBQUERY's variable, and the key a `FUNCTION(object, 'key')` reads.
///
/// Core Data raises "keypath … not found in entity …" for these; a managed
/// object would stop the program on the unknown key mid-evaluation. Fetching
/// already throws, so the mistake becomes an NSError naming the key path and
/// the entity instead. Cost: one walk of the predicate.
enum FetchKeyPathCheck {
    static func check(_ request: NSFetchRequest<NSFetchRequestResult>, entity: NSEntityDescription) throws {
        for path in (request.sortDescriptors ?? []).compactMap(\.key) {
            if let problem = problem(with: path, from: entity) { throw notFound(path, entity, problem) }
        }
        if let predicate = request.predicate { try check(predicate, root: entity, variables: [:]) }
    }

    private static func notFound(_ path: String, _ entity: NSEntityDescription, _ problem: String) -> NSError {
        NSError.coreData(NSCoreDataError, "keypath \(path) not found in entity \(entity.name ?? ""): \(problem)")
    }

    private static func check(_ predicate: NSPredicate, root: NSEntityDescription, variables: [String: NSEntityDescription]) throws {
        switch predicate {
        case let comparison as NSComparisonPredicate:
            try check(comparison.leftExpression, root: root, variables: variables)
            try check(comparison.rightExpression, root: root, variables: variables)
        case let compound as NSCompoundPredicate:
            for sub in compound.predicates { try check(sub, root: root, variables: variables) }
        default:
            break
        }
    }

    /// Checks the keys `expression` reads from objects of a known entity;
    /// `variables` are the SUBQUERY variables in scope with their entities.
    private static func check(_ expression: NSExpression, root: NSEntityDescription, variables: [String: NSEntityDescription]) throws {
        switch expression.kind {
        case .keyPath(let operand, let path):
            try check(operand, root: root, variables: variables)
            if let entity = self.entity(of: operand, root: root, variables: variables), let problem = problem(with: path, from: entity) {
                throw notFound(path, entity, problem)
            }
        case .function(let selector, let operand?, let arguments):
            try check(operand, root: root, variables: variables)
            for argument in arguments { try check(argument, root: root, variables: variables) }
            // A selector without arguments, sent to an object, reads the key of that name (CustomFunctions).
            if !selector.contains(":"), !CustomFunctions.isRegistered(selector),
               let entity = self.entity(of: operand, root: root, variables: variables),
               selector != "self", selector != "SELF", entity.propertiesByName[selector] == nil {
                throw notFound(selector, entity, "FUNCTION(…, '\(selector)') reads '\(selector)', which is not a property of \(entity.name ?? "")")
            }
        case .subquery(let collection, let variable, let predicate):
            try check(collection, root: root, variables: variables)
            var inner = variables
            inner[variable] = self.entity(of: collection, root: root, variables: variables)
            try check(predicate, root: root, variables: inner)
        case .function(_, nil, let items), .aggregate(let items), .block(_, let items):
            for item in items { try check(item, root: root, variables: variables) }
        case .unionSet(let l, let r), .intersectSet(let l, let r), .minusSet(let l, let r):
            try check(l, root: root, variables: variables)
            try check(r, root: root, variables: variables)
        case .conditional(let predicate, let whenTrue, let whenFalse):
            try check(predicate, root: root, variables: variables)
            try check(whenTrue, root: root, variables: variables)
            try check(whenFalse, root: root, variables: variables)
        case .assignment(_, let value):
            try check(value, root: root, variables: variables)
        case .constant, .evaluatedObject, .anyKey, .symbol, .variable:
            break
        }
    }

    /// The entity of the objects `expression` yields, when the model tells:
    /// SELF, a SUBQUERY variable, or a chain of relationships from either.
    private static func entity(of expression: NSExpression, root: NSEntityDescription,
                               variables: [String: NSEntityDescription]) -> NSEntityDescription? {
        switch expression.kind {
        case .evaluatedObject: return root
        case .variable(let name): return variables[name]
        case .keyPath(let operand, let path):
            guard var current = entity(of: operand, root: root, variables: variables) else { return nil }
            for component in path.split(separator: ".", omittingEmptySubsequences: false).map(String.init) {
                if component == "self" || component == "SELF" { continue }
                guard let relationship = current.relationshipsByName[component], let destination = relationship.destinationEntity else { return nil }
                current = destination
            }
            return current
        default: return nil
        }
    }

    /// Checks that every `relationshipKeyPathsForPrefetching` path is a chain
    /// of relationships starting at `entity`.
    static func checkPrefetching(_ paths: [String], entity: NSEntityDescription) throws {
        for path in paths {
            var current = entity
            for component in path.split(separator: ".", omittingEmptySubsequences: false).map(String.init) {
                guard let relationship = current.relationshipsByName[component], let destination = relationship.destinationEntity else {
                    let problem = current.propertiesByName[component] == nil
                        ? "'\(component)' is not a property of \(current.name ?? "")"
                        : "'\(component)' is not a relationship of \(current.name ?? "")"
                    throw NSError.coreData(NSCoreDataError, "keypath \(path) not found in entity \(entity.name ?? ""): \(problem)")
                }
                current = destination
            }
        }
    }

    /// Collection operators whose rest of the path reads the collection's own elements.
    static let elementOperators: Set<String> = [
        "@count", "@sum", "@avg", "@min", "@max", "@unionOfObjects", "@distinctUnionOfObjects",
    ]

    /// What is wrong with `path` read from objects of `entity`, or nil.
    static func problem(with path: String, from entity: NSEntityDescription) -> String? {
        var current = entity
        for component in path.split(separator: ".").map(String.init) {
            if component.uppercased() == "SELF" { continue }
            if component.hasPrefix("@") {
                // The rest of the path is read from the collection's elements, which
                // are of `current`, except through the operators on collections of collections.
                guard Self.elementOperators.contains(component) else { return nil }
                continue
            }
            guard let property = current.propertiesByName[component] else {
                return "'\(component)' is not a property of \(current.name ?? "")"
            }
            guard let relationship = property as? NSRelationshipDescription, let destination = relationship.destinationEntity else {
                // Attributes end the model's part of the path (composite and
                // transformable values may be read further).
                return nil
            }
            current = destination
        }
        return nil
    }
}
