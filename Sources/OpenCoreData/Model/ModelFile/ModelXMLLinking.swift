/// Links the names a model file uses between elements — superentity,
/// destination, inverse, composite type, configuration member — once every
/// entity has been read, so their order in the file does not matter.
struct ModelXMLLinker {
    let file: URL?
    let entities: [NSEntityDescription]
    let composites: [String: [NSAttributeDescription]]
    let configurations: [(name: String, members: [String])]

    func link(into model: NSManagedObjectModel) throws {
        var byName: [String: NSEntityDescription] = [:]
        for entity in entities {
            guard byName.updateValue(entity, forKey: entity.name!) == nil else {
                throw ModelFileError(.invalidModel, "Two entities are named '\(entity.name!)'; entity names must be unique.", file: file, entity: entity.name)
            }
        }
        for entity in entities {
            guard let parentName = entity.unresolvedParentName else { continue }
            guard let parent = byName[parentName] else {
                throw ModelFileError(.invalidModel, "parentEntity '\(parentName)' is not an entity of this model.", file: file, entity: entity.name)
            }
            parent.subentities.append(entity)
            entity.unresolvedParentName = nil
        }
        for entity in entities {
            for property in entity.ownProperties {
                if let composite = property as? NSCompositeAttributeDescription {
                    try link(composite, entity: entity, seen: [])
                }
                guard let relationship = property as? NSRelationshipDescription,
                      let destinationName = relationship.unresolvedDestinationName else { continue }
                guard let destination = byName[destinationName] else {
                    throw ModelFileError(.invalidModel, "destinationEntity '\(destinationName)' is not an entity of this model.", file: file, entity: entity.name, property: relationship.name)
                }
                relationship.destinationEntity = destination
                relationship.unresolvedDestinationName = nil
            }
        }
        for entity in entities {
            for case let relationship as NSRelationshipDescription in entity.ownProperties {
                guard let (inverseEntityName, inverseName) = relationship.unresolvedInverse else { continue }
                let owner = inverseEntityName.flatMap { byName[$0] } ?? relationship.destinationEntity!
                guard let inverse = owner.relationshipsByName[inverseName] else {
                    throw ModelFileError(.invalidModel, "inverse relationship '\(inverseName)' does not exist on entity '\(owner.name!)'.", file: file, entity: entity.name, property: relationship.name)
                }
                relationship.inverseRelationship = inverse
                relationship.unresolvedInverse = nil
            }
        }
        model.entities = entities
        for configuration in configurations {
            let members = try configuration.members.map { member -> NSEntityDescription in
                guard let entity = byName[member] else {
                    throw ModelFileError(.invalidModel, "Configuration '\(configuration.name)' names '\(member)', which is not an entity of this model.", file: file)
                }
                return entity
            }
            model.setEntities(members, forConfigurationName: configuration.name)
        }
    }

    private func link(_ composite: NSCompositeAttributeDescription, entity: NSEntityDescription, seen: Set<String>) throws {
        guard let typeName = composite.compositeTypeName else { return }
        guard let elements = composites[typeName] else {
            throw ModelFileError(.invalidModel, "composite '\(typeName)' is not defined in this model.", file: file, entity: entity.name, property: composite.name)
        }
        guard !seen.contains(typeName) else {
            throw ModelFileError(.invalidModel, "composite '\(typeName)' contains itself.", file: file, entity: entity.name, property: composite.name)
        }
        composite.elements = elements.map { $0.copy() as! NSAttributeDescription }
        for case let nested as NSCompositeAttributeDescription in composite.elements {
            try link(nested, entity: entity, seen: seen.union([typeName]))
        }
    }
}
