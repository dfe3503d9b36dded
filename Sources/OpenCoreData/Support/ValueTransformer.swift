import Foundation

/// Converts values from one representation to another, with Apple's API
/// (Foundation's NSValueTransformer.h). Linux's Foundation has no
/// `ValueTransformer`, so OpenCoreData carries its own: transformable
/// attributes look their transformer up here by `valueTransformerName`.
///
/// Subclass, override ``transformedValueClass()``,
/// ``allowsReverseTransformation()``, ``transformedValue(_:)`` and
/// ``reverseTransformedValue(_:)``, then register an instance with
/// ``setValueTransformer(_:forName:)`` before opening a store that uses it.
open class ValueTransformer: NSObject {
    /// Registered transformers; the unarchiving ones are there from the start, as on Apple platforms.
    nonisolated(unsafe) private static var registry: [NSValueTransformerName: ValueTransformer] = [
        .keyedUnarchiveFromDataTransformerName: NSKeyedUnarchiveFromDataTransformer(),
        .secureUnarchiveFromDataTransformerName: NSSecureUnarchiveFromDataTransformer(),
    ]
    private static let registryLock = NSLock()

    /// Registers `transformer` under `name`, or removes the registration when it is nil.
    open class func setValueTransformer(_ transformer: ValueTransformer?, forName name: NSValueTransformerName) {
        registryLock.withLock { registry[name] = transformer }
    }

    /// The transformer registered under `name`, or nil.
    ///
    /// Apple's `init?(forName:)` is a factory returning the registered
    /// instance, which a Swift class initializer cannot do; this is that lookup.
    open class func valueTransformer(forName name: NSValueTransformerName) -> ValueTransformer? {
        registryLock.withLock { registry[name] }
    }

    /// The names of every registered transformer.
    open class func valueTransformerNames() -> [NSValueTransformerName] {
        registryLock.withLock { Array(registry.keys) }
    }

    /// The class of what ``transformedValue(_:)`` returns.
    open class func transformedValueClass() -> AnyClass { NSObject.self }

    /// Whether ``reverseTransformedValue(_:)`` undoes ``transformedValue(_:)``.
    open class func allowsReverseTransformation() -> Bool { true }

    /// `value` transformed; the base class returns it unchanged.
    open func transformedValue(_ value: Any?) -> Any? { value }

    /// `value` transformed back. Traps when the class does not allow reverse
    /// transformation, as Apple's raises; otherwise the base class returns it unchanged.
    open func reverseTransformedValue(_ value: Any?) -> Any? {
        precondition(Self.allowsReverseTransformation(), "\(Self.self) does not allow reverse transformation")
        return transformedValue(value)
    }
}
