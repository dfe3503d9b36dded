/// How OpenCoreData computes version hashes.
///
/// Apple documents the inputs of Core Data's hashes but not their byte layout
/// (shared/reference §8.2, §10 item 1), so these hashes are OpenCoreData's own:
/// SHA-256 over a canonical encoding of exactly the documented inputs, which
/// makes them stable across runs, processes and machines.
///
/// The encoding is a sequence of fields; each field is one tag byte, a 4-byte
/// big-endian length and that many bytes (UTF-8 for text, one byte 0/1 for
/// flags, 8-byte big-endian for numbers, 32 bytes for a nested hash).
///
/// - Property: tag "P", kind ("attribute" / "relationship" / "fetched"),
///   name, isOptional, isTransient, isReadOnly, versionHashModifier (empty
///   when nil). Attributes add attributeType's raw value,
///   allowsExternalBinaryDataStorage and preservesValueInHistoryOnDeletion.
///   Relationships add the destination entity's name, the inverse's name,
///   minCount, maxCount and isOrdered.
/// - Entity: tag "E", name, the superentity's hash (when there is one),
///   isAbstract, then for each own attribute and relationship in name order
///   its name and hash, then versionHashModifier, then each uniqueness
///   constraint's names.
///
/// Which inputs count follows black-box tests run against Apple's Core Data
/// (see VersionHashTests): not hashed are class names, userInfo, indexes,
/// default values, validation rules, delete rules, transformer names,
/// renaming identifiers, Spotlight and CloudKit-encryption flags, and fetched
/// properties.
enum VersionHash {
    static func property(_ property: NSPropertyDescription) -> [UInt8] {
        var encoder = Encoder(tag: "P")
        switch property {
        case let attribute as NSAttributeDescription:
            encoder.text("attribute")
            common(property, &encoder)
            encoder.number(Int(attribute.attributeType.rawValue))
            encoder.flag(attribute.allowsExternalBinaryDataStorage)
            encoder.flag(attribute.preservesValueInHistoryOnDeletion)
        case let relationship as NSRelationshipDescription:
            encoder.text("relationship")
            common(property, &encoder)
            encoder.text(relationship.destinationEntity?.name ?? relationship.unresolvedDestinationName ?? "")
            encoder.text(relationship.inverseRelationship?.name ?? relationship.unresolvedInverse?.name ?? "")
            encoder.number(relationship.minCount)
            encoder.number(relationship.maxCount)
            encoder.flag(relationship.isOrdered)
        default:
            encoder.text("fetched")
            common(property, &encoder)
        }
        return SHA256.hash(encoder.bytes)
    }

    static func entity(_ entity: NSEntityDescription) -> [UInt8] {
        var encoder = Encoder(tag: "E")
        encoder.text(entity.name ?? "")
        if let superentity = entity.superentity { encoder.raw(Array(superentity.versionHash)) }
        encoder.flag(entity.isAbstract)
        let stored = entity.ownProperties.filter { !($0 is NSFetchedPropertyDescription) }
        for property in stored.sorted(by: { $0.name < $1.name }) {
            encoder.text(property.name)
            encoder.raw(Self.property(property))
        }
        encoder.text(entity.versionHashModifier ?? "")
        for constraint in entity.uniquenessConstraintNames {
            encoder.text(constraint.joined(separator: ","))
        }
        return SHA256.hash(encoder.bytes)
    }

    private static func common(_ property: NSPropertyDescription, _ encoder: inout Encoder) {
        encoder.text(property.name)
        encoder.flag(property.isOptional)
        encoder.flag(property.isTransient)
        encoder.flag(property.isReadOnly)
        encoder.text(property.versionHashModifier ?? "")
    }

    private struct Encoder {
        var bytes: [UInt8] = []
        init(tag: Character) { bytes.append(tag.asciiValue!) }

        mutating func raw(_ field: [UInt8]) {
            let count = UInt32(field.count)
            bytes.append(0x01)
            bytes += [UInt8(count >> 24), UInt8(count >> 16 & 0xff), UInt8(count >> 8 & 0xff), UInt8(count & 0xff)]
            bytes += field
        }
        mutating func text(_ value: String) { raw(Array(value.utf8)) }
        mutating func flag(_ value: Bool) { raw([value ? 1 : 0]) }
        mutating func number(_ value: Int) {
            let v = UInt64(bitPattern: Int64(value))
            raw((0..<8).map { UInt8(truncatingIfNeeded: v >> UInt64(56 - 8 * $0)) })
        }
    }
}
