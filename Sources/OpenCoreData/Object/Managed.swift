/// A typed property of a managed object subclass, stored in the object's tracked values: Linux's replacement for
/// `@NSManaged` (a name the compiler reserves for the Objective-C attribute, see docs/Differences.md).
///
/// ```swift
/// final class Photo: NSManagedObject {
///     @Managed var name: String?
///     @Managed var index: Int16          // scalars read 0 for nil, as in Core Data
/// }
/// extension Photo {                      // Xcode's +CoreDataProperties.swift pattern
///     @Managed public var album: Album?
///     @Managed("path") public var location: String?
/// }
/// ```
///
/// The macro turns the declaration into a computed property whose getter is `value(forKey:as:)` and whose setter
/// is `setValue(_:forKey:)`, so faults fire, changes are tracked, types are checked and inverses maintained, in the
/// class or in an extension; it declares nothing else. The key is the property's name, or the string given.
@attached(accessor)
public macro Managed() = #externalMacro(module: "OpenCoreDataMacros", type: "ManagedMacro")

/// A `@Managed` property stored under `key` rather than its own name.
@attached(accessor)
public macro Managed(_ key: String) = #externalMacro(module: "OpenCoreDataMacros", type: "ManagedMacro")

/// The body of one of the relationship functions Xcode declares with `@NSManaged` ("Generated accessors for …"):
///
/// ```swift
/// extension Album {
///     @ManagedAccessor public func addToPhotos(_ value: Photo)
///     @ManagedAccessor public func removeFromPhotos(_ values: NSSet)
///     @ManagedAccessor public func insertIntoPhotos(_ value: Photo, at idx: Int)
///     @ManagedAccessor public func replacePhotos(at idx: Int, with value: Photo)
/// }
/// ```
///
/// Swift does not let one attribute name be both a property's accessors and a function's body, so these take
/// their own name; `@objc(…)` goes (see docs/Porting.md). The body calls `ManagedRelationshipAccessors`.
@attached(body)
public macro ManagedAccessor() = #externalMacro(module: "OpenCoreDataMacros", type: "ManagedAccessorMacro")

/// Converting a stored value to a typed property's declared type.
enum ManagedValue {
    static func cast<Value>(_ value: Any?, key: String, in object: NSManagedObject) -> Value {
        if let typed = value as? Value { return typed }
        if value == nil, let none = Optional<Any>.none as? Value { return none }
        if let number = value as? any BinaryInteger, let converted = convertInteger(number, to: Value.self) {
            return converted
        }
        if value == nil, let zero = zeroScalar(Value.self) { return zero }
        let given = value.map { "\(Swift.type(of: $0))" } ?? "nil"
        preconditionFailure("Property \(key) of entity \(object.entity.name ?? "") holds \(given), not \(Value.self)")
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
