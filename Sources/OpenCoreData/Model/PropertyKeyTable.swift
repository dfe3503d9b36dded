/// Resolves a property name to its slot (or, for a frozen model, an entity
/// name to its position) without hashing the name's characters: a key whose
/// 16 bytes of `String` representation equal those of one of the names is
/// that name.
///
/// Why it is sound: two strings with the same representation have the same
/// contents (a small string, 15 UTF-8 bytes or fewer on 64-bit platforms,
/// holds its bytes inline; a large one points at the same immutable storage,
/// which the table keeps alive through the names it copied). The converse
/// does not hold (an equal string may be stored differently), so a miss
/// says nothing: callers fall back to the dictionary of names. Keys written
/// in code are literals, whose short forms are the same as the model's, so
/// `value(forKey: "name")` resolves here for about 20 instructions instead of
/// the ~340 that hashing the string costs.
///
/// Immutable once made: the layout that owns it is shared between threads.
struct PropertyKeyTable: @unchecked Sendable {
    private typealias Bits = (UInt64, UInt64)

    /// Open addressing, linear probing; a power-of-two size at least twice
    /// the number of names, so that probes stay short and a miss ends at an
    /// empty entry. Empty when the platform's `String` is not 16 bytes.
    private let keys: [Bits]
    private let slots: [Int32]
    private let mask: Int
    /// The names, kept so that the storage their large forms point at lives
    /// as long as the table (and no other string can take its address).
    private let names: [String]

    /// A table of `names`, each to its slot in `slotsByName` (so that a name
    /// given twice, perhaps in two representations, resolves as there).
    init(_ names: [String], slotsByName: [String: Int]) {
        self.names = names
        guard MemoryLayout<String>.size == MemoryLayout<Bits>.size, !names.isEmpty else {
            (keys, slots, mask) = ([], [], 0)
            return
        }
        var size = 4
        while size < names.count * 2 { size *= 2 }
        var keys = [Bits](repeating: (0, 0), count: size), slots = [Int32](repeating: -1, count: size)
        for name in names {
            guard let slot = slotsByName[name] else { continue }
            let bits = Self.bits(name)
            var index = Self.hash(bits) & (size - 1)
            while slots[index] >= 0, keys[index] != bits { index = (index + 1) & (size - 1) }
            keys[index] = bits
            slots[index] = Int32(slot)
        }
        (self.keys, self.slots, mask) = (keys, slots, size - 1)
    }

    /// The slot of the name whose representation `key` shares; nil when no
    /// name does (`key` may still be one of the names, stored otherwise).
    func slot(forKey key: String) -> Int? {
        guard !keys.isEmpty else { return nil }
        let bits = Self.bits(key)
        var index = Self.hash(bits) & mask
        while true {
            let slot = slots[index]
            if slot < 0 { return nil }
            if keys[index] == bits { return Int(slot) }
            index = (index + 1) & mask
        }
    }

    private static func bits(_ string: String) -> Bits {
        withUnsafeBytes(of: string) { $0.loadUnaligned(as: Bits.self) }
    }

    private static func hash(_ bits: Bits) -> Int {
        let mixed = (bits.0 ^ (bits.1 &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed >> 29)
    }
}
