/// Key-value coding: reading a property by name.
///
/// Foundation on Linux has no Objective-C runtime and so no `value(forKey:)` on
/// `NSObject`. Types that predicates, sort descriptors and key paths read from
/// adopt this protocol instead; `NSManagedObject` does, and dictionaries are
/// read by the key-path machinery directly.
public protocol KeyValueCoding {
    /// The value of the property named `key`, or nil when it has none.
    ///
    /// An unknown key is a programmer error: implementations stop the program
    /// with a message naming the type and the key, as Core Data raises
    /// `NSUndefinedKeyException`.
    func value(forKey key: String) -> Any?
}
