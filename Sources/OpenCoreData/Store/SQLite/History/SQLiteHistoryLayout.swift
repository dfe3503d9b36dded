/// How Core Data's persistent history indexes one entity's properties in
/// `ACHANGE` (reference §4.5): bit *i* of `ZCOLUMNS` (read from the most
/// significant bit of the first byte) stands for the *i*-th stored property
/// of the entity sorted by name, attributes and relationships together;
/// column `ZTOMBSTONE`*n* holds, for a deleted row, the *n*-th attribute by
/// name that preserves its value in history on deletion. Attributes keeping
/// values in external files are not preserved, as on Apple.
///
/// The order was observed by anandghegde/CoreDataDabbi
/// (Sources/DabbiSQLite/RawHistoryReader.swift, checked against an Apple Notes
/// store); the corpus stores hold insertions only (`ZCOLUMNS` NULL).
struct SQLiteHistoryLayout {
    /// The entity's number (`Z_ENT`).
    let number: Int
    /// The stored properties in bit order, each with the row columns that hold
    /// it (none for a to-many relationship, whose data lives elsewhere).
    let properties: [(property: NSPropertyDescription, columns: [String])]
    /// The attributes preserved on deletion, in `ZTOMBSTONE` order, with their columns.
    let tombstones: [(attribute: NSAttributeDescription, column: String)]
    /// Each property's bit, by name.
    let bitsByName: [String: Int]

    init(_ entity: SQLiteMapping.Entity) {
        number = entity.number
        var properties: [(NSPropertyDescription, [String])] = entity.attributes.map { ($0.attribute, [$0.column]) }
        for (relationship, storage) in entity.relationships {
            if case .foreignKey(let key) = storage {
                properties.append((relationship, [key.column] + (key.entityColumn.map { [$0] } ?? [])))
            } else {
                properties.append((relationship, []))
            }
        }
        self.properties = properties.sorted { $0.0.name < $1.0.name }
        tombstones = entity.attributes
            .filter { $0.attribute.preservesValueInHistoryOnDeletion && !$0.attribute.allowsExternalBinaryDataStorage }
            .sorted { $0.attribute.name < $1.attribute.name }
        bitsByName = Dictionary(self.properties.enumerated().map { ($1.0.name, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// The properties whose bits `bitmap` sets; nil when it names a bit past
    /// the entity's properties (a store written with another model).
    func properties(in bitmap: [UInt8]) -> [NSPropertyDescription]? {
        var found: [NSPropertyDescription] = []
        for (index, byte) in bitmap.enumerated() where byte != 0 {
            for offset in 0..<8 where byte & (0x80 >> UInt8(offset)) != 0 {
                let bit = index * 8 + offset
                guard bit < properties.count else { return nil }
                found.append(properties[bit].property)
            }
        }
        return found
    }

    /// The bitmap setting the bits of `names` (unknown names are left out).
    func bitmap(of names: some Sequence<String>) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: (properties.count + 7) / 8)
        for name in names {
            guard let bit = bitsByName[name] else { continue }
            bytes[bit / 8] |= 0x80 >> UInt8(bit % 8)
        }
        return bytes
    }
}
