/// Infers the mapping between two model versions the way Core Data's
/// lightweight migration does, accepting exactly the changes Apple documents
/// as inferable ("Lightweight Migration", Core Data Model Versioning and Data
/// Migration Programming Guide; "Migrating your data model automatically").
///
/// Entities and properties are paired by their canonical name: the
/// `renamingIdentifier` when set, else the name, so that a renaming kept
/// across versions pairs v1 with v3 as well as v2 with v3.
struct MappingInference {
    let source: NSManagedObjectModel
    let destination: NSManagedObjectModel

    /// The inferred mapping model; throws 134190 naming what can't be inferred.
    func mappingModel() throws -> NSMappingModel {
        let pairs = entityPairs()
        try checkHierarchies(pairs)
        var mappings: [NSEntityMapping] = []
        for (sourceEntity, destinationEntity) in pairs {
            mappings.append(try entityMapping(from: sourceEntity, to: destinationEntity, pairs: pairs))
        }
        let model = NSMappingModel()
        model.entityMappings = mappings
        return model
    }

    /// The canonical name of an entity or property: its renaming identifier, else its name.
    static func canonicalName(_ name: String?, renamingIdentifier: String?) -> String {
        if let renamingIdentifier, !renamingIdentifier.isEmpty { return renamingIdentifier }
        return name ?? ""
    }

    /// Every destination entity with the source entity it comes from (nil when
    /// added), then the source entities no destination entity takes (removed).
    func entityPairs() -> [(source: NSEntityDescription?, destination: NSEntityDescription?)] {
        var unused = source.entities
        var pairs: [(NSEntityDescription?, NSEntityDescription?)] = []
        for entity in destination.entities {
            let key = Self.canonicalName(entity.name, renamingIdentifier: entity.renamingIdentifier)
            let index = unused.firstIndex {
                Self.canonicalName($0.name, renamingIdentifier: $0.renamingIdentifier) == key
            }
                ?? unused.firstIndex { $0.name == key }
            pairs.append((index.map { unused.remove(at: $0) }, entity))
        }
        return pairs + unused.map { ($0, nil) }
    }

    /// "You cannot merge entity hierarchies": entities of two source
    /// hierarchies may not end up in one destination hierarchy (in SQLite,
    /// two tables whose primary keys would collide in one).
    private func checkHierarchies(_ pairs: [(source: NSEntityDescription?, destination: NSEntityDescription?)]) throws {
        var sourceRoots: [String: (root: String, entity: String)] = [:]
        for case let (source?, destination?) in pairs {
            let destinationRoot = Self.root(of: destination).name ?? ""
            let sourceRoot = Self.root(of: source).name ?? ""
            if let earlier = sourceRoots[destinationRoot], earlier.root != sourceRoot {
                throw Self.refusal("entities \(earlier.entity) and \(destination.name ?? "") come from two hierarchies "
                                   + "(\(earlier.root) and \(sourceRoot)) and cannot share the hierarchy of "
                                   + "\(destinationRoot): merging entity hierarchies is not inferable",
                                   entity: destination.name, property: nil)
            }
            sourceRoots[destinationRoot] = (sourceRoot, destination.name ?? "")
        }
    }

    private func entityMapping(from sourceEntity: NSEntityDescription?, to destinationEntity: NSEntityDescription?,
                               pairs: [(source: NSEntityDescription?, destination: NSEntityDescription?)]) throws
        -> NSEntityMapping {
        let mapping = NSEntityMapping()
        mapping.sourceEntityName = sourceEntity?.name
        mapping.sourceEntityVersionHash = sourceEntity?.versionHash
        mapping.destinationEntityName = destinationEntity?.name
        mapping.destinationEntityVersionHash = destinationEntity?.versionHash
        guard let destinationEntity else {
            mapping.mappingType = .removeEntityMappingType
            mapping.name = "IEM_Remove_\(sourceEntity?.name ?? "")"
            return mapping
        }
        let (attributes, relationships) = try propertyMappings(from: sourceEntity, to: destinationEntity, pairs: pairs)
        mapping.attributeMappings = attributes
        mapping.relationshipMappings = relationships
        if let sourceEntity {
            let same = sourceEntity.name == destinationEntity.name
                && sourceEntity.versionHash == destinationEntity.versionHash
            mapping.mappingType = same ? .copyEntityMappingType : .transformEntityMappingType
            mapping.name = same ? "IEM_Copy_\(destinationEntity.name ?? "")"
                : "IEM_Transform_\(sourceEntity.name ?? "")_to_\(destinationEntity.name ?? "")"
        } else {
            mapping.mappingType = .addEntityMappingType
            mapping.name = "IEM_Add_\(destinationEntity.name ?? "")"
        }
        return mapping
    }

    /// One mapping per stored destination property, each naming the source
    /// property it copies (nil for an added one), after checking the pair.
    private func propertyMappings(from sourceEntity: NSEntityDescription?, to destinationEntity: NSEntityDescription,
                                  pairs: [(source: NSEntityDescription?, destination: NSEntityDescription?)]) throws
        -> (attributes: [NSPropertyMapping], relationships: [NSPropertyMapping]) {
        let candidates = (sourceEntity?.properties ?? []).filter(Self.isStored)
        var byCanonical: [String: NSPropertyDescription] = [:], byName: [String: NSPropertyDescription] = [:]
        for property in candidates {
            byCanonical[Self.canonicalName(property.name, renamingIdentifier: property.renamingIdentifier)] = property
            byName[property.name] = property
        }
        var attributes: [NSPropertyMapping] = [], relationships: [NSPropertyMapping] = []
        for property in destinationEntity.properties where Self.isStored(property) {
            let key = Self.canonicalName(property.name, renamingIdentifier: property.renamingIdentifier)
            let match = byCanonical[key] ?? byName[key]
            if let match { try check(match, becoming: property, in: destinationEntity, pairs: pairs) }
            switch property {
            case is NSAttributeDescription:
                let value = match.map { Self.sourceKeyPath($0.name) }
                attributes.append(NSPropertyMapping(name: property.name, sourcePropertyName: match?.name,
                                                    valueExpression: value))
            case is NSRelationshipDescription:
                let value = match.map { Self.relationshipExpression($0.name) }
                relationships.append(NSPropertyMapping(name: property.name, sourcePropertyName: match?.name,
                                                       valueExpression: value))
            default: break
            }
        }
        return (attributes, relationships)
    }

    /// Refuses a pair of properties whose change is not inferable.
    private func check(_ old: NSPropertyDescription, becoming new: NSPropertyDescription,
                       in entity: NSEntityDescription,
                       pairs: [(source: NSEntityDescription?, destination: NSEntityDescription?)]) throws {
        let name = entity.name
        switch (old, new) {
        case let (old as NSAttributeDescription, new as NSAttributeDescription):
            guard old.attributeType == new.attributeType
                    || (Self.numericTypes.contains(old.attributeType) && Self.numericTypes.contains(new.attributeType))
            else {
                throw Self.refusal("attribute \(name ?? "").\(new.name) changes type from \(old.attributeType) to "
                                   + "\(new.attributeType); only a change between numeric types is inferable",
                                   entity: name, property: new.name)
            }
        case let (old as NSRelationshipDescription, new as NSRelationshipDescription):
            if old.isToMany && !new.isToMany {
                throw Self.refusal("relationship \(name ?? "").\(new.name) changes from to-many to to-one; only "
                                   + "to-one to to-many is inferable", entity: name, property: new.name)
            }
            let sourceOfDestination = pairs.first { $0.destination === new.destinationEntity }?.source
            guard let sourceOfDestination, sourceOfDestination === old.destinationEntity else {
                throw Self.refusal("relationship \(name ?? "").\(new.name) points at "
                                   + "\(new.destinationEntity?.name ?? "nothing"), which is not what "
                                   + "\(old.destinationEntity?.name ?? "nothing") became", entity: name,
                                   property: new.name)
            }
        default:
            let kinds = [old, new].map { $0 is NSAttributeDescription ? "an attribute" : "a relationship" }
            throw Self.refusal("property \(name ?? "").\(new.name) changes from \(kinds[0]) to \(kinds[1])",
                               entity: name, property: new.name)
        }
    }

    /// Attributes and relationships that are not transient: what a store
    /// keeps (fetched properties are queries, not values).
    static func isStored(_ property: NSPropertyDescription) -> Bool {
        !property.isTransient && (property is NSAttributeDescription || property is NSRelationshipDescription)
    }

    /// The types between which a change is inferred, the value converted as
    /// NSNumber converts it. Apple's guides do not list type changes, but
    /// apps ship them as lightweight migrations: WooCommerce's Storage model
    /// widened Int16 to Int64 (model 3) and made an Int64 a Decimal (model
    /// 46) and a Double (model 88) without a mapping model (its MIGRATIONS.md).
    static let numericTypes: Set<NSAttributeType> = [
        .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .decimalAttributeType,
        .doubleAttributeType, .floatAttributeType,
    ]

    /// `$source.name`.
    static func sourceKeyPath(_ name: String) -> NSExpression {
        NSExpression(kind: .keyPath(NSExpression(forVariable: "source"), name))
    }

    /// `FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", name, $source.name)`,
    /// what Xcode writes for a relationship copied as it is.
    static func relationshipExpression(_ name: String) -> NSExpression {
        NSExpression(forFunction: NSExpression(forVariable: "manager"),
                     selectorName: "destinationInstancesForSourceRelationshipNamed:sourceInstances:",
                     arguments: [NSExpression(forConstantValue: name), sourceKeyPath(name)])
    }

    static func root(of entity: NSEntityDescription) -> NSEntityDescription {
        var root = entity
        while let parent = root.superentity { root = parent }
        return root
    }

    /// NSInferredMappingModelError (134190) with the reason, the entity and the property in userInfo.
    static func refusal(_ reason: String, entity: String?, property: String?) -> NSError {
        var info: [String: Any] = ["reason": reason]
        if let entity { info["entity"] = entity }
        if let property { info["property"] = property }
        return NSError.coreData(NSInferredMappingModelError, "Can't infer a mapping model: \(reason).", userInfo: info)
    }
}
