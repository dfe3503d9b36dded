import Foundation

/// An object's or a record's property slots in one allocation: a header, then
/// one `SlotValue` for each slot of the header's layout. `SlotValues` is the
/// copy-on-write value over it; the row cache's rows are buffers too
/// (`StoreRowCache.Row`), so a fetched record costs one allocation where a
/// row object and an array of slots cost two (a photo's five slots: a
/// 192-byte block instead of 64 and 160).
///
/// A buffer becomes a row when it is stamped with a record and version
/// (`Row.make(from:)`, `StoreRowCache.row(from:)`): the snapshot's own
/// buffer when it can be, else a copy. A row's slots never change: writers
/// go through `SlotValues`, which copies a buffer it does not hold alone,
/// so a buffer changes in place only when nothing else references it.
///
/// Invariant: a stamp is written only while the buffer is uniquely
/// referenced or, for a buffer with no stamp yet, under the row cache's lock
/// (contexts that share a buffer share the coordinator); the read time is
/// read and written under that lock alone.
final class SlotBuffer: ManagedBuffer<SlotBuffer.Header, SlotValue> {
    struct Header {
        let layout: PropertySlotLayout
        /// The record whose row the buffer is; nil until it is one.
        var record: RecordIdentity?
        /// The record's version (`Z_OPT`) in the row.
        var version: Int64
        /// When the row cache last read the record (`systemUptime`).
        var readTime: TimeInterval
        /// The slots that may hold a reference, by ``SlotBuffer/referenceBit(_:)``:
        /// what `deinit` destroys. Set as slots are written, never cleared.
        var referenceSlots: UInt64 = 0
    }

    /// Destroys the slots that may hold a reference (`referenceSlots`), one
    /// by one in specialized code: `deinitialize(count:)` goes through the
    /// runtime's generic array destroy (~180 instructions for a photo's five
    /// slots, about four times the specialized loop). The other slots hold
    /// numbers, dates or nothing and are not read at all: a large fetch frees
    /// its rows after they left the processor's caches, and reading every
    /// slot's case to find the references cost a first-level cache miss for
    /// each 64 bytes of slots (~3.7 a row of ten integers).
    deinit {
        let slots = slots, count = count
        var mask = fields.pointee.referenceSlots
        let shared = Self.referenceBit(Self.sharedBitSlot)
        if mask & shared != 0 {
            mask &= ~shared
            for slot in Self.sharedBitSlot..<count where !slots[slot].holdsNoReference { _ = (slots + slot).move() }
        }
        while mask != 0 {
            _ = (slots + mask.trailingZeroBitCount).move()
            mask &= mask &- 1
        }
    }

    /// The first slot whose bit in `referenceSlots` it shares with every later one.
    private static let sharedBitSlot = UInt64.bitWidth - 1

    /// The bit of `slot` in `referenceSlots`: its own below 63, shared from 63 on.
    @inline(__always)
    static func referenceBit(_ slot: Int) -> UInt64 { 1 &<< UInt64(Swift.min(slot, sharedBitSlot)) }

    /// A buffer of `layout`'s slots, stamped with `record` and `version`
    /// when given; `initialize` initializes every slot, in order.
    /// `referenceSlots`, when given, is the mask of the slots `initialize` may
    /// put references in (none for empty slots); otherwise the slots are scanned.
    static func make(layout: PropertySlotLayout, record: RecordIdentity? = nil, version: Int64 = 0,
                     referenceSlots: UInt64? = nil,
                     initializingSlotsWith initialize: (UnsafeMutablePointer<SlotValue>) -> Void) -> SlotBuffer {
        let buffer = unsafeDowncast(create(minimumCapacity: layout.count) { _ in
            Header(layout: layout, record: record, version: version, readTime: 0)
        }, to: SlotBuffer.self)
        buffer.withUnsafeMutablePointers { header, slots in
            initialize(slots)
            if let referenceSlots {
                header.pointee.referenceSlots = referenceSlots
                return
            }
            // While the slots just written are in the cache.
            var mask: UInt64 = 0
            for slot in 0..<layout.count where !slots[slot].holdsNoReference { mask |= referenceBit(slot) }
            header.pointee.referenceSlots = mask
        }
        return buffer
    }

    /// The header, read and written in place. `header` itself is a stored
    /// property of the standard library's class: each access outside the
    /// standard library is checked for exclusivity at run time, which cost
    /// ~350 instructions a fetched object.
    fileprivate var fields: UnsafeMutablePointer<Header> { withUnsafeMutablePointerToHeader { $0 } }

    var layout: PropertySlotLayout { fields.pointee.layout }
    /// How many slots the buffer holds: its layout's.
    var count: Int { fields.pointee.layout.count }
    var record: RecordIdentity? {
        get { fields.pointee.record }
        set { fields.pointee.record = newValue }
    }
    var version: Int64 {
        get { fields.pointee.version }
        set { fields.pointee.version = newValue }
    }
    var readTime: TimeInterval {
        get { fields.pointee.readTime }
        set { fields.pointee.readTime = newValue }
    }

    /// The first slot, valid while the buffer is alive.
    var slots: UnsafeMutablePointer<SlotValue> { withUnsafeMutablePointerToElements { $0 } }

    /// A new, unstamped buffer with copies of these slots: each copied by
    /// specialized code (`initialize(from:count:)` copies through the
    /// runtime's generic array copy, ~60 instructions a slot against ~20).
    func copy() -> SlotBuffer {
        let source = slots, count = count
        return SlotBuffer.make(layout: layout) { slots in
            for slot in 0..<count { (slots + slot).initialize(to: source[slot]) }
        }
    }
}

/// Property slots as a value: empty (no buffer: a fault, or an object before
/// its first value) or one buffer of a layout's slots, shared until written
/// (a write to a buffer held elsewhere copies it first).
struct SlotValues: RandomAccessCollection, MutableCollection {
    private(set) var buffer: SlotBuffer?

    /// No slots.
    init() { buffer = nil }

    /// The slots of `buffer`, shared with it.
    init(_ buffer: SlotBuffer) { self.buffer = buffer }

    /// Whether the values hold their buffer alone (false without one).
    mutating func isUniquelyReferenced() -> Bool { isKnownUniquelyReferenced(&buffer) }

    /// `layout.count` empty slots.
    static func empty(layout: PropertySlotLayout) -> SlotValues {
        SlotValues(SlotBuffer.make(layout: layout, referenceSlots: 0) {
            $0.initialize(repeating: .none, count: layout.count)
        })
    }

    var startIndex: Int { 0 }
    var endIndex: Int { buffer?.count ?? 0 }

    /// `body`'s result for the value in `slot`, read where it lies: the
    /// subscript's getter copies the value out (a retain of a string's or
    /// box's storage) and the caller destroys the copy.
    @inline(__always)
    func withValue<Result>(at slot: Int, _ body: (borrowing SlotValue) -> Result) -> Result {
        precondition(slot >= 0 && slot < count, "Slot out of range")
        return body(buffer.unsafelyUnwrapped.slots[slot])
    }

    subscript(slot: Int) -> SlotValue {
        get {
            precondition(slot >= 0 && slot < count, "Slot out of range")
            return buffer.unsafelyUnwrapped.slots[slot]
        }
        _modify {
            precondition(slot >= 0 && slot < count, "Slot out of range")
            if !isKnownUniquelyReferenced(&buffer) { buffer = buffer.unsafelyUnwrapped.copy() }
            // Pointers, not the buffer: a reference held across the yield cost a retain and a release a write.
            let header = buffer.unsafelyUnwrapped.fields, slots = buffer.unsafelyUnwrapped.slots
            // Also when the access ends by an error: the slot may hold a reference already.
            defer {
                if !slots[slot].holdsNoReference { header.pointee.referenceSlots |= SlotBuffer.referenceBit(slot) }
            }
            yield &slots[slot]
        }
    }
}
