import Foundation
import Testing
@testable import OpenCoreDataCore

/// `ValueEquality.equal` decides two values of one stored type by reading
/// their containers in place; the answers must be those of its general path
/// (numbers by value whatever their type, objects by identity or `isEqual:`).
@Suite struct ValueEqualityTests {
    final class Thing: NSObject {}

    /// An `Any` made in generic code from another `Any`: the container holds
    /// the inner container out of line, and its stored type is `Any`.
    static func rewrapped<T>(_ value: T) -> Any { value }

    static var samples: [Any] {
        [Int64(7), Int32(7), Int16(7), 7, 7.0, Float(7), true, "seven", "a longer string than fifteen bytes",
         Date(timeIntervalSinceReferenceDate: 7), Data([7]), UUID(uuidString: "00000000-0000-0000-0000-000000000007")!,
         Decimal(7), URL(string: "https://example.com/7")!, NSNumber(value: 7), NSString(string: "seven")]
    }

    @Test func eachValueEqualsItsCopyAndItsRewrappedSelf() {
        for value in Self.samples {
            let copy = value
            #expect(ValueEquality.equal(value, copy), "\(value)")
            #expect(ValueEquality.equal(Self.rewrapped(value), value), "\(value)")
            #expect(ValueEquality.equal(value, Self.rewrapped(value)), "\(value)")
        }
    }

    @Test func valuesOfOneTypeAreEqualOnlyWhenTheirValuesAre() {
        #expect(!ValueEquality.equal(Int64(7), Int64(8)))
        #expect(!ValueEquality.equal("seven", "eight"))
        #expect(!ValueEquality.equal(Date(timeIntervalSinceReferenceDate: 1), Date(timeIntervalSinceReferenceDate: 2)))
        #expect(!ValueEquality.equal(Data([1]), Data([2])))
        #expect(!ValueEquality.equal(Decimal(1), Decimal(2)))
        #expect(ValueEquality.equal("a longer string than fifteen bytes", String("a longer string than fifteen bytes")))
        #expect(ValueEquality.equal(0.0, -0.0))
    }

    @Test func numbersCompareByValueAcrossTypes() {
        #expect(ValueEquality.equal(Int64(7), 7))
        #expect(ValueEquality.equal(Int16(7), 7.0))
        #expect(ValueEquality.equal(NSNumber(value: 7), Int64(7)))
        #expect(!ValueEquality.equal(Int64(7), "7"))
    }

    @Test func objectsAreEqualByIdentityOrIsEqual() {
        let thing = Thing(), other = Thing()
        #expect(ValueEquality.equal(thing, thing))
        #expect(!ValueEquality.equal(thing, other))
        #expect(ValueEquality.equal(thing as NSObject, thing))
        #expect(ValueEquality.equal(NSString(string: "x"), NSString(string: "x")))
    }

    @Test func nilEqualsOnlyNil() {
        let none: Any? = nil
        #expect(ValueEquality.equal(none, none))
        #expect(!ValueEquality.equal(none, 0))
        #expect(!ValueEquality.equal(0, none))
        #expect(!ValueEquality.equal("", none))
    }
}
