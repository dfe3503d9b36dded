/// A managed object's property values, one slot per property of its entity
/// (see `PropertySlotLayout` and `SlotValue`).
///
/// Invariant: `slots` is empty (a fault, or an object before its first
/// value; no allocation) or has exactly `layout.count` elements. Loading an
/// object shares its record's slots (`StoreSnapshot.values`) without
/// copying them; the first change copies them once.
///
/// `changed` holds every slot written through the subscript since the values
/// were last the committed ones (a record's, or what the last save wrote):
/// a slot outside it still holds its committed value, perhaps resolved from
/// IDs to objects (`resolve`). A slot may be in it with its value unchanged;
/// the reverse never happens, so a save can write only the changed columns.
struct PropertyValues {
    let layout: PropertySlotLayout
    private(set) var slots: SlotValues
    /// `changed`'s slots below 64, bit n for slot n; the rest are in `overflow`.
    private var changedLow: UInt64 = 0
    /// The objects that to-one slots holding an ID resolved to, and the
    /// changed slots from 64 up. The destinations are kept beside the slots
    /// rather than in them: the slots are usually the record's, shared with
    /// the row cache, and writing an object into them copied all of them (a
    /// record's slots and an allocation per object whose to-one relationship
    /// was read). Each holds its destination alive, as the slot did, and
    /// counts only while the slot still holds that object's ID.
    private var overflow = ValuesOverflow()

    /// Every slot written through the subscript since the values were last
    /// the committed ones (see the type's comment).
    var changed: SlotSet {
        var slots = SlotSet(lowWord: changedLow)
        if overflow.hasChangedHigh { slots.formUnion(overflow.changedHigh) }
        return slots
    }

    /// No values: every slot reads none.
    init(layout: PropertySlotLayout) {
        self.layout = layout
        slots = SlotValues()
    }

    /// The values of a record, shared with it.
    init(layout: PropertySlotLayout, slots: SlotValues) {
        self.layout = layout
        self.slots = SlotValues()
        replaceAll(with: slots)
    }

    /// The value in `slot`; setting it records the slot as changed.
    subscript(slot: Int) -> SlotValue {
        get { slot < slots.count ? slots[slot] : .none }
        set {
            if slot < 64 { changedLow |= 1 << UInt64(slot) } else { markChangedHigh(slot) }
            resolve(slot, to: newValue)
        }
    }

    /// The value in `slot` as `Any`, read in place: `self[slot].any` copies
    /// the slot's value out first and destroys the copy after, which was a
    /// third of a `value(forKey:)` call.
    func anyValue(at slot: Int) -> Any? {
        // Through the buffer's pointer: `slots[slot]` is a call that copies the value out (a retain of a
        // string's or box's storage) and destroys the copy, ~40 instructions of a `value(forKey:)`.
        guard let buffer = slots.buffer, slot >= 0, slot < buffer.count else { return nil }
        return buffer.slots[slot].any
    }

    /// What the to-one `slot` holds, read in place as `anyValue(at:)` reads:
    /// the destination object, or its record while unresolved; neither for none.
    func toOne(at slot: Int) -> (object: NSManagedObject?, record: RecordIdentity?) {
        // Through `withValue`: `slots[slot]` copied the value (a retain and a release of what it holds).
        slot < slots.count ? slots.withValue(at: slot) { $0.toOne } : (nil, nil)
    }

    /// Puts `value`, the same value in another form (destination objects for
    /// their IDs, IDs read for an unread to-many), in `slot` without
    /// recording a change.
    @inline(__always) // Inlined into the subscript's setter, on every write of a value.
    mutating func resolve(_ slot: Int, to value: consuming SlotValue) {
        if slots.isEmpty {
            guard !value.isNone else { return }
            slots = .empty(layout: layout)
        }
        slots[slot] = value
    }

    /// The object the to-one `slot`, holding `record`, was resolved to; nil
    /// before that, or when the slot has held another record since.
    func resolvedDestination(_ slot: Int, record: RecordIdentity) -> NSManagedObject? {
        let ordinal = layout.toOneOrdinals[slot]
        guard let object = overflow[ordinal] else { return nil }
        return object.isRecord(record) ? object : nil
    }

    /// Records `destination` as what the to-one `slot`'s ID resolves to,
    /// without touching the slots. Not a change.
    mutating func resolveDestination(_ slot: Int, to destination: NSManagedObject) {
        overflow.setDestination(destination, at: layout.toOneOrdinals[slot], count: layout.toOneCount)
    }

    /// Puts the ID `id(object)` in the to-one `slot` in place of the object
    /// it holds, and keeps the object as what the ID resolves to
    /// (`resolvedDestination`), as a fetched object's resolved slot is kept.
    /// Not a change: the slot names the same object. Returns the object; nil,
    /// changing nothing, when the slot holds none or `id` gives no ID.
    mutating func replaceDestinationWithID(_ slot: Int, _ id: (NSManagedObject) -> NSManagedObjectID?)
        -> NSManagedObject? {
        guard let destination = toOne(at: slot).object, let id = id(destination) else { return nil }
        resolveDestination(slot, to: destination)
        slots[slot] = .record(.id(id))
        return destination
    }

    /// Records a slot from 64 up as changed; out of line, so that the
    /// subscript's setter stays small enough to inline.
    @inline(never)
    private mutating func markChangedHigh(_ slot: Int) {
        overflow.formChangedUnion(SlotSet([slot]))
    }

    /// Makes the current values the committed ones: no slot is changed.
    mutating func forgetChanges() {
        changedLow = 0
        overflow.forgetChanges()
    }

    /// Records `slots` as changed without writing them (a save then writes them whole).
    mutating func markChanged(_ slots: SlotSet) {
        changedLow |= slots.lowWord
        overflow.formChangedUnion(slots)
    }

    /// The value of the property named `key` as `Any`; nil for a name the
    /// entity does not have.
    subscript(key: String) -> Any? {
        layout.slotsByName[key].flatMap { anyValue(at: $0) }
    }

    /// Whether no slot holds a value.
    var isEmpty: Bool { slots.allSatisfy(\.isNone) }

    /// The names of the properties that hold a value, in slot order.
    var keys: [String] { slots.indices.compactMap { slots[$0].isNone ? nil : layout.properties[$0].name } }

    /// Makes `slots` (a record's, shared, or none) the values, with no slot
    /// changed and no destination resolved, in place: loading an object this
    /// way instead of assigning a new `PropertyValues` saves its retains.
    mutating func replaceAll(with slots: SlotValues) {
        precondition(slots.isEmpty || slots.count == layout.count, "A record's slots must match its entity's layout")
        self.slots = slots
        changedLow = 0
        overflow = ValuesOverflow()
    }

    /// Empties every slot, and forgets the destinations resolved.
    mutating func removeAll() {
        slots = SlotValues()
        overflow.removeDestinations()
    }

    /// Empties `slot` and returns what it held, so that the caller can change
    /// it in place and put it back (through the subscript if it changed).
    mutating func take(_ slot: Int) -> SlotValue {
        guard slot < slots.count else { return .none }
        // Exchanged in place: no copy of the value to retain and no release of the one left behind.
        var taken = SlotValue.none
        swap(&taken, &slots[slot])
        return taken
    }
}
