@_exported import OpenCoreData

/// A model described for people (text) and for programs (JSON): its
/// entities, attributes (derived and composite too), relationships, fetched
/// properties, indexes, uniqueness constraints, configurations and fetch
/// request templates.
public enum ModelSummary {
    /// One line per entity, attribute and relationship, in name order, each
    /// saying what Core Data does with it.
    public static func text(_ model: NSManagedObjectModel) -> String {
        var lines: [String] = []
        for entity in sortedEntities(model) { lines.append(text(forEntity: entity)) }
        for name in model.configurations {
            let members = (model.entities(forConfigurationName: name) ?? []).compactMap(\.name).sorted()
            let cloud = model.configurationsUsedWithCloudKit.contains(name) ? " (used with CloudKit)" : ""
            lines.append("configuration \(name)\(cloud): \(members.joined(separator: ", "))")
        }
        for (name, request) in model.fetchRequestDescriptionsByName.sorted(by: { $0.key < $1.key }) {
            lines.append("fetch request template \(name): \(request.entityName) where \(request.predicateFormat ?? "TRUEPREDICATE")")
        }
        return lines.joined(separator: "\n")
    }

    /// One entity's lines: its header, then its own properties, indexes and constraints.
    public static func text(forEntity entity: NSEntityDescription) -> String {
        var lines: [String] = []
        var header = "entity \(entity.name ?? "") (class \(entity.managedObjectClassName ?? "")"
        if let parent = entity.superentity?.name { header += ", inherits \(parent)" }
        if entity.isAbstract { header += ", abstract" }
        lines.append(header + ")")
        for attribute in ownAttributes(entity) { lines.append("  attribute " + describe(attribute)) }
        for relationship in ownRelationships(entity) { lines.append("  relationship " + describe(relationship)) }
        for fetched in ownFetchedProperties(entity) { lines.append("  fetched property " + describe(fetched)) }
        for index in entity.indexes { lines.append("  index " + describe(index)) }
        for constraint in constraints(entity) { lines.append("  unique (\(constraint.joined(separator: ", ")))") }
        return lines.joined(separator: "\n")
    }

    /// The model as a JSON document: `{"entities": [{"name", "className",
    /// "parent", "abstract", "versionHash", "attributes", "relationships", "fetchedProperties", "indexes",
    /// "uniquenessConstraints"}], "configurations": [{"name", "usedWithCloudKit", "entities"}]}`.
    public static func json(_ model: NSManagedObjectModel) -> String {
        let entities: [[String: Any]] = sortedEntities(model).map { entity in
            [
                "name": entity.name ?? "",
                "className": entity.managedObjectClassName ?? "",
                "parent": entity.superentity?.name ?? NSNull(),
                "abstract": entity.isAbstract,
                "versionHash": entity.versionHash.base64EncodedString(),
                "attributes": ownAttributes(entity).map(attributeJSON),
                "relationships": ownRelationships(entity).map { relationship -> [String: Any] in
                    ["name": relationship.name, "destination": relationship.destinationEntity?.name ?? "",
                     "toMany": relationship.isToMany, "ordered": relationship.isOrdered,
                     "optional": relationship.isOptional,
                     "inverse": relationship.inverseRelationship?.name ?? NSNull(),
                     "deleteRule": relationship.deleteRule.modelFileName]
                },
                "fetchedProperties": ownFetchedProperties(entity).map { fetched -> [String: Any] in
                    ["name": fetched.name, "entity": fetched.fetchRequestDescription?.entityName ?? NSNull(),
                     "predicate": fetched.fetchRequestDescription?.predicateFormat ?? NSNull()]
                },
                "indexes": entity.indexes.map { index -> [String: Any] in
                    ["name": index.name, "elements": index.elements.map(describe)]
                },
                "uniquenessConstraints": constraints(entity),
            ]
        }
        let configurations: [[String: Any]] = model.configurations.map { name in
            ["name": name, "usedWithCloudKit": model.configurationsUsedWithCloudKit.contains(name),
             "entities": (model.entities(forConfigurationName: name) ?? []).compactMap(\.name).sorted()]
        }
        return JSONValue.document(["entities": entities, "configurations": configurations])
    }

    static func attributeJSON(_ attribute: NSAttributeDescription) -> [String: Any] {
        var json: [String: Any] = ["name": attribute.name, "type": attribute.attributeType.modelFileName ?? "Undefined",
                                   "optional": attribute.isOptional, "transient": attribute.isTransient]
        if let value = attribute.defaultValue { json["default"] = JSONValue.from(value) }
        if let derived = attribute as? NSDerivedAttributeDescription {
            json["derivation"] = derived.derivationExpressionFormat ?? NSNull()
        }
        return json
    }

    /// What Core Data does with a relationship, in words.
    public static func describe(_ relationship: NSRelationshipDescription) -> String {
        let cardinality = relationship.isToMany ? (relationship.isOrdered ? "to-many, ordered" : "to-many") : "to-one"
        let inverse = relationship.inverseRelationship.map { "inverse \($0.entity?.name ?? "").\($0.name)" } ?? "no inverse"
        let rule: String
        switch relationship.deleteRule {
        case .cascadeDeleteRule: rule = "deleting the owner deletes these too (Cascade)"
        case .nullifyDeleteRule: rule = "deleting the owner clears their link back (Nullify)"
        case .denyDeleteRule: rule = "the owner can't be deleted while any remain (Deny)"
        case .noActionDeleteRule: rule = "deleting the owner leaves them pointing at it (No Action)"
        }
        return "\(relationship.name) → \(relationship.destinationEntity?.name ?? "?") (\(cardinality), \(inverse)); \(rule)"
    }

    /// An attribute's type, optionality, default and bounds, in words.
    public static func describe(_ attribute: NSAttributeDescription) -> String {
        var text = "\(attribute.name): \(attribute.attributeType.modelFileName ?? "Undefined")"
        text += attribute.isTransient ? ", transient" : ""
        if let derived = attribute as? NSDerivedAttributeDescription {
            text += ", derived from \(derived.derivationExpressionFormat ?? "?")"
        }
        if let composite = attribute as? NSCompositeAttributeDescription {
            text += " of (" + composite.elements.map { describe($0) }.joined(separator: "; ") + ")"
        }
        text += attribute.isOptional ? ", optional" : ", required"
        // Strings quoted, so that an empty default shows as "" rather than as nothing.
        if let value = attribute.defaultValue { text += ", default " + (value is String ? "\"\(value)\"" : "\(value)") }
        let rules = attribute.validationRules
        if let min = rules.minValueString { text += ", at least \(min)" }
        if let max = rules.maxValueString { text += ", at most \(max)" }
        return text
    }

    static func sortedEntities(_ model: NSManagedObjectModel) -> [NSEntityDescription] {
        model.entities.sorted { ($0.name ?? "") < ($1.name ?? "") }
    }

    static func ownAttributes(_ entity: NSEntityDescription) -> [NSAttributeDescription] {
        entity.ownProperties.compactMap { $0 as? NSAttributeDescription }.sorted { $0.name < $1.name }
    }

    static func ownRelationships(_ entity: NSEntityDescription) -> [NSRelationshipDescription] {
        entity.ownProperties.compactMap { $0 as? NSRelationshipDescription }.sorted { $0.name < $1.name }
    }

    static func ownFetchedProperties(_ entity: NSEntityDescription) -> [NSFetchedPropertyDescription] {
        entity.ownProperties.compactMap { $0 as? NSFetchedPropertyDescription }.sorted { $0.name < $1.name }
    }

    /// The entity's uniqueness constraints, each as its property names.
    static func constraints(_ entity: NSEntityDescription) -> [[String]] {
        entity.uniquenessConstraints.map { $0.map { ($0 as? NSPropertyDescription)?.name ?? "\($0)" } }
    }

    /// A fetched property's request, in words.
    public static func describe(_ fetched: NSFetchedPropertyDescription) -> String {
        let request = fetched.fetchRequestDescription
        return "\(fetched.name): \(request?.entityName ?? "?") where \(request?.predicateFormat ?? "TRUEPREDICATE")"
    }

    /// An index: its name and elements (`name desc`, `location (R-tree)`).
    public static func describe(_ index: NSFetchIndexDescription) -> String {
        "\(index.name) (" + index.elements.map(describe).joined(separator: ", ") + ")"
    }

    static func describe(_ element: NSFetchIndexElementDescription) -> String {
        var text = element.propertyName ?? "?"
        if !element.isAscending { text += " desc" }
        if element.collationType == .rTree { text += " (R-tree)" }
        return text
    }
}
