// Lists of objects compared by identity, in order: a save's notification sets
// are reused for the same list of objects, and an owner letting go of every
// destination it has empties its set at once.

extension Array where Element: AnyObject {
    /// Whether `other` holds the same objects as this array, in the same
    /// order: counts first, then addresses, with no reference counting
    /// (`elementsEqual(_:by:)` ran generic iterators, ~110 instructions an
    /// object). O(n) pointer comparisons when they match.
    func hasSameObjects(inOrderAs other: [Element]) -> Bool {
        guard count == other.count else { return false }
        return withUnsafeBufferPointer { a in
            other.withUnsafeBufferPointer { b in
                for index in a.indices where a[index] !== b[index] { return false }
                return true
            }
        }
    }
}
