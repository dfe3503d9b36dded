import GRDB

/// Where each entity's columns sit in the rows of one query, and how each is
/// read: resolved by name once per entity and query, so that reading a row
/// costs positional reads into precomputed slots instead of a name search
/// per column (GRDB's `row[name]`), a mapping lookup per record and a look
/// at each attribute's type per value.
final class SQLiteRowLayout {
    /// How one entity's records are read from the query's rows.
    final class Reads {
        /// The mapping entity; `description` is the entity the reads were made for.
        let entity: SQLiteMapping.Entity
        let description: NSEntityDescription
        let slotLayout: PropertySlotLayout
        /// The positions of `Z_ENT` and `Z_OPT`; nil where the query lacks them.
        let entityPosition: Int?
        let versionPosition: Int?
        let attributes: [Attribute]
        let toOnes: [ToOne]
        /// The slots of to-many relationships, which a record leaves `.unread`.
        let toManySlots: [Int]
        /// Where each slot's value comes from, by slot: the record's values
        /// are made in one pass over them.
        let sources: [Source]

        /// Where a slot's value comes from.
        enum Source {
            /// No column: the slot is none (a transient property, a column
            /// the query lacks).
            case none
            /// `attributes[index]`, with its column position and kind: the
            /// common kinds read without touching the attribute (each
            /// access to it, a class reference, cost a retain and a release).
            case attribute(position: Int, kind: SQLiteColumnReader.Kind, index: Int)
            /// A to-many relationship, left `.unread`.
            case toMany
            /// `toOnes[index]`.
            case toOne(Int)
        }

        struct Attribute {
            let position: Int
            let slot: Int
            let kind: SQLiteColumnReader.Kind
            let attribute: NSAttributeDescription
        }

        /// A to-one relationship kept as a foreign key: its key column, the
        /// destination entity column of a relationship to an entity with
        /// sub-entities, and the destination when that column is absent.
        struct ToOne {
            let keyPosition: Int
            let entityPosition: Int?
            let slot: Int
            let destination: NSEntityDescription?
        }

        fileprivate init(_ entity: SQLiteMapping.Entity, description: NSEntityDescription,
                         position: (String) -> Int?) {
            self.entity = entity
            self.description = description
            slotLayout = description.slotLayout
            entityPosition = position("Z_ENT")
            versionPosition = position("Z_OPT")
            attributes = entity.attributes.indices.compactMap { index in
                let attribute = entity.attributes[index]
                return position(attribute.column).map {
                    Attribute(position: $0, slot: entity.attributeSlots[index],
                              kind: SQLiteColumnReader.Kind(attribute.attribute.attributeType),
                              attribute: attribute.attribute)
                }
            }
            var toOnes: [ToOne] = [], toManySlots: [Int] = []
            for (index, (relationship, storage)) in entity.relationships.enumerated() {
                let slot = entity.relationshipSlots[index]
                if relationship.isToMany {
                    toManySlots.append(slot)
                } else if case .foreignKey(let key) = storage, let keyPosition = position(key.column) {
                    toOnes.append(ToOne(keyPosition: keyPosition, entityPosition: key.entityColumn.flatMap(position),
                                        slot: slot, destination: relationship.destinationEntity))
                }
            }
            self.toOnes = toOnes
            self.toManySlots = toManySlots
            var sources = [Source](repeating: .none, count: slotLayout.count)
            for (index, read) in attributes.enumerated() {
                sources[read.slot] = .attribute(position: read.position, kind: read.kind, index: index)
            }
            for slot in toManySlots { sources[slot] = .toMany }
            for (index, toOne) in toOnes.enumerated() { sources[toOne.slot] = .toOne(index) }
            self.sources = sources
        }
    }

    private let positions: [String: Int]
    private var byEntity: [ObjectIdentifier: Reads] = [:]
    /// The reads asked for last: rows of one entity follow one another, so
    /// most lookups end here.
    private var last: Reads?
    /// The same for lookups by `Z_ENT`: always made for the mapping's own
    /// description of that number (`last` may be for another instance of
    /// an equal entity).
    private var lastByNumber: Reads?

    /// The layout of rows with `columnNames` (a statement's); a name
    /// selected twice is found at its first position.
    init(columnNames: [String]) {
        var positions: [String: Int] = [:]
        for (index, name) in columnNames.enumerated() where positions[name.uppercased()] == nil {
            positions[name.uppercased()] = index
        }
        self.positions = positions
    }

    /// The position of the first column named `name` (any case); nil when none is.
    func position(of name: String) -> Int? { positions[name.uppercased()] }

    /// The reads of records of the entity whose `Z_ENT` is `number`; nil
    /// when `mapping` has no such entity.
    func reads(number: Int, in mapping: SQLiteMapping) -> Reads? {
        if let lastByNumber, lastByNumber.entity.number == number { return lastByNumber }
        lastByNumber = mapping.entity(number: number).flatMap { reads(of: $0, in: mapping) }
        return lastByNumber
    }

    /// The reads of records of `entity` (an ID's entity) from these rows;
    /// nil when `mapping` has no table for it.
    func reads(of entity: NSEntityDescription, in mapping: SQLiteMapping) -> Reads? {
        if let last, last.description === entity { return last }
        let reads: Reads
        if let known = byEntity[ObjectIdentifier(entity)] {
            reads = known
        } else {
            guard let mapped = mapping.entity(entity) else { return nil }
            reads = Reads(mapped, description: entity) { [positions] in positions[$0.uppercased()] }
            byEntity[ObjectIdentifier(entity)] = reads
        }
        last = reads
        return reads
    }
}
