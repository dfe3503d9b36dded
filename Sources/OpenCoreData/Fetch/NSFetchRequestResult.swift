/// A type a fetch can return: managed objects, object IDs, dictionaries or
/// counts (Apple's NSFetchRequestResult).
public protocol NSFetchRequestResult: AnyObject {}

extension NSManagedObject: NSFetchRequestResult {}
extension NSManagedObjectID: NSFetchRequestResult {}
extension NSDictionary: NSFetchRequestResult {}
extension NSNumber: NSFetchRequestResult {}

/// What a fetch returns, with Apple's raw values (NSFetchRequest.h).
public struct NSFetchRequestResultType: OptionSet, Sendable {
    /// The option bits, as in NSFetchRequest.h.
    public let rawValue: UInt
    /// The result type with option bits `rawValue`.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Managed objects (the default).
    public static let managedObjectResultType = NSFetchRequestResultType([])
    /// Object IDs.
    public static let managedObjectIDResultType = NSFetchRequestResultType(rawValue: 1 << 0)
    /// Dictionaries of property values.
    public static let dictionaryResultType = NSFetchRequestResultType(rawValue: 1 << 1)
    /// One number: the count of matching objects.
    public static let countResultType = NSFetchRequestResultType(rawValue: 1 << 2)
}
