/// Which of `NSManagedObject`'s methods a class of managed objects replaces,
/// where the context can spare work for classes that replace none.
///
/// Most classes are Xcode's generated ones, which override nothing:
/// - A save validates every object of a class overriding a validation method,
///   and property by property through `validateValue(_:forKey:)` when the
///   class overrides that one (an override may check any key and correct any
///   value: ~1,100 instructions a property, and a new `NSSet` for each
///   to-many). Objects of other classes are validated as plain
///   `NSManagedObject`s: the model's rules only, and not at all without any;
///   a class overriding only `validateForInsert()`, `validateForUpdate()` or
///   `validateForDelete()` (Apple's place for checks across properties) gets
///   the model's rules from `super` the same way.
/// - A cascade deletes its destinations as faults, without reading their
///   records, when nothing of theirs needs their values; an override of
///   `prepareForDeletion()`, `awakeFromFetch()`, `willSave()`, `didSave()` or
///   a validation method may read them, so their objects are read first.
///
/// Swift on Linux can't ask a class whether it implements a method (there is
/// no Objective-C runtime), but its metadata holds its vtable (the Swift ABI's
/// `TargetClassMetadata`): a subclass's copy of `NSManagedObject`'s entries
/// points at `NSManagedObject`'s implementations except where it overrides
/// one. Which words of the metadata are a group of methods' entries is found
/// by comparison, not assumed: the words where a probe overriding exactly
/// those methods differs from `NSManagedObject` and a probe overriding nothing
/// does not (the header words, such as the superclass, differ for both).
/// Anything unexpected (not one word a method, an implausible metadata size)
/// makes every subclass count as overriding: slower, never a hook skipped.
enum ClassOverrides {
    /// Whether `type` (or a superclass below `NSManagedObject`) overrides
    /// `validateValue(_:forKey:)`, `validateForInsert()`, `validateForUpdate()`
    /// or `validateForDelete()`. Reads four words of each class's metadata.
    static func customizeValidation(_ type: NSManagedObject.Type) -> Bool {
        overrides(valueValidationEntries, in: type) || overrides(objectValidationEntries, in: type)
    }

    /// Whether `type` (or a superclass below `NSManagedObject`) overrides
    /// `validateValue(_:forKey:)`, Core Data's `validate<Key>` hook here.
    static func customizeValueValidation(_ type: NSManagedObject.Type) -> Bool {
        overrides(valueValidationEntries, in: type)
    }

    /// Whether deleting an object of `type` may run code of its class: an
    /// override of a validation method, `prepareForDeletion()`,
    /// `awakeFromFetch()`, `willSave()` or `didSave()`.
    static func customizeDeletion(_ type: NSManagedObject.Type) -> Bool {
        customizeValidation(type) || overrides(deletionEntries, in: type)
    }

    private static func overrides(_ entries: [Int]?, in type: NSManagedObject.Type) -> Bool {
        if type == NSManagedObject.self { return false }
        guard let entries else { return true }
        let base = metadata(of: NSManagedObject.self), own = metadata(of: type)
        return entries.contains { entry in
            own.load(fromByteOffset: entry, as: UInt.self) != base.load(fromByteOffset: entry, as: UInt.self)
        }
    }

    private static let valueValidationEntries = entries(overriddenBy: ValueValidationProbe.self, methods: 1)
    private static let objectValidationEntries = entries(overriddenBy: ObjectValidationProbe.self, methods: 3)
    private static let deletionEntries = entries(overriddenBy: DeletionProbe.self, methods: 4)

    /// The byte offsets, from the metadata's address point, of the vtable
    /// entries `probe` overrides; nil unless there is one for each of its
    /// `methods`.
    private static func entries(overriddenBy probe: NSManagedObject.Type, methods: Int) -> [Int]? {
        let base = metadata(of: NSManagedObject.self)
        guard let size = membersSize(of: base) else { return nil }
        let overriding = metadata(of: probe), plain = metadata(of: PlainProbe.self)
        let entries = stride(from: 0, to: size, by: MemoryLayout<UInt>.size).filter { offset in
            let word = base.load(fromByteOffset: offset, as: UInt.self)
            return overriding.load(fromByteOffset: offset, as: UInt.self) != word
                && plain.load(fromByteOffset: offset, as: UInt.self) == word
        }
        return entries.count == methods ? entries : nil
    }

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

/// Overrides `validateValue(_:forKey:)` and nothing else (see `ClassOverrides`); never instantiated.
private final class ValueValidationProbe: NSManagedObject {
    override func validateValue(_ value: inout Any?, forKey key: String) throws {
        try super.validateValue(&value, forKey: key)
    }
}

/// Overrides the three whole-object validation methods and nothing else (see `ClassOverrides`); never
/// instantiated.
private final class ObjectValidationProbe: NSManagedObject {
    override func validateForInsert() throws { try super.validateForInsert() }
    override func validateForUpdate() throws { try super.validateForUpdate() }
    override func validateForDelete() throws { try super.validateForDelete() }
}

/// Overrides the other methods deleting an object may call, and nothing else (see `ClassOverrides`);
/// never instantiated.
private final class DeletionProbe: NSManagedObject {
    override func prepareForDeletion() { super.prepareForDeletion() }
    override func awakeFromFetch() { super.awakeFromFetch() }
    override func willSave() { super.willSave() }
    override func didSave() { super.didSave() }
}

/// Overrides nothing (see `ClassOverrides`); never instantiated.
private final class PlainProbe: NSManagedObject {}
