/// Where an entity lives in a Core Data store: its number and its table.
struct SQLiteEntity: Hashable, Sendable {
    var name: String
    /// `Z_ENT`: the entity's number, 1…n over the model.
    var number: Int
    /// `Z_SUPER`: the superentity's number, 0 for a root entity.
    var superNumber: Int
    /// The table of the entity's hierarchy, `Z` + the root's uppercased name.
    var table: String
    /// The numbers of the entity and all its sub-entities. They are
    /// contiguous because numbering walks each hierarchy depth-first, so
    /// "rows of this entity or a sub-entity" is `Z_ENT BETWEEN lower AND upper`.
    var numbers: ClosedRange<Int>
}

/// Core Data's entity numbering: a pre-order walk of the inheritance forest,
/// roots and siblings sorted by name, case-insensitively (holds for every
/// corpus store, see docs/SQLiteLayout.md).
enum SQLiteEntityNumbering {
    /// The name order Core Data uses for entities (and, in this schema, to
    /// break ties between names): case-insensitive, then the exact spelling.
    static func precedes(_ a: String, _ b: String) -> Bool {
        let (la, lb) = (a.lowercased(), b.lowercased())
        return la != lb ? la < lb : a < b
    }

    /// `entities` in Z_ENT order (index + 1 is the number), each with its
    /// hierarchy root. Superentities outside `entities` (another
    /// configuration) are ignored. O(n log n).
    static func order(_ entities: [NSEntityDescription]) -> [(entity: NSEntityDescription, root: NSEntityDescription)] {
        let members = Set(entities.map(ObjectIdentifier.init))
        func sorted(_ list: [NSEntityDescription]) -> [NSEntityDescription] {
            list.filter { members.contains(ObjectIdentifier($0)) }.sorted { precedes($0.name ?? "", $1.name ?? "") }
        }
        var result: [(NSEntityDescription, NSEntityDescription)] = []
        func walk(_ entity: NSEntityDescription, root: NSEntityDescription) {
            result.append((entity, root))
            for sub in sorted(entity.subentities) { walk(sub, root: root) }
        }
        let roots = entities.filter { $0.superentity.map { !members.contains(ObjectIdentifier($0)) } ?? true }
        for root in sorted(roots) { walk(root, root: root) }
        return result
    }
}
