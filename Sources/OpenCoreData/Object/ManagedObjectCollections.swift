import Foundation

/// Foundation's collections of managed objects, made from the references
/// themselves: a to-many relationship's value (`value(forKey:)`, which a
/// subclass's save reads for every property) and `changedValues()`.
///
/// `NSSet(array:)` and `NSOrderedSet(array:)` take `[Any]`: the array is
/// converted element by element and each element cast back to an object,
/// ~900 instructions an element of the ~2,000 a set costs. The pointer
/// initializers take the objects as they lie (`NSManagedObject` references
/// have `AnyObject`'s layout). O(n), with the collection's own hashing.
extension Array where Element == NSManagedObject {
    /// The objects as an `NSSet`.
    var asNSSet: NSSet {
        withUnsafeBufferPointer { objects in
            objects.withMemoryRebound(to: AnyObject.self) { NSSet(objects: $0.baseAddress, count: $0.count) }
        }
    }

    /// The objects as an `NSOrderedSet`, in this order.
    var asNSOrderedSet: NSOrderedSet {
        withUnsafeBufferPointer { objects in
            objects.withMemoryRebound(to: AnyObject.self) { NSOrderedSet(objects: $0.baseAddress, count: $0.count) }
        }
    }
}
