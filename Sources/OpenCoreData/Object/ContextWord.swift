/// A managed object's context, unretained, and two of the object's flags in
/// one word: the context's address has its low four bits clear (Swift
/// objects are at least 16-byte aligned), and the flags live there. Keeping
/// them in bytes of their own beside the context made the object a word
/// larger once its identity took two words (`NSManagedObject.Identity`).
///
/// Invariant: bits 0 and 1 are the flags, bits 2 and 3 are zero, and the
/// rest are the context's address or zero.
struct ContextWord {
    private var bits: UInt = 0

    private static let faultBit: UInt = 1 << 0
    private static let awokenBit: UInt = 1 << 1
    private static let flagBits: UInt = 0b1111

    /// The context, unretained.
    var context: Unmanaged<NSManagedObjectContext>? {
        get {
            UnsafeRawPointer(bitPattern: bits & ~Self.flagBits).map { Unmanaged.fromOpaque($0) }
        }
        set {
            let address = newValue.map { UInt(bitPattern: $0.toOpaque()) } ?? 0
            precondition(address & Self.flagBits == 0, "A context's address has its low four bits clear")
            bits = address | bits & Self.flagBits
        }
    }

    /// Whether the object's values are not loaded.
    var isFault: Bool {
        get { bits & Self.faultBit != 0 }
        set { bits = newValue ? bits | Self.faultBit : bits & ~Self.faultBit }
    }

    /// Whether the object had `awakeFromInsert` or was made as a fault.
    var hasAwokenFromInsert: Bool {
        get { bits & Self.awokenBit != 0 }
        set { bits = newValue ? bits | Self.awokenBit : bits & ~Self.awokenBit }
    }
}
