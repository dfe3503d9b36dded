/// Whether a class of managed objects replaces any of `NSManagedObject`'s
/// validation methods: `validateValue(_:forKey:)`, `validateForInsert()`,
/// `validateForUpdate()` or `validateForDelete()`.
///
/// A save validates every object of a class that does, property by property
/// (an override may check any key and correct any value: ~1,100 instructions
/// a property, and a new `NSSet` for each to-many). Objects of a class that
/// doesn't are validated as plain `NSManagedObject`s: only the model's rules,
/// and not at all for an entity without any. Most classes are Xcode's
/// generated ones, which override none of the four.
///
/// Swift on Linux can't ask a class whether it implements a method (there is
/// no Objective-C runtime), but its metadata holds its vtable (the Swift ABI's
/// `TargetClassMetadata`): a subclass's copy of `NSManagedObject`'s entries
/// points at `NSManagedObject`'s implementations except where it overrides
/// one. Which words of the metadata are the four methods' entries is found by
/// comparison, not assumed: the words where a probe overriding exactly those
/// four differs from `NSManagedObject` and a probe overriding nothing does not
/// (the header words, such as the superclass, differ for both). Anything
/// unexpected (not four such words, an implausible metadata size) makes every
/// subclass count as overriding: slower saves, never a validation skipped.
enum ValidationOverrides {
    /// Whether `type` (or a superclass below `NSManagedObject`) overrides a
    /// validation method. Reads four words of each class's metadata.
    static func areCustom(_ type: NSManagedObject.Type) -> Bool {
        if type == NSManagedObject.self { return false }
        guard let entries = validationEntries else { return true }
        let base = metadata(of: NSManagedObject.self), own = metadata(of: type)
        return entries.contains { entry in
            own.load(fromByteOffset: entry, as: UInt.self) != base.load(fromByteOffset: entry, as: UInt.self)
        }
    }

    /// The byte offsets, from the metadata's address point, of the four
    /// methods' vtable entries; nil when they were not found.
    private static let validationEntries: [Int]? = {
        let base = metadata(of: NSManagedObject.self)
        guard let size = membersSize(of: base) else { return nil }
        let overriding = metadata(of: ValidationOverridesProbe.self), plain = metadata(of: PlainSubclassProbe.self)
        let entries = stride(from: 0, to: size, by: MemoryLayout<UInt>.size).filter { offset in
            let word = base.load(fromByteOffset: offset, as: UInt.self)
            return overriding.load(fromByteOffset: offset, as: UInt.self) != word
                && plain.load(fromByteOffset: offset, as: UInt.self) == word
        }
        return entries.count == 4 ? entries : nil
    }()

    private static func metadata(of type: AnyClass) -> UnsafeRawPointer {
        unsafeBitCast(type, to: UnsafeRawPointer.self)
    }

    /// The bytes of `metadata` from its address point on (header, then every
    /// class's members: field offsets and vtable), from its `ClassSize` and
    /// `ClassAddressPoint`; nil when they make no sense.
    private static func membersSize(of metadata: UnsafeRawPointer) -> Int? {
        // Kind and Superclass; with Objective-C interoperability the cache and data words too;
        // then Flags, InstanceAddressPoint, InstanceSize, InstanceAlignMask and Reserved.
        #if _runtime(_ObjC)
        let classSizeOffset = 56
        #else
        let classSizeOffset = 32
        #endif
        let classSize = Int(metadata.load(fromByteOffset: classSizeOffset, as: UInt32.self))
        let addressPoint = Int(metadata.load(fromByteOffset: classSizeOffset + 4, as: UInt32.self))
        let size = classSize - addressPoint
        let headerSize = classSizeOffset + 8 + 2 * MemoryLayout<UInt>.size
        guard addressPoint >= 0, addressPoint <= 64, size > headerSize, size <= 1 << 16,
              size % MemoryLayout<UInt>.size == 0 else { return nil }
        return size
    }
}

/// Overrides the four validation methods and nothing else (see `ValidationOverrides`); never instantiated.
private final class ValidationOverridesProbe: NSManagedObject {
    override func validateValue(_ value: inout Any?, forKey key: String) throws {
        try super.validateValue(&value, forKey: key)
    }
    override func validateForInsert() throws { try super.validateForInsert() }
    override func validateForUpdate() throws { try super.validateForUpdate() }
    override func validateForDelete() throws { try super.validateForDelete() }
}

/// Overrides nothing (see `ValidationOverrides`); never instantiated.
private final class PlainSubclassProbe: NSManagedObject {}
