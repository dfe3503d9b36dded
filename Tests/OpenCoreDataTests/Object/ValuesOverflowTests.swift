import Foundation
import Testing
@testable import OpenCoreDataCore

/// `ValuesOverflow`: one word, the object itself for an entity with one
/// to-one relationship, a box copied on write for several or for changed
/// slots from 64 up; checked against an array and a set as the model.
@Suite struct ValuesOverflowTests {
    private static func objects(_ count: Int) -> [NSManagedObject] {
        let entity = NSEntityDescription(name: "Thing")
        return (0..<count).map { _ in NSManagedObject(entity: entity, insertInto: nil) }
    }

    @Test(arguments: 1...4)
    func matchesAModelUnderRandomOperations(toOneCount count: Int) {
        let objects = Self.objects(5)
        var generator = SeededGenerator(seed: UInt64(count))
        var overflow = ValuesOverflow()
        var destinations = [NSManagedObject?](repeating: nil, count: count)
        var high = Set<Int>()
        for step in 0..<400 {
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<5:
                let ordinal = Int.random(in: 0..<count, using: &generator)
                let object = objects.randomElement(using: &generator)!
                overflow.setDestination(object, at: ordinal, count: count)
                destinations[ordinal] = object
            case 5..<8:
                let slots = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                    Int.random(in: 0..<200, using: &generator)
                }
                overflow.formChangedUnion(SlotSet(slots))
                high.formUnion(slots.filter { $0 >= 64 })
            case 8:
                overflow.forgetChanges()
                high = []
            default:
                overflow.removeDestinations()
                destinations = [NSManagedObject?](repeating: nil, count: count)
            }
            for index in 0...count {  // one past the end reads nil
                #expect(overflow[index] === (index < count ? destinations[index] : nil), "step \(step)")
            }
            #expect(overflow.changedHigh == SlotSet(high), "step \(step)")
        }
    }

    /// Copies are values: writing one leaves the other as it was, boxed or not.
    @Test func copiesDoNotShareWrites() {
        let objects = Self.objects(2)
        var first = ValuesOverflow()
        first.setDestination(objects[0], at: 1, count: 3)
        first.formChangedUnion(SlotSet([70]))
        var second = first
        second.setDestination(objects[1], at: 1, count: 3)
        second.formChangedUnion(SlotSet([90]))
        #expect(first[1] === objects[0] && second[1] === objects[1])
        #expect(first.changedHigh == SlotSet([70]) && second.changedHigh == SlotSet([70, 90]))
        var third = second
        third.forgetChanges()
        third.removeDestinations()
        #expect(second.changedHigh == SlotSet([70, 90]) && second[1] === objects[1])
        #expect(third.changedHigh.isEmpty && third[1] == nil)
    }

    /// The one resolved object of an entity with one to-one survives a
    /// change to a high slot, which moves it into a box.
    @Test func aHighChangeKeepsTheSingleDestination() {
        let objects = Self.objects(1)
        var overflow = ValuesOverflow()
        overflow.setDestination(objects[0], at: 0, count: 1)
        overflow.formChangedUnion(SlotSet([3, 64]))
        #expect(overflow[0] === objects[0] && overflow.changedHigh == SlotSet([64]))
    }

    /// `PropertyValues.changed` joins its low word and the overflow's high slots.
    @Test func propertyValuesTrackChangesOnBothSidesOfSlot64() {
        let wide = NSEntityDescription(name: "Wide")
        wide.properties = (0..<70).map { TestStack.attribute("a\($0)", .integer64AttributeType) }
        var values = PropertyValues(layout: wide.slotLayout)
        values[3] = .int64(1)
        values[66] = .int64(2)
        let copy = values
        #expect(values.changed == SlotSet([3, 66]))
        values.forgetChanges()
        #expect(values.changed.isEmpty && copy.changed == SlotSet([3, 66]))
        values.markChanged(SlotSet([1, 65, 69]))
        #expect(values.changed == SlotSet([1, 65, 69]))
        #expect(values[66].any as? Int64 == 2)
    }

    /// An entity with two to-one relationships (Employee's department and
    /// manager) keeps both destinations, each alive while its owner is.
    @Test func anEntityWithTwoToOnesResolvesEach() throws {
        let context = try TestStack.context(TestStack.companyModel(rule: .nullifyDeleteRule), .sqlite)
        try context.performAndWait {
            let department = TestStack.insert("Department", into: context, ["name": "R&D"])
            let boss = TestStack.insert("Employee", into: context, ["name": "boss"])
            let worker = TestStack.insert("Employee", into: context, ["name": "worker"])
            worker.setValue(department, forKey: "department")
            worker.setValue(boss, forKey: "manager")
            try context.save()
            context.reset()
        }
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Employee")
            request.predicate = NSPredicate(format: "name == %@", "worker")
            let worker = try #require(try context.fetch(request).first)
            let identities = try { () throws -> [ObjectIdentifier] in
                let department = try #require(worker.value(forKey: "department") as? NSManagedObject)
                let manager = try #require(worker.value(forKey: "manager") as? NSManagedObject)
                return [ObjectIdentifier(department), ObjectIdentifier(manager)]
            }()
            context.registered.sweep()
            let department = try #require(worker.value(forKey: "department") as? NSManagedObject)
            let manager = try #require(worker.value(forKey: "manager") as? NSManagedObject)
            #expect([ObjectIdentifier(department), ObjectIdentifier(manager)] == identities)
            #expect(department.value(forKey: "name") as? String == "R&D")
            #expect(manager.value(forKey: "name") as? String == "boss")
        }
    }
}
