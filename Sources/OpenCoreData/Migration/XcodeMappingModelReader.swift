/// Builds an NSMappingModel from an Xcode mapping file, as Xcode's mapping
/// compiler does: entity mappings in `mappingnumber` order; a mapping type
/// "Undefined" (or none) worked out from the models (add, remove, copy when
/// the entity hashes agree, else transform); the source expression from
/// `sourceexpressionstring` (Xcode's `FETCH(FUNCTION($manager,
/// "fetchRequestForSourceEntityNamed:predicateString:", …), …)`) or the
/// source entity and `sourcefilterpredicatestring`; each property mapping's
/// expression from `valueexpressionstring`, or, when none was written,
/// `$source.<name>` for an attribute the source entity has and, for a
/// relationship, the destination instances of `$source.<name>` through the
/// mapping of the relationship's destination entity.
struct XcodeMappingModelReader {
    let file: XcodeMappingFile
    /// The models the mapping maps between, when known: they fill the
    /// version hashes, the undefined mapping types and the default expressions.
    let source: NSManagedObjectModel?
    let destination: NSManagedObjectModel?

    /// The mapping model. Throws 259 naming the mapping and property for an
    /// expression that does not parse or is only archived (`valueexpressiondata`).
    func mappingModel() throws -> NSMappingModel {
        let objects = file.referenced("entitymappings", from: file.root)
            .sorted { Int($0.string("mappingnumber") ?? "") ?? 0 < Int($1.string("mappingnumber") ?? "") ?? 0 }
        let names = objects.map(Self.name)
        var mappingByDestination: [String: String] = [:]
        for (object, name) in zip(objects, names) {
            if let destination = object.string("destinationname"), mappingByDestination[destination] == nil {
                mappingByDestination[destination] = name
            }
        }
        let model = NSMappingModel()
        model.entityMappings = try zip(objects, names).map { object, name in
            try entityMapping(object, name: name, mappingByDestination: mappingByDestination)
        }
        return model
    }

    /// Xcode's default name: "<Source>To<Destination>", or the one entity's name.
    private static func name(_ object: XcodeMappingFile.Object) -> String {
        if let name = object.string("name") { return name }
        switch (object.string("sourcename"), object.string("destinationname")) {
        case let (source?, destination?): return "\(source)To\(destination)"
        case let (source, destination): return destination ?? source ?? "Mapping"
        }
    }

    private func entityMapping(_ object: XcodeMappingFile.Object, name: String,
                               mappingByDestination: [String: String]) throws -> NSEntityMapping {
        let mapping = NSEntityMapping()
        mapping.name = name
        mapping.sourceEntityName = object.string("sourcename")
        mapping.destinationEntityName = object.string("destinationname")
        let sourceEntity = mapping.sourceEntityName.flatMap { source?.entitiesByName[$0] }
        let destinationEntity = mapping.destinationEntityName.flatMap { destination?.entitiesByName[$0] }
        mapping.sourceEntityVersionHash = sourceEntity?.versionHash
        mapping.destinationEntityVersionHash = destinationEntity?.versionHash
        mapping.mappingType = Self.type(object.string("mappingtypename"), mapping, sourceEntity, destinationEntity)
        mapping.entityMigrationPolicyClassName = object.string("migrationpolicyclassname")
        if let written = object.string("sourceexpressionstring") {
            mapping.sourceExpression = try expression(Self.withoutFetch(written), mapping: name, property: "source")
        } else if let entity = mapping.sourceEntityName {
            mapping.sourceExpression = NSExpression(
                forFunction: NSExpression(forVariable: NSMigrationManagerKey),
                selectorName: "fetchRequestForSourceEntityNamed:predicateString:",
                arguments: [NSExpression(forConstantValue: entity),
                            NSExpression(forConstantValue: object.string("sourcefilterpredicatestring")
                                         ?? "TRUEPREDICATE")])
        }
        mapping.attributeMappings = try file.referenced("attributemappings", from: object).map {
            try propertyMapping($0, in: mapping, sourceEntity, relationshipMappingNames: nil)
        }
        mapping.relationshipMappings = try file.referenced("relationshipmappings", from: object).map {
            try propertyMapping($0, in: mapping, sourceEntity, relationshipMappingNames: mappingByDestination)
        }
        return mapping
    }

    private static func type(_ written: String?, _ mapping: NSEntityMapping, _ source: NSEntityDescription?,
                             _ destination: NSEntityDescription?) -> NSEntityMappingType {
        switch written?.lowercased() {
        case "custom": return .customEntityMappingType
        case "add": return .addEntityMappingType
        case "remove": return .removeEntityMappingType
        case "copy": return .copyEntityMappingType
        case "transform": return .transformEntityMappingType
        default:
            if mapping.sourceEntityName == nil { return .addEntityMappingType }
            if mapping.destinationEntityName == nil { return .removeEntityMappingType }
            if let source, let destination, source.versionHash == destination.versionHash {
                return .copyEntityMappingType
            }
            return .transformEntityMappingType
        }
    }

    private func propertyMapping(_ object: XcodeMappingFile.Object, in mapping: NSEntityMapping,
                                 _ sourceEntity: NSEntityDescription?,
                                 relationshipMappingNames: [String: String]?) throws -> NSPropertyMapping {
        let property = NSPropertyMapping()
        property.name = object.string("name")
        let name = property.name ?? ""
        if let written = object.string("valueexpressionstring") {
            property.valueExpression = try expression(written, mapping: mapping.name ?? "", property: name)
        } else if object.string("valueexpressiondata") != nil, object.string("autogenerateexpression") != "1" {
            throw Self.unreadable(file.url, "\(mapping.name ?? "").\(name): its value expression is only archived "
                                  + "(valueexpressiondata), which is not read here; write it as an expression string")
        } else if let names = relationshipMappingNames {
            property.valueExpression = Self.relink(name, sourceEntity, names)
        } else if sourceEntity == nil || sourceEntity?.attributesByName[name] != nil {
            property.valueExpression = NSExpression(format: "$source.\(name)")
        }
        return property
    }

    /// The destination instances of `$source.<name>` through the mapping of
    /// the relationship's destination entity, or, with no source model,
    /// through whichever mapping migrated them.
    private static func relink(_ name: String, _ sourceEntity: NSEntityDescription?,
                               _ names: [String: String]) -> NSExpression? {
        let manager = NSExpression(forVariable: NSMigrationManagerKey)
        let related = NSExpression(format: "$source.\(name)")
        guard let sourceEntity else {
            return NSExpression(forFunction: manager,
                                selectorName: "destinationInstancesForSourceRelationshipNamed:sourceInstances:",
                                arguments: [NSExpression(forConstantValue: name), related])
        }
        guard let target = sourceEntity.relationshipsByName[name]?.destinationEntity?.name,
              let through = names[target] else { return nil }
        return NSExpression(forFunction: manager,
                            selectorName: "destinationInstancesForEntityMappingNamed:sourceInstances:",
                            arguments: [NSExpression(forConstantValue: through), related])
    }

    /// The request expression of Xcode's `FETCH(request, context, countOnly)`,
    /// which this predicate language does not evaluate; other strings as they are.
    static func withoutFetch(_ string: String) -> String {
        let trimmed = string.trimmingCharacters(in: .whitespaces)
        guard trimmed.uppercased().hasPrefix("FETCH("), trimmed.hasSuffix(")") else { return string }
        var depth = 0, quote: Character?
        let body = trimmed.dropFirst("FETCH(".count).dropLast()
        for index in body.indices {
            let character = body[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "(" {
                depth += 1
            } else if character == ")" {
                depth -= 1
            } else if character == ",", depth == 0 {
                return String(body[..<index])
            }
        }
        return String(body)
    }

    private func expression(_ string: String, mapping: String, property: String) throws -> NSExpression {
        do {
            return try NSExpression.parse(string)
        } catch {
            throw Self.unreadable(file.url, "\(mapping).\(property): \(string) is not an expression (\(error))")
        }
    }

    static func unreadable(_ url: URL, _ reason: String) -> NSError {
        NSError(domain: NSCocoaErrorDomain, code: NSFileReadCorruptFileError,
                userInfo: [NSFilePathErrorKey: url.path,
                           NSLocalizedDescriptionKey:
                            "Can't read the mapping model \(url.lastPathComponent): \(reason)."])
    }
}
