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
