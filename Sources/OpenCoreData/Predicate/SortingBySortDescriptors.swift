/// Sorting collections of KeyValueCoding objects and dictionaries by sort descriptors.
///
/// Each element's key values are read once (n × descriptors key-path reads),
/// then sorted in O(n log n) comparisons. The sort is stable: elements that
/// compare equal under every descriptor keep their order.
enum SortDescriptorSorting {
    static func sorted<Element>(_ elements: [Element], by descriptors: [NSSortDescriptor]) -> [Element] {
        guard !descriptors.isEmpty, elements.count > 1 else { return elements }
        // One column of normalised key values per descriptor.
        let columns: [[Any?]] = descriptors.map { descriptor in elements.map { Values.normalized(descriptor.value(of: $0)) } }
        let order = elements.indices.sorted { i, j in
            for d in descriptors.indices {
                switch descriptors[d].compareValues(columns[d][i], columns[d][j]) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: continue
                }
            }
            return i < j
        }
        return order.map { elements[$0] }
    }
}

extension Sequence {
    /// The elements sorted by `descriptors`: the first descriptor decides, later
    /// ones break ties. Stable.
    public func sorted(using descriptors: [NSSortDescriptor]) -> [Element] {
        SortDescriptorSorting.sorted(Array(self), by: descriptors)
    }
}

extension MutableCollection where Self: RandomAccessCollection {
    /// Sorts the collection in place by `descriptors`. Stable.
    public mutating func sort(using descriptors: [NSSortDescriptor]) {
        for (index, element) in zip(indices, SortDescriptorSorting.sorted(Array(self), by: descriptors)) {
            self[index] = element
        }
    }
}

extension NSArray {
    /// The array's elements sorted by `sortDescriptors`, as Apple's `sortedArray(using:)`.
    public func sortedArray(using sortDescriptors: [NSSortDescriptor]) -> [Any] {
        SortDescriptorSorting.sorted(map { $0 }, by: sortDescriptors)
    }
}

extension NSMutableArray {
    /// Sorts the array in place by `sortDescriptors`.
    public func sort(using sortDescriptors: [NSSortDescriptor]) {
        let sorted = SortDescriptorSorting.sorted(map { $0 }, by: sortDescriptors)
        removeAllObjects()
        addObjects(from: sorted)
    }
}
