/// Fetch request templates stored in a model, as `NSFetchRequest`s
/// (NSManagedObjectModel.h). The model keeps them as
/// `FetchRequestDescription`s (entity name, predicate text, settings); these
/// methods translate in both directions.
extension NSManagedObjectModel {
    /// Every template by name; templates whose predicate text does not parse
    /// are left out (`fetchRequest(fromTemplateNamed:substitutionVariables:)`
    /// says why).
    public var fetchRequestTemplatesByName: [String: NSFetchRequest<NSFetchRequestResult>] {
        fetchRequestDescriptionsByName.compactMapValues { try? request(from: $0) }
    }

    /// The template named `name`, or nil when there is none.
    public func fetchRequestTemplate(forName name: String) -> NSFetchRequest<NSFetchRequestResult>? {
        fetchRequestDescriptionsByName[name].flatMap { try? request(from: $0) }
    }

    /// Stores `request` as the template named `name` (nil removes it).
    public func setFetchRequestTemplate(_ request: NSFetchRequest<NSFetchRequestResult>?, forName name: String) {
        setFetchRequestDescription(request.map(Self.description(of:)), forName: name)
    }

    // Generic forms. Apple's methods take and return `NSFetchRequest<NSFetchRequestResult>`, and
    // Objective-C code casts between instantiations (`as! NSFetchRequest<Photo>`); Swift on Linux
    // can't cast between instantiations of a generic class, so these state the type instead.

    /// Stores `request`, of any result type, as the template named `name` (nil removes it).
    public func setFetchRequestTemplate<ResultType>(_ request: NSFetchRequest<ResultType>?, forName name: String) {
        setFetchRequestDescription(request.map(Self.description(of:)), forName: name)
    }

    /// The template named `name` as a request of the result type the caller states
    /// (`let request: NSFetchRequest<Photo>? = model.fetchRequestTemplate(forName: "recent")`).
    public func fetchRequestTemplate<ResultType>(forName name: String) -> NSFetchRequest<ResultType>? {
        let untyped: NSFetchRequest<NSFetchRequestResult>? = fetchRequestTemplate(forName: name)
        return untyped.map(Self.retyped)
    }

    /// `fetchRequestFromTemplate(withName:substitutionVariables:)` returning a request of the
    /// result type the caller states.
    public func fetchRequestFromTemplate<ResultType>(withName name: String,
                                                     substitutionVariables variables: [String: Any])
        -> NSFetchRequest<ResultType>? {
        let untyped: NSFetchRequest<NSFetchRequestResult>? = fetchRequestFromTemplate(
            withName: name, substitutionVariables: variables)
        return untyped.map(Self.retyped)
    }

    private static func retyped<ResultType>(_ request: NSFetchRequest<NSFetchRequestResult>)
        -> NSFetchRequest<ResultType> {
        let typed = NSFetchRequest<ResultType>()
        typed.copySettings(from: request)
        return typed
    }

    /// A copy of the template named `name` with its `$VARIABLES` replaced by
    /// `variables` (NSNull matches nil). Core Data requires every variable: a
    /// missing one stops the program, as Core Data raises; use
    /// `fetchRequest(fromTemplateNamed:substitutionVariables:)` to get an error instead.
    public func fetchRequestFromTemplate(withName name: String, substitutionVariables variables: [String: Any]) -> NSFetchRequest<NSFetchRequestResult>? {
        guard fetchRequestDescriptionsByName[name] != nil else { return nil }
        do {
            return try fetchRequest(fromTemplateNamed: name, substitutionVariables: variables)
        } catch {
            preconditionFailure("\(error.localizedDescription)")
        }
    }

    /// The throwing form of `fetchRequestFromTemplate(withName:substitutionVariables:)`:
    /// NSCoreDataError for an unknown template, a predicate that does not
    /// parse, or a variable missing from `variables`.
    public func fetchRequest(fromTemplateNamed name: String, substitutionVariables variables: [String: Any]) throws -> NSFetchRequest<NSFetchRequestResult> {
        guard let stored = fetchRequestDescriptionsByName[name] else {
            throw NSError.coreData(NSCoreDataError, "The model has no fetch request template named '\(name)'.")
        }
        let request = try request(from: stored)
        if let predicate = request.predicate {
            let missing = ExpressionWalk.variables(in: predicate).subtracting(variables.keys)
            guard missing.isEmpty else {
                throw NSError.coreData(NSCoreDataError, "Fetch request template '\(name)' needs a value for $\(missing.sorted().joined(separator: ", $")); pass NSNull() to match nil.")
            }
            request.predicate = predicate.withSubstitutionVariables(variables)
        }
        return request
    }

    private func request(from stored: FetchRequestDescription) throws -> NSFetchRequest<NSFetchRequestResult> {
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: stored.entityName)
        request.entity = entitiesByName[stored.entityName]
        if let format = stored.predicateFormat {
            do {
                request.predicate = try NSPredicate.parse(format)
            } catch {
                throw NSError.coreData(NSCoreDataError, "The predicate of a fetch request for \(stored.entityName) does not parse: \(error)")
            }
        }
        if let type = stored.resultType { request.resultType = NSFetchRequestResultType(rawValue: type) }
        if let limit = stored.fetchLimit { request.fetchLimit = limit }
        if let size = stored.fetchBatchSize { request.fetchBatchSize = size }
        if let flag = stored.includesSubentities { request.includesSubentities = flag }
        if let flag = stored.includesPropertyValues { request.includesPropertyValues = flag }
        if let flag = stored.includesPendingChanges { request.includesPendingChanges = flag }
        if let flag = stored.returnsObjectsAsFaults { request.returnsObjectsAsFaults = flag }
        return request
    }

    static func description<ResultType>(of request: NSFetchRequest<ResultType>) -> FetchRequestDescription {
        var stored = FetchRequestDescription(entityName: request.entity?.name ?? request.entityName ?? "",
                                             predicateFormat: request.predicate?.predicateFormat)
        stored.resultType = request.resultType.rawValue
        stored.fetchLimit = request.fetchLimit == 0 ? nil : request.fetchLimit
        stored.fetchBatchSize = request.fetchBatchSize == 0 ? nil : request.fetchBatchSize
        stored.includesSubentities = request.includesSubentities
        stored.includesPropertyValues = request.includesPropertyValues
        stored.includesPendingChanges = request.includesPendingChanges
        stored.returnsObjectsAsFaults = request.returnsObjectsAsFaults
        return stored
    }
}

extension NSFetchedPropertyDescription {
    /// The request that computes the property; its predicate may use
    /// `$FETCH_SOURCE` (the owning object) and `$FETCHED_PROPERTY`.
    public var fetchRequest: NSFetchRequest<NSFetchRequestResult>? {
        get {
            guard let stored = fetchRequestDescription else { return nil }
            let request = NSFetchRequest<NSFetchRequestResult>(entityName: stored.entityName)
            request.entity = entity?.managedObjectModel?.entitiesByName[stored.entityName]
            request.predicate = stored.predicateFormat.flatMap { try? NSPredicate.parse($0) }
            return request
        }
        set { fetchRequestDescription = newValue.map(NSManagedObjectModel.description(of:)) }
    }
}
