import Foundation
import Testing
@testable import OpenCoreDataCore

/// `SlotBuffer` and `SlotValues`: slots copied on write, rows made of a
/// snapshot's own buffer only when no one else can see the stamp change,
/// and every slot released with its buffer.
@Suite struct SlotBufferTests {
    private static let layout = PropertySlotLayout((0..<5).map {
        NSAttributeDescription(name: "a\($0)", type: .integer64AttributeType)
    })

    private static func values(_ numbers: [Int64]) -> SlotValues {
        var values = SlotValues.empty(layout: layout)
        for (slot, number) in numbers.enumerated() { values[slot] = .int64(number) }
        return values
    }

    private static func numbers(_ values: SlotValues) -> [Int64] {
        values.map { if case .int64(let number) = $0 { number } else { -1 } }
    }

    private static let id = NSManagedObjectID(
        family: ObjectIDFamily(entity: NSEntityDescription(name: "Thing"), store: nil), key: .permanent(7))

    private static func snapshot(_ values: SlotValues, version: Int64 = 1) -> StoreSnapshot {
        StoreSnapshot(objectID: id, version: version, layout: layout, values: values)
    }

    private static func identity(_ values: SlotValues) -> ObjectIdentifier? { values.buffer.map(ObjectIdentifier.init) }

    /// Random writes and copies among four variables, against arrays as the
    /// model: no write shows through another variable, and a variable that
    /// holds its buffer alone writes it in place.
    @Test(arguments: 0..<4)
    func copiesOnWriteAgainstAModel(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed))
        var variables = (0..<4).map { _ in Self.values([0, 0, 0, 0, 0]) }
        var model = [[Int64]](repeating: [0, 0, 0, 0, 0], count: 4)
        for _ in 0..<500 {
            let target = Int.random(in: 0..<4, using: &generator)
            if Bool.random(using: &generator) {
                let source = Int.random(in: 0..<4, using: &generator)
                variables[target] = variables[source]
                model[target] = model[source]
            } else {
                let slot = Int.random(in: 0..<5, using: &generator)
                let number = Int64.random(in: 0..<100, using: &generator)
                var written = variables[target]
                variables[target] = SlotValues() // `written` holds the buffer alone unless another variable does
                let shared = variables.contains { $0.buffer === written.buffer }
                let before = Self.identity(written)
                written[slot] = .int64(number)
                #expect((Self.identity(written) == before) == !shared)
                variables[target] = written
                model[target][slot] = number
            }
            #expect(variables.map(Self.numbers) == model)
        }
    }

    @Test func aSnapshotHoldingItsBufferAloneBecomesTheRowInPlace() {
        var snapshot = Self.snapshot(Self.values([1, 2, 3, 4, 5]))
        let buffer = Self.identity(snapshot.values)
        snapshot.version = 3
        let row = StoreRowCache.Row.make(from: consume snapshot)
        #expect(ObjectIdentifier(row) == buffer)
        #expect(row.objectID === Self.id && row.version == 3)
        #expect(Self.numbers(row.values) == [1, 2, 3, 4, 5])
    }

    /// Outside the cache's lock a shared buffer with no stamp is copied; the
    /// cache stamps it in place, since every such stamp is made under its lock.
    @Test func aSharedBufferIsStampedOnlyUnderTheCachesLock() {
        let values = Self.values([1, 2, 3, 4, 5])
        let snapshot = Self.snapshot(values)
        let copied = StoreRowCache.Row.make(from: snapshot)
        #expect(copied !== values.buffer)
        #expect(values.buffer?.record == nil, "the shared buffer kept no stamp")
        let stamped = StoreRowCache().row(from: snapshot)
        #expect(stamped === values.buffer)
        #expect(Self.numbers(copied.values) == [1, 2, 3, 4, 5] && Self.numbers(stamped.values) == [1, 2, 3, 4, 5])
    }

    @Test func aRowIsNeverRestampedWhileShared() {
        let cache = StoreRowCache()
        let values = Self.values([1, 2, 3, 4, 5])
        let first = cache.row(from: Self.snapshot(values, version: 1))
        #expect(first === values.buffer)
        #expect(cache.row(from: Self.snapshot(values, version: 1)) === first, "the same row again")
        let second = cache.row(from: Self.snapshot(values, version: 2))
        #expect(second !== first)
        #expect(first.version == 1 && second.version == 2)
    }

    /// A row's slots stay as they were when a value sharing them is written.
    @Test func writingARowsValuesCopiesThem() {
        let row = StoreRowCache().row(from: Self.snapshot(Self.values([1, 2, 3, 4, 5])))
        var values = row.values
        values[0] = .int64(9)
        #expect(values.buffer !== row)
        #expect(Self.numbers(row.values) == [1, 2, 3, 4, 5] && Self.numbers(values) == [9, 2, 3, 4, 5])
    }

    @Test func aBufferReleasesItsSlotsWhenItDies() {
        weak var boxed: SlotValue.Boxed?
        do {
            var values = SlotValues.empty(layout: Self.layout)
            let box = SlotValue.Boxed(Data([1, 2, 3]))
            boxed = box
            values[2] = .value(box)
            let copy = values
            values[2] = .none
            #expect(boxed != nil, "the copy still holds it")
            _ = copy
        }
        #expect(boxed == nil)
    }

    /// A buffer destroys only the slots that may hold a reference
    /// (`referenceSlots`): every reference written, by the initializer or
    /// later, in place or into a copy, below slot 63 or from it on (where
    /// slots share one bit), is released with the last buffer holding it,
    /// and none sooner. Random writes over a 70-slot layout.
    @Test(arguments: 0..<3)
    func everyReferenceWrittenIsReleasedWithItsBuffer(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed) &+ 40)
        let layout = PropertySlotLayout((0..<70).map {
            NSAttributeDescription(name: "a\($0)", type: .binaryDataAttributeType)
        })
        var boxes: [SlotValue.Boxed] = []
        func randomValue() -> SlotValue {
            switch Int.random(in: 0..<3, using: &generator) {
            case 0:
                boxes.append(SlotValue.Boxed(Data([UInt8(boxes.count % 256)])))
                return .value(boxes[boxes.count - 1])
            case 1: return .int64(Int64.random(in: 0..<100, using: &generator))
            default: return .none
            }
        }
        var weakBoxes: [() -> SlotValue.Boxed?] = []
        do {
            var values = SlotValues(SlotBuffer.make(layout: layout) { slots in
                for slot in 0..<layout.count { (slots + slot).initialize(to: randomValue()) }
            })
            var held: [SlotValues] = []
            for _ in 0..<300 {
                if Int.random(in: 0..<10, using: &generator) == 0 { held.append(values) }
                values[Int.random(in: 0..<layout.count, using: &generator)] = randomValue()
            }
            weakBoxes = boxes.map { box in { [weak box] in box } }
            boxes = []
            // Each box is alive exactly while a buffer holds it.
            let live = Set(([values] + held).flatMap { $0.compactMap { value -> ObjectIdentifier? in
                if case .value(let box) = value { ObjectIdentifier(box) } else { nil }
            } })
            let alive = Set(weakBoxes.compactMap { $0().map(ObjectIdentifier.init) })
            #expect(alive == live)
            #expect(!live.isEmpty)
        }
        #expect(weakBoxes.allSatisfy { $0() == nil }, "a buffer died without releasing a reference")
    }

    @Test func emptyValuesHaveNoBuffer() {
        let values = SlotValues()
        #expect(values.isEmpty && values.buffer == nil && values.count == 0)
        #expect(SlotValues.empty(layout: Self.layout).count == 5)
    }
}
