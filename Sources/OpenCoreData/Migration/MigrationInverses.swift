/// Which relationship mappings the default policy leaves to inverse
/// maintenance: when both sides of a relationship pair are filled by
/// mappings run by the default policy, setting one side sets the other, and
/// setting the wrong one loads every related object at once (a folder's
/// thousands of notes in one batch). The side set is, in order: an ordered
/// to-many (its order is only known there), a to-one, then the to-many of
/// the entity with more instances (smaller sets), then the lower
/// entity and relationship name.
enum MigrationInverses {
    /// "<entity mapping name>.<relationship name>" of each side left to its inverse.
    static func leftToInverse(_ mapping: NSMappingModel, manager: NSMigrationManager) -> Set<String> {
        var filled: [ObjectIdentifier: (mapping: NSEntityMapping, count: Int)] = [:]
        for entityMapping in mapping.entityMappings ?? [] where usesDefaultPolicy(entityMapping) {
            guard let entity = manager.destinationEntity(for: entityMapping) else { continue }
            let count = manager.associations.destinationsInOrder[entityMapping.name ?? ""]?.count ?? 0
            for property in entityMapping.relationshipMappings ?? [] where property.valueExpression != nil {
                if let relationship = entity.relationshipsByName[property.name ?? ""] {
                    filled[ObjectIdentifier(relationship)] = (entityMapping, count)
                }
            }
        }
        var left = Set<String>()
        for entityMapping in mapping.entityMappings ?? [] where usesDefaultPolicy(entityMapping) {
            guard let entity = manager.destinationEntity(for: entityMapping) else { continue }
            let count = manager.associations.destinationsInOrder[entityMapping.name ?? ""]?.count ?? 0
            for property in entityMapping.relationshipMappings ?? [] {
                guard let relationship = entity.relationshipsByName[property.name ?? ""],
                      let inverse = relationship.inverseRelationship, inverse !== relationship,
                      let other = filled[ObjectIdentifier(inverse)] else { continue }
                if rank(inverse, other.count, otherwiseThan: relationship, count) {
                    left.insert("\(entityMapping.name ?? "").\(property.name ?? "")")
                }
            }
        }
        return left
    }

    /// Whether `a` (on an entity with `aCount` instances) is the side to set rather than `b`.
    private static func rank(_ a: NSRelationshipDescription, _ aCount: Int,
                             otherwiseThan b: NSRelationshipDescription, _ bCount: Int) -> Bool {
        func kind(_ r: NSRelationshipDescription) -> Int { r.isToMany ? (r.isOrdered ? 2 : 0) : 1 }
        if kind(a) != kind(b) { return kind(a) > kind(b) }
        if aCount != bCount { return aCount > bCount }
        return (a.entity?.name ?? "", a.name) < (b.entity?.name ?? "", b.name)
    }

    private static func usesDefaultPolicy(_ mapping: NSEntityMapping) -> Bool {
        let name = mapping.entityMigrationPolicyClassName ?? ""
        return name.isEmpty || name == "NSEntityMigrationPolicy"
    }
}
