/// A typed property of a managed object subclass, stored in the object's
/// tracked values: Linux's replacement for `@NSManaged`.
///
/// ```swift
/// final class Photo: NSManagedObject {
///     @Managed var name: String?
///     @Managed var index: Int16
///     @Managed var album: Album?
///     @Managed var tags: NSSet?
/// }
/// ```
///
/// Reading and writing go through `value(forKey:)` and `setValue(_:forKey:)`,
/// so faults fire, changes are tracked and inverses maintained. The key is
/// the property's name, read once per property from the key path's
/// description and cached; `@Managed("name")` names it explicitly. (The
/// compiler reserves the name `NSManaged` for the Objective-C attribute, see
/// docs/Differences.md.) Each access costs one dictionary lookup more than
/// `value(forKey:)`.
@propertyWrapper
public struct Managed<Value> {
    private let explicitKey: String?

    /// A property whose key is its own name.
    public init() { explicitKey = nil }

    /// A property stored under `key`.
    public init(_ key: String) { explicitKey = key }

    /// Not available: the value lives in the enclosing object (see the subscript).
    @available(*, unavailable, message: "@Managed is only available on properties of NSManagedObject subclasses")
    public var wrappedValue: Value {
        get { fatalError("unavailable") }
        set { fatalError("unavailable") }
    }

    /// The property's value, read and written through the enclosing object's
    /// `value(forKey:)` and `setValue(_:forKey:)`.
    public static subscript<Object: NSManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Managed<Value>>
    ) -> Value {
        get {
            let key = object[keyPath: storageKeyPath].explicitKey ?? ManagedKeys.key(for: storageKeyPath)
            return ManagedValue.cast(object.value(forKey: key), key: key, in: object)
        }
        set {
            let key = object[keyPath: storageKeyPath].explicitKey ?? ManagedKeys.key(for: storageKeyPath)
            object.setValue(newValue, forKey: key)
        }
    }
}

/// Property names of `@Managed` storage key paths, cached per key path.
enum ManagedKeys {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [AnyKeyPath: String] = [:]

    static func key(for storage: AnyKeyPath) -> String {
        if let key = lock.withLock({ cache[storage] }) { return key }
        // The storage key path prints as `\Type._name`; the property is `name`.
        let text = "\(storage)"
        guard let last = text.split(separator: ".").last, last.hasPrefix("_") else {
            preconditionFailure("Can't find the property name of \(text); write @Managed(\"name\")")
        }
        let key = String(last.dropFirst())
        lock.withLock { cache[storage] = key }
        return key
    }
}

/// Converting a stored value to a `@Managed` property's declared type.
enum ManagedValue {
    static func cast<Value>(_ value: Any?, key: String, in object: NSManagedObject) -> Value {
        if let typed = value as? Value { return typed }
        if value == nil, let none = Optional<Any>.none as? Value { return none }
        if let number = value as? any BinaryInteger, let converted = convertInteger(number, to: Value.self) {
            return converted
        }
        if value == nil, let zero = zeroScalar(Value.self) { return zero }
        preconditionFailure("Property \(key) of entity \(object.entity.name ?? "") holds \(value.map { "\(Swift.type(of: $0))" } ?? "nil"), not \(Value.self)")
    }

    private static func convertInteger<Value>(_ number: any BinaryInteger, to: Value.Type) -> Value? {
        guard let type = Value.self as? any FixedWidthInteger.Type else { return nil }
        return type.init(exactly: number) as? Value
    }

    /// Scalar properties read 0/false for nil, as Core Data's scalar accessors do.
    private static func zeroScalar<Value>(_ type: Value.Type) -> Value? {
        if let integer = type as? any FixedWidthInteger.Type { return integer.zero as? Value }
        if let floating = type as? any BinaryFloatingPoint.Type { return floating.init(0) as? Value }
        if type == Bool.self { return false as? Value }
        return nil
    }
}
