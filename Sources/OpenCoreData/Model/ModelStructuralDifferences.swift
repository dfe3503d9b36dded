/// What differs between two models in what a store holds and how objects
/// behave: entities and their hierarchy, and each stored property's kind,
/// type, optionality, and for relationships destination, cardinality, order,
/// inverse and delete rule. Names, not hashes: it compares an OpenCoreData
/// model with one Core Data archived (a store's Z_MODELCACHE), whose hashes
/// are Apple's.
extension NSManagedObjectModel {
    /// One phrase per difference between this model and `other` (empty when
    /// they agree), sorted. Fetched properties, indexes, validation, default
    /// values and userInfo are not compared (a cached model lacks them).
    /// Linear in the number of properties.
    func structuralDifferences(from other: NSManagedObjectModel) -> [String] {
        var differences: [String] = []
        let mine = entitiesByName, theirs = other.entitiesByName
        for name in Set(mine.keys).symmetricDifference(theirs.keys) {
            differences.append("entity \(name) in one model only")
        }
        for (name, entity) in mine {
            guard let counterpart = theirs[name] else { continue }
            if entity.superentity?.name != counterpart.superentity?.name
                || entity.isAbstract != counterpart.isAbstract {
                differences.append("entity \(name): superentity or abstractness")
            }
            let own = Self.storedSummaries(entity), others = Self.storedSummaries(counterpart)
            for key in Set(own.keys).union(others.keys) where own[key] != others[key] {
                differences.append("\(name).\(key): \(own[key] ?? "absent") vs \(others[key] ?? "absent")")
            }
        }
        return differences.sorted()
    }

    /// Each own attribute and relationship of `entity`, described by what the comparison covers.
    private static func storedSummaries(_ entity: NSEntityDescription) -> [String: String] {
        var summaries: [String: String] = [:]
        for property in entity.ownProperties {
            var text = (property.isOptional ? "optional" : "required") + (property.isTransient ? " transient" : "")
            switch property {
            case let attribute as NSAttributeDescription:
                text += " attribute \(attribute.attributeType.rawValue)"
            case let relationship as NSRelationshipDescription:
                text += " relationship to \(relationship.destinationEntity?.name ?? "?")"
                    + " \(relationship.minCount)...\(relationship.maxCount)"
                    + (relationship.isOrdered ? " ordered" : "")
                    + " inverse \(relationship.inverseRelationship?.name ?? "none")"
                    + " delete \(relationship.deleteRule.rawValue)"
            default:
                continue
            }
            summaries[property.name] = text
        }
        return summaries
    }
}
