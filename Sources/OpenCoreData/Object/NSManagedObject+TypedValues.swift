extension NSManagedObject {
    /// The value of the property `key` as `type`: what generated and
    /// hand-written typed properties read through.
    ///
    /// ```swift
    /// public var name: String? {
    ///     get { value(forKey: "name", as: String?.self) }
    ///     set { setValue(newValue, forKey: "name") }
    /// }
    /// ```
    ///
    /// The read goes through `value(forKey:)`, so the fault fires. Scalar types
    /// read 0 or false for nil, and `NSNumber`/`NSDecimalNumber` bridge from the
    /// stored Swift numbers, as Core Data's generated accessors do. A value of
    /// another type stops the program with a message naming the entity and key.
    public func value<Value>(forKey key: String, as type: Value.Type) -> Value {
        ManagedValue.cast(value(forKey: key), key: key, in: self)
    }
}
