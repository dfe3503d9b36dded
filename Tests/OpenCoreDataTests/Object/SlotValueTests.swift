import Foundation
import Testing
@testable import OpenCoreDataCore

/// `SlotValue`'s canonical form: a value of a typed case's type is always in
/// that case (what the save's direct binding and the fast comparisons rely
/// on), reading it back gives the same value of the same type, and comparing
/// two slot values agrees with `ValueEquality`.
@Suite struct SlotValueTests {
    /// The case a slot value is in.
    static func caseName(_ value: SlotValue) -> String {
        Mirror(reflecting: value).children.first?.label ?? "\(value)"
    }

    static var typed: [(Any, String)] { [
        (Int64(-7), "int64"), (Int64.max, "int64"), (Int32(7), "int32"), (Int16(-7), "int16"), (true, "bool"),
        (2.5, "double"), (Double.nan, "double"), (Float(1.5), "float"), (Date(timeIntervalSince1970: 7), "date"),
        ("", "string"), ("seven", "string"), (String(repeating: "é", count: 40), "string"),
    ] }

    static var untyped: [Any] { [
        7, UInt8(7), NSNumber(value: 7), Decimal(7), Data([7]), UUID(), URL(string: "https://example.com")!,
        Optional<Any>.some(Int64(7)) as Any, Optional<Int64>.none as Any, [Int64(7)],
    ] }

    @Test func valuesOfTheTypedCasesGoInThem() {
        for (value, name) in Self.typed {
            let slot = SlotValue(attribute: value)
            #expect(Self.caseName(slot) == name, "\(value)")
            let back = slot.any
            #expect(back.map { Swift.type(of: $0) == Swift.type(of: value) } == true, "\(value)")
            #expect(ValueEquality.equal(back, value) || (value as? Double)?.isNaN == true, "\(value)")
            #expect(slot.holdsValue)
        }
        for value in Self.untyped {
            #expect(Self.caseName(SlotValue(attribute: value)) == "value", "\(value)")
        }
        #expect(SlotValue(attribute: nil as Any?).isNone)
    }

    /// A slot value is the size of its largest payload (a string, a set of
    /// objects) and a tag: values of other types are boxed, since an `Any`
    /// inline made each slot 40 bytes (and every switch over one copy it).
    @Test func slotValuesTakeThreeWords() {
        #expect(MemoryLayout<SlotValue>.stride == 3 * MemoryLayout<Int>.stride)
        let boxed = SlotValue(attribute: Decimal(7))
        #expect(Self.caseName(boxed) == "value" && boxed.any as? Decimal == 7)
    }

    /// An `Any` made in generic code from another `Any` holds the inner one
    /// out of line, though `type(of:)` reports the inner value's type: its
    /// value is still read, not the box's address.
    @Test func valuesInsideNestedContainersAreReadThroughTheBox() {
        func erased<T>(_ value: T) -> Any { value }
        let samples: [Any] = [Int64(7), Int32(7), true, 2.5, "seven", String(repeating: "ü", count: 30),
                              Date(timeIntervalSince1970: 7)]
        for sample in samples {
            let nested = erased(sample)
            let slot = SlotValue(attribute: nested)
            #expect(Self.caseName(slot) != "value", "\(sample)")
            #expect(ValueEquality.equal(slot.any, sample), "\(sample)")
        }
        let attribute = NSAttributeDescription(name: "count", type: .integer64AttributeType)
        #expect(ValueCoercion.slotValue(erased(Int64(7) as Any), for: attribute).any as? Int64 == 7)
    }

    /// Strings are copied out of their `Any` box, not borrowed: each slot
    /// keeps its string's storage after every other reference is gone.
    @Test func stringsOutliveTheValuesTheyCameFrom() {
        var slots: [SlotValue] = []
        do {
            let strings = (0..<1_000).map { "string number \($0) " + String(repeating: "ü", count: $0 % 50) }
            slots = strings.map { SlotValue(attribute: $0 as Any) }
        }
        for (index, slot) in slots.enumerated() {
            #expect(slot.any as? String == "string number \(index) " + String(repeating: "ü", count: index % 50))
        }
    }

    @Test func comparingSlotValuesAgreesWithValueEquality() {
        let values: [Any?] = [nil, Int64(7), Int64(8), Int32(7), Int16(7), true, false, 7.0, 7.5, Double.nan,
                              Float(7), Float.nan, Date(timeIntervalSince1970: 7), Date(timeIntervalSince1970: 8),
                              "seven", "eight", "e\u{301}", "\u{e9}", NSNumber(value: 7), 7, Decimal(7), Data([7])]
        var compared = 0
        for lhs in values {
            for rhs in values {
                let expected = ValueEquality.equal(lhs, rhs)
                #expect(SlotValue(attribute: lhs).isSameAttributeValue(as: SlotValue(attribute: rhs)) == expected,
                        "\(String(describing: lhs)) vs \(String(describing: rhs))")
                compared += 1
            }
        }
        #expect(compared == values.count * values.count)
    }

    /// Values read from the store and values set through key-value coding
    /// (a bridged number included) arrive in the attribute's typed case.
    @Test func readAndSetValuesAreInTheirTypedCases() throws {
        let model = NSManagedObjectModel()
        let thing = NSEntityDescription(name: "Thing")
        thing.properties = [
            NSAttributeDescription(name: "count", type: .integer64AttributeType),
            NSAttributeDescription(name: "ratio", type: .doubleAttributeType),
            NSAttributeDescription(name: "name", type: .stringAttributeType),
            NSAttributeDescription(name: "when", type: .dateAttributeType),
        ]
        model.entities = [thing]
        let context = try TestStack.context(model, .sqlite)
        let object = TestStack.insert("Thing", into: context, ["ratio": 0.5, "name": "a", "when": Date()])
        object.setValue(NSNumber(value: 3), forKey: "count")
        // Generic code that passes an `Any` on nests it; the save binds 7, not the box's address.
        func setGenerically<T>(_ value: T, _ key: String, of object: NSManagedObject) {
            object.setValue(value, forKey: key)
        }
        let nested = TestStack.insert("Thing", into: context)
        setGenerically(Int64(7) as Any, "count", of: nested)
        let expected = ["count": "int64", "ratio": "double", "name": "string", "when": "date"]
        for (key, name) in expected { #expect(Self.caseName(object.values[object.slot(key)]) == name, "\(key)") }
        try context.save()
        let reader = try TestStack.reader(of: context)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Thing")
        request.sortDescriptors = [NSSortDescriptor(key: "count", ascending: true)]
        let fetched = try reader.fetch(request)
        #expect(fetched.map { $0.value(forKey: "count") as? Int64 } == [3, 7])
        let loaded = try #require(fetched.first)
        loaded.willAccessValue(forKey: nil)
        for (key, name) in expected { #expect(Self.caseName(loaded.values[loaded.slot(key)]) == name, "\(key)") }
        #expect(loaded.value(forKey: "count") as? Int64 == 3)
    }
}
