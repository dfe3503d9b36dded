import Foundation
import Testing
@testable import OpenCoreDataCore

/// `ResolvedDestinations`: one word, the object itself for an entity with one
/// to-one relationship, an array for several; checked against an array model.
@Suite struct ResolvedDestinationsTests {
    @Test(arguments: 1...4)
    func matchesAnArrayUnderRandomWrites(count: Int) {
        let entity = NSEntityDescription(name: "Thing")
        let objects = (0..<5).map { _ in NSManagedObject(entity: entity, insertInto: nil) }
        var generator = SeededGenerator(seed: UInt64(count))
        var resolved = ResolvedDestinations()
        var model = [NSManagedObject?](repeating: nil, count: count)
        for _ in 0..<200 {
            let ordinal = Int.random(in: 0..<count, using: &generator)
            let object = objects.randomElement(using: &generator)!
            resolved.set(object, at: ordinal, count: count)
            model[ordinal] = object
            for index in 0...count {  // one past the end reads nil
                #expect(resolved[index] === (index < count ? model[index] : nil))
            }
        }
    }

    /// Copies are values: writing one leaves the other as it was.
    @Test func copiesDoNotShareWrites() {
        let entity = NSEntityDescription(name: "Thing")
        let a = NSManagedObject(entity: entity, insertInto: nil)
        let b = NSManagedObject(entity: entity, insertInto: nil)
        var first = ResolvedDestinations()
        first.set(a, at: 1, count: 3)
        var second = first
        second.set(b, at: 1, count: 3)
        #expect(first[1] === a && second[1] === b)
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
