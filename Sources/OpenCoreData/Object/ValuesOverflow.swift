/// What an object's values (`PropertyValues`) hold beyond their slots and
/// most objects never need, in one word: the objects its to-one slots
/// resolved to (by the slot's `PropertySlotLayout.toOneOrdinals`), and the
/// changed slots numbered 64 and up (the lower ones are a word of their own
/// in `PropertyValues`).
///
/// Most entities have at most one to-one relationship and fewer than 64
/// properties: then this is nothing, or the resolved object itself. An
/// entity with several to-ones, or a change to a high slot, takes a box,
/// copied on write. One word instead of a 16-byte `SlotSet` and an array of
/// destinations keeps a managed object within 88 bytes, the allocator's
/// 96-byte class.
struct ValuesOverflow {
    private final class Box {
        var destinations: ContiguousArray<NSManagedObject?>
        var changedHigh: SlotSet

        init(destinations: ContiguousArray<NSManagedObject?>, changedHigh: SlotSet) {
            self.destinations = destinations
            self.changedHigh = changedHigh
        }
    }

    private enum Storage {
        case none
        /// The object of ordinal 0, for an entity with one to-one relationship, and no high changes.
        case single(NSManagedObject)
        case box(Box)
    }

    private var storage = Storage.none

    /// Nothing resolved, no high slot changed.
    init() {}

    /// The object resolved for `ordinal`; nil for none.
    subscript(ordinal: Int) -> NSManagedObject? {
        switch storage {
        case .none: nil
        case .single(let object): ordinal == 0 ? object : nil
        case .box(let box): ordinal < box.destinations.count ? box.destinations[ordinal] : nil
        }
    }

    /// Records `object` as resolved for `ordinal` of an entity with `count` to-one relationships.
    mutating func setDestination(_ object: NSManagedObject, at ordinal: Int, count: Int) {
        precondition(ordinal >= 0 && ordinal < count, "A to-one ordinal is below the entity's to-one count")
        switch storage {
        case .none where count == 1, .single where count == 1:
            storage = .single(object)
        default:
            let box = uniqueBox()
            if box.destinations.count < count {
                box.destinations += repeatElement(nil, count: count - box.destinations.count)
            }
            box.destinations[ordinal] = object
        }
    }

    /// Forgets every resolved object; the changed slots stay.
    mutating func removeDestinations() {
        switch storage {
        case .none: break
        case .single: storage = .none
        case .box(let box):
            guard !box.changedHigh.isEmpty else { storage = .none; return }
            uniqueBox().destinations = []
        }
    }

    /// Whether a slot numbered 64 or more changed.
    var hasChangedHigh: Bool {
        if case .box(let box) = storage { return !box.changedHigh.isEmpty }
        return false
    }

    /// The changed slots numbered 64 and up.
    var changedHigh: SlotSet {
        if case .box(let box) = storage { return box.changedHigh }
        return SlotSet()
    }

    /// Adds the slots of `slots` numbered 64 and up to `changedHigh`.
    mutating func formChangedUnion(_ slots: SlotSet) {
        guard slots.hasSlotsAbove63 else { return }
        uniqueBox().changedHigh.formUnion(slots.removingLowWord())
    }

    /// Empties `changedHigh`.
    mutating func forgetChanges() {
        guard case .box(let box) = storage, !box.changedHigh.isEmpty else { return }
        uniqueBox().changedHigh = SlotSet()
    }

    /// The box, made or copied so that this value alone references it.
    private mutating func uniqueBox() -> Box {
        switch storage {
        case .box(var box):
            storage = .none  // so that the check below sees this value's reference alone
            if !isKnownUniquelyReferenced(&box) {
                box = Box(destinations: box.destinations, changedHigh: box.changedHigh)
            }
            storage = .box(box)
            return box
        case .single(let object):
            let box = Box(destinations: [object], changedHigh: SlotSet())
            storage = .box(box)
            return box
        case .none:
            let box = Box(destinations: [], changedHigh: SlotSet())
            storage = .box(box)
            return box
        }
    }
}
