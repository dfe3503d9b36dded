import Foundation
import Testing
@testable import OpenCoreDataCore

/// ManagedObjectSet's invariants against a plain array model: members are
/// unique, kept in insertion order (or at the index given), and removal (of
/// one object or a list, every member in order among them) keeps the others'
/// order; checked after every step of random sequences.
struct ManagedObjectSetTests {
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8]) func randomOperationsMatchAnArrayModel(seed: UInt64) {
        let entity = NSEntityDescription(name: "Item")
        let pool = (0..<12).map { _ in NSManagedObject(entity: entity, insertInto: nil) }
        var random = SeededGenerator(seed: seed)
        var set = ManagedObjectSet()
        var model: [NSManagedObject] = []
        for _ in 0..<400 {
            let object = pool.randomElement(using: &random)!
            let present = model.contains { $0 === object }
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                #expect(set.append(object) == !present)
                if !present { model.append(object) }
            case 1:
                let index = Int.random(in: 0...model.count + 1, using: &random)
                #expect(set.insert(object, at: index) == !present)
                if !present { model.insert(object, at: min(index, model.count)) }
            case 2:
                // Every member in order (emptied without hashing), shuffled, or some picks with outsiders.
                var gone: [NSManagedObject]
                switch Int.random(in: 0..<3, using: &random) {
                case 0: gone = model
                case 1: gone = model.shuffled(using: &random)
                default:
                    gone = (0..<Int.random(in: 0...5, using: &random)).map { _ in pool.randomElement(using: &random)! }
                }
                let removes = gone.contains { candidate in model.contains { $0 === candidate } }
                #expect(set.remove(contentsOf: gone) == removes)
                model.removeAll { member in gone.contains { $0 === member } }
            default:
                #expect(set.remove(object) == present)
                model.removeAll { $0 === object }
            }
            #expect(set.objects.map(ObjectIdentifier.init) == model.map(ObjectIdentifier.init))
            #expect(set.count == model.count && set.isEmpty == model.isEmpty)
            #expect(pool.allSatisfy { candidate in set.contains(candidate) == model.contains { $0 === candidate } })
        }
    }
}
