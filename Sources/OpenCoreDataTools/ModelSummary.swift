@_exported import OpenCoreData

/// A model described for people (text) and for programs (JSON): its
/// entities, attributes, relationships and fetch request templates.
public enum ModelSummary {
    /// One line per entity, attribute and relationship, in name order, each
    /// saying what Core Data does with it.
    public static func text(_ model: NSManagedObjectModel) -> String {
        var lines: [String] = []
        for entity in sortedEntities(model) {
            var header = "entity \(entity.name ?? "") (class \(entity.managedObjectClassName ?? "")"
            if let parent = entity.superentity?.name { header += ", inherits \(parent)" }
            if entity.isAbstract { header += ", abstract" }
            lines.append(header + ")")
            for attribute in ownAttributes(entity) { lines.append("  attribute " + describe(attribute)) }
            for relationship in ownRelationships(entity) { lines.append("  relationship " + describe(relationship)) }
        }
        for (name, request) in model.fetchRequestDescriptionsByName.sorted(by: { $0.key < $1.key }) {
            lines.append("fetch request template \(name): \(request.entityName) where \(request.predicateFormat ?? "TRUEPREDICATE")")
        }
        return lines.joined(separator: "\n")
    }

    /// The model as a JSON document: `{"entities": [{"name", "className",
    /// "parent", "abstract", "versionHash", "attributes": [...], "relationships": [...]}]}`.
    public static func json(_ model: NSManagedObjectModel) -> String {
        let entities: [[String: Any]] = sortedEntities(model).map { entity in
            [
                "name": entity.name ?? "",
                "className": entity.managedObjectClassName ?? "",
                "parent": entity.superentity?.name ?? NSNull(),
                "abstract": entity.isAbstract,
                "versionHash": entity.versionHash.base64EncodedString(),
                "attributes": ownAttributes(entity).map { attribute -> [String: Any] in
                    ["name": attribute.name, "type": attribute.attributeType.modelFileName ?? "Undefined",
                     "optional": attribute.isOptional, "transient": attribute.isTransient]
                },
                "relationships": ownRelationships(entity).map { relationship -> [String: Any] in
                    ["name": relationship.name, "destination": relationship.destinationEntity?.name ?? "",
                     "toMany": relationship.isToMany, "ordered": relationship.isOrdered,
                     "optional": relationship.isOptional,
                     "inverse": relationship.inverseRelationship?.name ?? NSNull(),
                     "deleteRule": relationship.deleteRule.modelFileName]
                },
            ]
        }
        let data = try! JSONSerialization.data(withJSONObject: ["entities": entities], options: [.prettyPrinted, .sortedKeys])
        return String(decoding: data, as: UTF8.self)
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
        text += attribute.isOptional ? ", optional" : ", required"
        if let value = attribute.defaultValue { text += ", default \(value)" }
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
}
