import Foundation
import Testing
@testable import OpenCoreDataCore

/// `ValueCoercion.slotValue(_:for:)`, the slot value of every attribute set, against the general
/// `coerce(_:for:)` it shortcuts: the same slot, value and type, for every attribute type and
/// every input that `coerce` accepts (the inputs it refuses stop the program in both).
@Suite struct ValueCoercionTests {
    static let types: [NSAttributeType] = [
        .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .doubleAttributeType,
        .floatAttributeType, .decimalAttributeType, .booleanAttributeType, .stringAttributeType,
        .dateAttributeType, .binaryDataAttributeType, .UUIDAttributeType, .URIAttributeType,
    ]

    static var inputs: [Any?] { [
        nil, 7, Int16(7), Int32(-7), Int64(7), UInt8(7), 7.0, Float(7.5), Double.nan, Decimal(7), true,
        NSNumber(value: 7), NSNumber(value: 7.25), NSNumber(value: true), "seven", Date(timeIntervalSince1970: 7),
        Data([7]), UUID(uuidString: "00000000-0000-0000-0000-000000000007")!, URL(string: "https://example.com/7")!,
        Optional<Any>.some(Int64(7)) as Any, Optional<Int64>.none as Any, Int.max,
        // Stored as another type than their own: an `Any` inside an `Any` (generic code), a
        // class instance stored as its superclass. `slotValue` decides by the stored type.
        erased(Int64(7) as Any), erased(Int16(7) as Any), erased("seven" as Any), erased(true as Any),
        erased(Date(timeIntervalSince1970: 7) as Any), NSNumber(value: 7) as NSObject as Any,
    ] }

    private static func erased<T>(_ value: T) -> Any { value }

    @Test(arguments: types)
    func slotValueIsWhatCoerceMakes(_ type: NSAttributeType) {
        let attribute = NSAttributeDescription(name: "value", type: type)
        var compared = 0
        for input in Self.inputs {
            let accepted = ValueCoercion.unwrapped(input)
                .map { ValueCoercion.converted($0, for: attribute) != nil } ?? true
            guard accepted else { continue }
            let expected = SlotValue(attribute: ValueCoercion.coerce(input, for: attribute))
            let made = ValueCoercion.slotValue(input, for: attribute)
            #expect(made.isNone == expected.isNone, "\(type.rawValue) \(String(describing: input))")
            // Canonical form: a typed case's value never in `.value`, however it was stored in the `Any`.
            #expect(SlotValueTests.caseName(made) == SlotValueTests.caseName(expected),
                    "\(type.rawValue) \(String(describing: input))")
            if let value = made.any, let other = expected.any {
                #expect(Swift.type(of: value) == Swift.type(of: other), "\(type.rawValue) \(String(describing: input))")
                #expect(ValueEquality.equal(value, other) || (value as? Double)?.isNaN == true,
                        "\(type.rawValue) \(String(describing: input)): \(value) against \(other)")
            }
            compared += 1
        }
        #expect(compared >= 3)
    }

    /// `setValue(_:forKey:)` checks a value against the attribute type its entity's slot layout
    /// keeps (`PropertySlotLayout.attributeTypes`) and asks for the attribute only to convert: what
    /// it stores is what `coerce` makes, for every attribute type and every input `coerce` accepts.
    @Test func keyValueSetsStoreWhatCoerceMakes() {
        let entity = NSEntityDescription(name: "Sample")
        let attributes = Self.types.map { NSAttributeDescription(name: "value\($0.rawValue)", type: $0) }
        entity.properties = attributes
        let object = NSManagedObject(entity: entity, insertInto: nil)
        var compared = 0
        for attribute in attributes {
            for input in Self.inputs {
                let accepted = ValueCoercion.unwrapped(input)
                    .map { ValueCoercion.converted($0, for: attribute) != nil } ?? true
                guard accepted else { continue }
                object.setValue(input, forKey: attribute.name)
                let stored = object.value(forKey: attribute.name)
                let expected = ValueCoercion.coerce(input, for: attribute)
                let described = "\(attribute.name) \(String(describing: input))"
                #expect((stored == nil) == (expected == nil), "\(described)")
                if let stored, let expected {
                    #expect(Swift.type(of: stored) == Swift.type(of: expected), "\(described)")
                    #expect(ValueEquality.equal(stored, expected) || (stored as? Double)?.isNaN == true,
                            "\(described): \(stored) against \(expected)")
                }
                compared += 1
            }
        }
        #expect(compared >= 3 * attributes.count)
    }
}
