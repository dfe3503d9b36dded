import Foundation

/// One uniqueness constraint as a save checks it: the property names, and the entity whose objects (with those of
/// its sub-entities) must not share their values. A constraint a sub-entity repeats from an ancestor is the
/// ancestor's, so it spans the whole hierarchy below it.
struct UniquenessConstraint: Hashable {
    let scope: NSEntityDescription
    let names: [String]

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.scope === rhs.scope && lhs.names == rhs.names }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(scope))
        hasher.combine(names)
    }

    /// The constraints that apply to objects of `entity`: its own and its ancestors'.
    static func all(for entity: NSEntityDescription) -> [UniquenessConstraint] {
        var chain: [NSEntityDescription] = []
        var next: NSEntityDescription? = entity
        while let current = next {
            chain.append(current)
            next = current.superentity
        }
        var found: [UniquenessConstraint] = []
        for declaring in chain.reversed() {
            for names in declaring.uniquenessConstraintNames where !found.contains(where: { $0.names == names }) {
                found.append(UniquenessConstraint(scope: declaring, names: names))
            }
        }
        return found
    }

    /// The key of `values` (one per name, in order), equal for values the store holds equal (numbers of any type
    /// by value, as predicates compare them; relationship destinations by object ID, which the caller passes);
    /// nil when one is nil, since a missing value conflicts with nothing (as SQLite's unique indexes treat NULL).
    static func key(_ values: [Any?]) -> [AnyHashable]? {
        var parts: [AnyHashable] = []
        parts.reserveCapacity(values.count)
        for value in values {
            guard let value, !(value is NSNull), let part = Aggregates.hashKey(value) else { return nil }
            parts.append(part)
        }
        return parts
    }
}
