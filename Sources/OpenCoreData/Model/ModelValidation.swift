/// The checks a model must pass before a store can use it.
///
/// Xcode refuses to compile models that fail these checks; Core Data then
/// never sees them. OpenCoreData also accepts models built in code and files
/// edited by hand, so it checks them itself, and says what to fix.
extension NSManagedObjectModel {
    /// Checks the model; throws a `ModelFileError` of kind `.invalidModel`
    /// (NSCocoaErrorDomain, NSCoreDataError) naming the entity and property
    /// at fault and what to change. Cost: linear in the number of properties.
    public func validate() throws {
        try ModelValidator(model: self, acceptingXcodeWarnings: false).run()
    }

    /// The problems Xcode only warns about, which shipped models do have (the
    /// corpus holds a relationship whose inverse names another relationship as
    /// its own inverse): empty when the model is clean.
    public var validationWarnings: [ModelFileError] {
        entities.flatMap { entity in
            entity.ownProperties.compactMap { property in
                (property as? NSRelationshipDescription).flatMap { ModelValidator.inverseMismatch($0, in: entity) }
            }
        }
    }

    /// Checks the model, leaving out what Xcode only warns about (the
    /// model-file reader does, so that every model Xcode compiled loads).
    func validateAcceptingXcodeWarnings() throws {
        try ModelValidator(model: self, acceptingXcodeWarnings: true).run()
    }
}

private struct ModelValidator {
    let model: NSManagedObjectModel
    let acceptingXcodeWarnings: Bool

    func run() throws {
        var names = Set<String>()
        for entity in model.entities {
            guard let name = entity.name, !name.isEmpty else {
                throw Self.invalid("An entity has no name; every entity needs one.")
            }
            guard names.insert(name).inserted else {
                throw Self.invalid("Two entities are named '\(name)'; entity names must be unique.", entity)
            }
        }
        let members = Set(model.entities.map(ObjectIdentifier.init))
        for entity in model.entities { try checkInheritance(of: entity, members: members) }
        for entity in model.entities { try checkProperties(of: entity, members: members) }
    }

    private func checkInheritance(of entity: NSEntityDescription, members: Set<ObjectIdentifier>) throws {
        var seen: Set<ObjectIdentifier> = [ObjectIdentifier(entity)]
        var ancestor = entity.superentity
        while let current = ancestor {
            guard members.contains(ObjectIdentifier(current)) else {
                throw Self.invalid("Its superentity '\(current.name ?? "")' is not an entity of this model; add it to the model.", entity)
            }
            guard seen.insert(ObjectIdentifier(current)).inserted else {
                throw Self.invalid("Entity inheritance forms a cycle through '\(current.name ?? "")'; an entity can't inherit from itself.", entity)
            }
            ancestor = current.superentity
        }
    }

    private func checkProperties(of entity: NSEntityDescription, members: Set<ObjectIdentifier>) throws {
        let inherited = Set((entity.superentity?.properties ?? []).map(\.name))
        var own = Set<String>()
        for property in entity.ownProperties {
            guard !property.name.isEmpty else { throw Self.invalid("A property has no name; every property needs one.", entity) }
            guard own.insert(property.name).inserted else {
                throw Self.invalid("Two properties are named '\(property.name)'; property names must be unique in an entity.", entity, property)
            }
            guard !inherited.contains(property.name) else {
                throw Self.invalid("It has the name of a property inherited from '\(entity.superentity?.name ?? "")'; rename it or remove one of them.", entity, property)
            }
            switch property {
            case let attribute as NSAttributeDescription: try check(attribute, in: entity)
            case let relationship as NSRelationshipDescription: try check(relationship, in: entity, members: members)
            default: break
            }
        }
        let properties = entity.propertiesByName
        for constraint in entity.uniquenessConstraintNames {
            for name in constraint where properties[name] == nil {
                throw Self.invalid("A uniqueness constraint names '\(name)', which is not a property of the entity.", entity)
            }
        }
        for index in entity.indexes {
            for element in index.elements where element.propertyName.flatMap({ properties[$0] }) == nil {
                throw Self.invalid("Index '\(index.name)' names '\(element.propertyName ?? "")', which is not a property of the entity.", entity)
            }
        }
    }

    private func check(_ attribute: NSAttributeDescription, in entity: NSEntityDescription) throws {
        if attribute.attributeType == .undefinedAttributeType && !attribute.isTransient {
            throw Self.invalid("It has no attribute type; only transient attributes may be undefined. Choose a type or make it transient.", entity, attribute)
        }
        if let pattern = attribute.validationRules.regularExpressionString,
           (try? NSRegularExpression(pattern: pattern)) == nil {
            throw Self.invalid("Its regular expression '\(pattern)' does not compile.", entity, attribute)
        }
    }

    private func check(_ relationship: NSRelationshipDescription, in entity: NSEntityDescription,
                       members: Set<ObjectIdentifier>) throws {
        guard let destination = relationship.destinationEntity else {
            throw Self.invalid("It has no destination entity; set destinationEntity.", entity, relationship)
        }
        guard members.contains(ObjectIdentifier(destination)) else {
            throw Self.invalid("Its destination '\(destination.name ?? "")' is not an entity of this model; add it to the model.", entity, relationship)
        }
        if relationship.minCount < 0 || relationship.maxCount < 0 ||
            (relationship.maxCount != 0 && relationship.minCount > relationship.maxCount) {
            throw Self.invalid("minCount \(relationship.minCount) and maxCount \(relationship.maxCount) allow no count; use 0 ≤ minCount ≤ maxCount (maxCount 0 means unbounded).", entity, relationship)
        }
        guard let inverse = relationship.inverseRelationship else { return }
        guard let inverseOwner = inverse.entity, destination.isKindOf(entity: inverseOwner) || inverseOwner.isKindOf(entity: destination) else {
            throw Self.invalid("Its inverse '\(inverse.name)' belongs to '\(inverse.entity?.name ?? "no entity")', not to its destination '\(destination.name ?? "")'.", entity, relationship)
        }
        if !acceptingXcodeWarnings, let mismatch = Self.inverseMismatch(relationship, in: entity) { throw mismatch }
    }

    /// The error for an inverse that does not name `relationship` back, if it doesn't.
    static func inverseMismatch(_ relationship: NSRelationshipDescription, in entity: NSEntityDescription) -> ModelFileError? {
        guard let inverse = relationship.inverseRelationship else { return nil }
        if let back = inverse.inverseRelationship,
           back === relationship || (back.name == relationship.name && entity.isKindOf(entity: back.entity)) {
            return nil
        }
        return invalid("Its inverse '\(inverse.entity?.name ?? "").\(inverse.name)' does not name it as inverse; set both sides' inverseRelationship.", entity, relationship)
    }

    private static func invalid(_ message: String, _ entity: NSEntityDescription? = nil, _ property: NSPropertyDescription? = nil) -> ModelFileError {
        ModelFileError(.invalidModel, message, entity: entity?.name, property: property?.name)
    }
}
