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
    ] }

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
            if let value = made.any, let other = expected.any {
                #expect(Swift.type(of: value) == Swift.type(of: other), "\(type.rawValue) \(String(describing: input))")
                #expect(ValueEquality.equal(value, other) || (value as? Double)?.isNaN == true,
                        "\(type.rawValue) \(String(describing: input)): \(value) against \(other)")
            }
            compared += 1
        }
        #expect(compared >= 3)
    }
}
