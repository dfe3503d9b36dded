/// Apple's predicate filtering on Foundation collections, for OpenCoreData's
/// `NSPredicate` (Foundation's Linux methods of the same names take its own,
/// format-less `NSPredicate`).
///
/// Each costs one predicate evaluation per element; a predicate that cannot be
/// evaluated stops the program, as Apple's raise. Swift arrays filter with
/// `array.filter { predicate.evaluate(with: $0) }`.
extension NSArray {
    /// The elements for which `predicate` holds, in order.
    public func filtered(using predicate: NSPredicate) -> [Any] {
        filter { predicate.evaluate(with: $0) }
    }
}

extension NSMutableArray {
    /// Removes the elements for which `predicate` does not hold.
    public func filter(using predicate: NSPredicate) {
        let kept = filtered(using: predicate)
        removeAllObjects()
        addObjects(from: kept)
    }
}

extension NSSet {
    /// The elements for which `predicate` holds.
    public func filtered(using predicate: NSPredicate) -> Set<AnyHashable> {
        var result = Set<AnyHashable>()
        for element in allObjects where predicate.evaluate(with: element) {
            if let hashable = element as? AnyHashable { result.insert(hashable) }
        }
        return result
    }
}

extension NSOrderedSet {
    /// The elements for which `predicate` holds, in order.
    public func filtered(using predicate: NSPredicate) -> NSOrderedSet {
        NSOrderedSet(array: array.filter { predicate.evaluate(with: $0) })
    }
}
