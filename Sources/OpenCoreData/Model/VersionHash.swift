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
        return encoder.digest()
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
        return encoder.digest()
    }

    private static func common(_ property: NSPropertyDescription, _ encoder: inout Encoder) {
        encoder.text(property.name)
        encoder.flag(property.isOptional)
        encoder.flag(property.isTransient)
        encoder.flag(property.isReadOnly)
        encoder.text(property.versionHashModifier ?? "")
    }

    /// The fields of one hash's input, written through the address of one buffer: appending to an
    /// array is a generic call that looks up type metadata in a debug build, and the two appends a
    /// field took were about a tenth of loading a model at -Onone (perf, CorpusModelTests).
    private struct Encoder: ~Copyable {
        private var buffer: UnsafeMutablePointer<UInt8>
        private var capacity = 256, count = 0

        init(tag: Character) {
            buffer = .allocate(capacity: capacity)
            buffer[0] = tag.asciiValue!
            count = 1
        }

        deinit { buffer.deallocate() }

        mutating func raw(_ field: [UInt8]) { field.withUnsafeBufferPointer { append($0) } }
        mutating func text(_ value: String) {
            var value = value
            value.withUTF8 { append($0) }
        }
        mutating func flag(_ value: Bool) {
            var byte: UInt8 = value ? 1 : 0
            withUnsafeBytes(of: &byte) { append($0.assumingMemoryBound(to: UInt8.self)) }
        }
        mutating func number(_ value: Int) {
            var bytes = UInt64(bitPattern: Int64(value)).bigEndian
            withUnsafeBytes(of: &bytes) { append($0.assumingMemoryBound(to: UInt8.self)) }
        }

        /// SHA-256 of the fields written so far.
        func digest() -> [UInt8] { SHA256.hash(UnsafeBufferPointer(start: buffer, count: count)) }

        /// One field: 0x01, the length as 4 big-endian bytes, then `field`.
        private mutating func append(_ field: UnsafeBufferPointer<UInt8>) {
            let length = field.count
            if count &+ 5 &+ length > capacity {
                capacity = Swift.max(capacity &* 2, count &+ 5 &+ length)
                let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
                memcpy(grown, buffer, count)
                buffer.deallocate()
                buffer = grown
            }
            let header = buffer + count
            header[0] = 0x01
            header[1] = UInt8(truncatingIfNeeded: length &>> 24)
            header[2] = UInt8(truncatingIfNeeded: length &>> 16)
            header[3] = UInt8(truncatingIfNeeded: length &>> 8)
            header[4] = UInt8(truncatingIfNeeded: length)
            if let start = field.baseAddress { memcpy(header + 5, start, length) }
            count &+= 5 &+ length
        }
    }
}
