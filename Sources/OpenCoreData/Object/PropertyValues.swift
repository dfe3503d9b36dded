/// A managed object's property values, one slot per property of its entity
/// (see `PropertySlotLayout`): attributes as Swift values, to-one
/// relationships as the destination object (or its ID until first used),
/// to-many as `ManagedObjectSet` (or the destination IDs until first used).
///
/// Invariant: `slots` is empty (a fault, or an object before its first
/// value; no allocation) or has exactly `layout.count` elements. Loading an
/// object shares its record's slots (`StoreSnapshot.values`) without
/// copying them; the first change copies them once.
struct PropertyValues {
    let layout: PropertySlotLayout
    private(set) var slots: ContiguousArray<Any?>

    /// No values: every slot reads nil.
    init(layout: PropertySlotLayout) {
        self.layout = layout
        slots = []
    }

    /// The values of a record, shared with it.
    init(layout: PropertySlotLayout, slots: ContiguousArray<Any?>) {
        precondition(slots.isEmpty || slots.count == layout.count, "A record's slots must match its entity's layout")
        self.layout = layout
        self.slots = slots
    }

    /// The value in `slot`; nil when none was stored.
    subscript(slot: Int) -> Any? {
        get { slot < slots.count ? slots[slot] : nil }
        set {
            if slots.isEmpty {
                guard newValue != nil else { return }
                slots = ContiguousArray(repeating: nil, count: layout.count)
            }
            slots[slot] = newValue
        }
    }

    /// The value of the property named `key`; nil for a name the entity
    /// does not have (setting one stops the program).
    subscript(key: String) -> Any? {
        get { layout.slotsByName[key].flatMap { self[$0] } }
        set {
            guard let slot = layout.slotsByName[key] else { preconditionFailure("No property named \(key)") }
            self[slot] = newValue
        }
    }

    /// Whether no slot holds a value.
    var isEmpty: Bool { slots.allSatisfy { $0 == nil } }

    /// The names of the properties that hold a value, in slot order.
    var keys: [String] { slots.indices.compactMap { slots[$0] == nil ? nil : layout.properties[$0].name } }

    /// Empties every slot.
    mutating func removeAll() { slots = [] }

    /// Empties `slot` and returns what it held.
    mutating func take(_ slot: Int) -> Any? {
        guard slot < slots.count else { return nil }
        defer { slots[slot] = nil }
        return slots[slot]
    }
}
