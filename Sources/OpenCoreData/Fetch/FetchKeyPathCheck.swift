/// Checks, before a fetch runs, that every key path its predicate and sort
/// descriptors read from the fetched objects exists in the model.
///
/// Core Data raises "keypath … not found in entity …" for these; a managed
/// object would stop the program on the unknown key mid-evaluation. Fetching
/// already throws, so the mistake becomes an NSError naming the key path and
/// the entity instead. Cost: one walk of the predicate.
enum FetchKeyPathCheck {
    static func check(_ request: NSFetchRequest<NSFetchRequestResult>, entity: NSEntityDescription) throws {
        var paths: [String] = (request.sortDescriptors ?? []).compactMap(\.key)
        if let predicate = request.predicate {
            ExpressionWalk.walk(predicate) { expression, _ in
                guard case .keyPath(let operand, let path) = expression.kind else { return true }
                if case .evaluatedObject = operand.kind { paths.append(path) }
                return true
            }
        }
        for path in paths {
            if let problem = problem(with: path, from: entity) {
                throw NSError.coreData(NSCoreDataError, "keypath \(path) not found in entity \(entity.name ?? ""): \(problem)")
            }
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

    /// What is wrong with `path` read from objects of `entity`, or nil.
    static func problem(with path: String, from entity: NSEntityDescription) -> String? {
        var current = entity
        for component in path.split(separator: ".").map(String.init) {
            if component.hasPrefix("@") || component.uppercased() == "SELF" { return nil }
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
