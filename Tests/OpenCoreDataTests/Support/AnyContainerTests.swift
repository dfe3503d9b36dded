import Foundation
import Testing
@testable import OpenCoreDataCore

/// `AnyContainer` reads an `Any`'s (or an `Any?`'s) existential container in place; the hot paths
/// that use it (`setValue(_:forKey:)`'s value type, a to-one set's destination) rely on what it
/// reports matching what the runtime's casts find.
@Suite struct AnyContainerTests {
    private static func erased<T>(_ value: T) -> Any { value }
    private static func storedType(_ value: Any) -> ObjectIdentifier {
        ObjectIdentifier(AnyContainer.read(value) { $0.storedType })
    }

    @Test func aValueIsStoredAsItsOwnType() {
        #expect(Self.storedType(Int64(7)) == ObjectIdentifier(Int64.self))
        #expect(Self.storedType("seven") == ObjectIdentifier(String.self))
        #expect(Self.storedType(Date(timeIntervalSince1970: 7)) == ObjectIdentifier(Date.self))
        // Larger than the buffer: boxed out of line, stored as its own type all the same.
        #expect(Self.storedType(Decimal(7)) == ObjectIdentifier(Decimal.self))
    }

    /// Where the stored type differs from `type(of:)`, the hot paths fall back to the runtime.
    @Test func nestedContainersAndUpcastInstancesAreStoredAsAnotherType() {
        let nested = Self.erased(Int64(7) as Any)
        #expect(Self.storedType(nested) == ObjectIdentifier(Any.self))
        #expect(ObjectIdentifier(type(of: nested)) == ObjectIdentifier(Int64.self))
        let number = NSNumber(value: 7)
        let upcast: Any = number as NSObject
        #expect(Self.storedType(upcast) == ObjectIdentifier(NSObject.self))
        #expect(ObjectIdentifier(type(of: upcast)) == ObjectIdentifier(type(of: number)))
    }

    @Test func anOptionalIsReadWithoutUnwrapping() {
        #expect(MemoryLayout<Any?>.size == MemoryLayout<Any>.size)
        let entity = NSEntityDescription(name: "Sample")
        let object = NSManagedObject(entity: entity, insertInto: nil)
        func stored(_ value: Any?) -> NSManagedObject? {
            AnyContainer.read(optional: value) {
                $0.isStored(as: NSManagedObject.self) ? $0.load(as: NSManagedObject.self) : nil
            }
        }
        #expect(stored(object) === object)
        #expect(stored(Optional<Any>.none) == nil)
        #expect(stored(Optional<NSManagedObject>.none as Any) == nil)  // a nil inside: another type
        #expect(stored(Int64(7)) == nil)
        #expect(stored(object as NSObject) == nil)  // stored as its superclass: left to the cast
        #expect(stored(Self.erased(object as Any)) == nil)
    }
}
