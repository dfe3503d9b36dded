import Foundation

// How the policies other than the error policy resolve a uniqueness-constraint conflict. Apple documents the
// policies for optimistic locking only; what they do with constraints is observed behaviour (see
// docs/Differences.md, "Uniqueness constraints"): one object survives — the stored record's for a database-level
// conflict, so that references to it stay valid — and the others are deleted after their relationships moved to it.

extension NSMergePolicy {
    /// Keeps one object of `conflict` and deletes the others:
    /// - object trump: the survivor takes each other object's attributes and to-one relationships (nil ones too,
    ///   as on Apple) and gains their to-many destinations;
    /// - overwrite: the same, but the survivor's to-many relationships become the other object's;
    /// - store trump: the survivor keeps its values and gains the others' to-many destinations;
    /// - rollback: the survivor keeps its values; the others are deleted with their delete rules.
    /// In a context-level conflict the survivor is the object already saved if there is one, otherwise the first
    /// inserted; the others are applied in the order they were inserted, so the last one's values win.
    func resolveByType(_ conflict: NSConstraintConflict) {
        let live = conflict.conflictingObjects.filter { $0.managedObjectContext != nil && !$0.isDeletedFlag }
        guard let survivor = conflict.databaseObject ?? live.first(where: { !$0.isInsertedFlag }) ?? live.first,
              let context = survivor.managedObjectContext else { return }
        for loser in live where loser !== survivor {
            switch mergeType {
            case .mergeByPropertyObjectTrumpMergePolicyType:
                Self.copyValues(from: loser, to: survivor)
                Self.joinToMany(from: loser, into: survivor, replacing: false)
            case .overwriteMergePolicyType:
                Self.copyValues(from: loser, to: survivor)
                Self.joinToMany(from: loser, into: survivor, replacing: true)
            case .mergeByPropertyStoreTrumpMergePolicyType:
                Self.joinToMany(from: loser, into: survivor, replacing: false)
            case .rollbackMergePolicyType, .errorMergePolicyType:
                context.delete(loser)
                continue
            }
            // Detached first, so that its delete rules reach nothing that now belongs to the survivor.
            Self.detach(loser)
            context.delete(loser)
        }
    }

    /// The stored relationships `object` and `other` both have, by name.
    private static func shared(_ object: NSManagedObject, _ other: NSManagedObject) -> [NSPropertyDescription] {
        let names = other.entity.propertiesByName
        return object.entity.properties.filter { property in
            !property.isTransient && names[property.name].map { type(of: $0) == type(of: property) } == true
                && (property is NSAttributeDescription || property is NSRelationshipDescription)
                && !(property is NSDerivedAttributeDescription)
        }
    }

    private static func copyValues(from loser: NSManagedObject, to survivor: NSManagedObject) {
        for property in shared(loser, survivor) {
            if let relationship = property as? NSRelationshipDescription, relationship.isToMany { continue }
            let value = loser.value(forKey: property.name)
            guard !ValueEquality.equal(value, survivor.value(forKey: property.name)) else { continue }
            survivor.setValue(value, forKey: property.name)
        }
    }

    private static func joinToMany(from loser: NSManagedObject, into survivor: NSManagedObject, replacing: Bool) {
        for case let relationship as NSRelationshipDescription in shared(loser, survivor) where relationship.isToMany {
            let name = relationship.name
            let members = ManagedRelationshipAccessors.members(of: name, of: loser)
            if replacing {
                let old = ManagedRelationshipAccessors.members(of: name, of: survivor)
                ManagedRelationshipAccessors.remove(old, from: name, of: survivor)
            }
            ManagedRelationshipAccessors.append(members, to: name, of: survivor)
        }
    }

    /// Empties every relationship of `object`.
    private static func detach(_ object: NSManagedObject) {
        for case let relationship as NSRelationshipDescription in object.entity.properties {
            if relationship.isToMany {
                let members = ManagedRelationshipAccessors.members(of: relationship.name, of: object)
                ManagedRelationshipAccessors.remove(members, from: relationship.name, of: object)
            } else if object.value(forKey: relationship.name) != nil {
                object.setValue(nil, forKey: relationship.name)
            }
        }
    }

    /// The error message of the error policy: each conflict's entity, constraint and values.
    static func describe(_ list: [NSConstraintConflict]) -> String {
        let shown = list.prefix(5).map { conflict in
            let entity = (conflict.databaseObject ?? conflict.conflictingObjects.first)?.entity.name ?? "?"
            let values = conflict.constraint.map { "\($0) = \(conflict.constraintValues[$0] ?? "nil")" }
            let kind = conflict.databaseObject == nil ? "\(conflict.conflictingObjects.count) unsaved objects"
                : "an unsaved object and a stored one"
            return "\(entity) (\(values.joined(separator: ", "))): \(kind)"
        }
        let more = list.count > shown.count ? "; and \(list.count - shown.count) more" : ""
        return "The save violates uniqueness constraints: " + shown.joined(separator: "; ") + more
            + ". Set the context's mergePolicy to resolve such conflicts, or change the values."
    }
}
