/// A set of slot numbers (`PropertySlotLayout`): the slots an object wrote
/// since its values were last the committed ones, or the columns one UPDATE
/// statement writes.
///
/// Slots below 64 live in one inline word, so the set of an entity with up to
/// 64 properties never allocates; higher slots go to an array of words.
/// Invariant: `overflow` never ends in a zero word, so equal sets have equal
/// storage and `==` and hashing can compare the storage.
struct SlotSet: Hashable, Sendable {
    private var low: UInt64 = 0
    private var overflow: [UInt64] = []

    /// The empty set.
    init() {}

    /// The slots in `slots`.
    init<S: Sequence>(_ slots: S) where S.Element == Int {
        for slot in slots { insert(slot) }
    }

    /// The slots below 64 whose bits are set in `word` (bit n for slot n).
    init(lowWord word: UInt64) { low = word }

    /// The slots below 64, as bits of one word (bit n for slot n).
    var lowWord: UInt64 { low }

    /// Whether a slot numbered 64 or more is in the set.
    var hasSlotsAbove63: Bool { !overflow.isEmpty }

    /// The set without its slots below 64.
    func removingLowWord() -> SlotSet {
        var result = self
        result.low = 0
        return result
    }

    /// Whether no slot is in the set.
    var isEmpty: Bool { low == 0 && overflow.isEmpty }

    func contains(_ slot: Int) -> Bool {
        guard slot >= 64 else { return slot >= 0 && low & (1 << UInt64(slot)) != 0 }
        let word = slot / 64 - 1
        return word < overflow.count && overflow[word] & (1 << UInt64(slot % 64)) != 0
    }

    mutating func insert(_ slot: Int) {
        precondition(slot >= 0, "A slot number is never negative")
        guard slot >= 64 else {
            low |= 1 << UInt64(slot)
            return
        }
        let word = slot / 64 - 1
        if word >= overflow.count { overflow += repeatElement(0, count: word + 1 - overflow.count) }
        overflow[word] |= 1 << UInt64(slot % 64)
    }

    /// Adds every slot of `other`, a word at a time.
    mutating func formUnion(_ other: SlotSet) {
        low |= other.low
        if overflow.count < other.overflow.count {
            overflow += repeatElement(0, count: other.overflow.count - overflow.count)
        }
        for (index, word) in other.overflow.enumerated() { overflow[index] |= word }
    }

    /// The slots in both sets.
    func intersection(_ other: SlotSet) -> SlotSet {
        var result = SlotSet()
        result.low = low & other.low
        // Most entities have fewer than 64 slots: no array to zip and map (~140 instructions).
        guard !overflow.isEmpty && !other.overflow.isEmpty else { return result }
        var words = zip(overflow, other.overflow).map { $0 & $1 }
        while words.last == 0 { words.removeLast() }
        result.overflow = words
        return result
    }

    /// Every slot in the set, in increasing order.
    var slots: [Int] {
        var result: [Int] = []
        forEach { result.append($0) }
        return result
    }

    /// Calls `body` with every slot in the set, in increasing order, without
    /// making an array.
    func forEach(_ body: (Int) -> Void) {
        for index in 0...overflow.count {
            var word = index == 0 ? low : overflow[index - 1]
            while word != 0 {
                body(index * 64 + word.trailingZeroBitCount)
                word &= word - 1
            }
        }
    }
}
