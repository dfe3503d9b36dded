import Foundation
import Testing
@testable import OpenCoreDataCore

/// Used only here, so that nothing registers it before the lookup runs.
final class LookupTestsOnlyClass: NSManagedObject {}

/// Finding classes by the bare names model files give them, in the Swift runtime's type records.
@Suite struct ClassNameLookupTests {
    @Test func findsTheModuleOfATopLevelClass() {
        #expect(ClassNameLookup.modules(declaringClassNamed: "NSManagedObject") == ["OpenCoreDataCore"])
        #expect(ClassNameLookup.modules(declaringClassNamed: "LookupTestsOnlyClass") == ["OpenCoreDataTests"])
        #expect(ClassNameLookup.modules(declaringClassNamed: "NoClassIsNamedSoAnywhere").isEmpty)
        // A prefix of a class's name is not its name.
        #expect(ClassNameLookup.modules(declaringClassNamed: "LookupTestsOnly").isEmpty)
    }

    @Test func bareDottedAndPlaceholderNamesResolve() {
        for name in ["LookupTestsOnlyClass", ".LookupTestsOnlyClass", "$(PRODUCT_MODULE_NAME).LookupTestsOnlyClass",
                     "OpenCoreDataTests.LookupTestsOnlyClass"] {
            let entity = NSEntityDescription()
            entity.name = "Looked"
            entity.managedObjectClassName = name
            #expect(ManagedObjectClasses.objectClass(for: entity) == LookupTestsOnlyClass.self, "\(name)")
        }
    }

    /// A name no class has costs one search of the type records, then a dictionary read.
    @Test func unresolvableNamesAreSearchedOnce() {
        let entity = NSEntityDescription()
        entity.name = "Nameless"
        entity.managedObjectClassName = "NoSuchManagedObjectClass"
        let clock = ContinuousClock()
        let first = clock.measure { #expect(ManagedObjectClasses.objectClass(for: entity) == NSManagedObject.self) }
        let again = clock.measure {
            for _ in 0..<1000 { _ = ManagedObjectClasses.objectClass(for: entity) }
        }
        print("ClassNameLookup: first unresolved lookup \(first), 1000 more \(again)")
        #expect(again < .seconds(1))
    }

    /// An entity's class is resolved once and kept on the entity, until a
    /// registration (which may make its class name resolvable) or a change of
    /// the class name: a name only a registration resolves (its module part
    /// names no module) reads as NSManagedObject before it and as the
    /// registered class after.
    @Test func aResolvedClassFollowsRegistrationsAndRenames() {
        let entity = NSEntityDescription()
        entity.name = "Probed"
        entity.managedObjectClassName = "NoSuchModuleAnywhere.ClassCacheProbeLate"
        #expect(ManagedObjectClasses.objectClass(for: entity) == NSManagedObject.self)
        #expect(ManagedObjectClasses.objectClass(for: entity) == NSManagedObject.self)
        NSManagedObject.register(ClassCacheProbeLate.self)
        #expect(ManagedObjectClasses.objectClass(for: entity) == ClassCacheProbeLate.self)
        entity.managedObjectClassName = String(reflecting: ClassCacheProbeRenamed.self)
        #expect(ManagedObjectClasses.objectClass(for: entity) == ClassCacheProbeRenamed.self)
        entity.managedObjectClassName = nil
        #expect(ManagedObjectClasses.objectClass(for: entity) == NSManagedObject.self)
    }

    /// Registering a class again is cheap and changes nothing; the cached
    /// classes of other entities stay right across registrations made from
    /// many threads at once.
    @Test func concurrentLookupsAndRegistrationsAgree() async {
        let entities = (0..<4).map { index in
            let entity = NSEntityDescription()
            entity.name = "Concurrent\(index)"
            entity.managedObjectClassName = index.isMultiple(of: 2)
                ? String(reflecting: ClassCacheProbeConcurrent.self) : nil
            return entity
        }
        let expected: [NSManagedObject.Type] = [ClassCacheProbeConcurrent.self, NSManagedObject.self,
                                                ClassCacheProbeConcurrent.self, NSManagedObject.self]
        let entityList = UncheckedSendableEntities(entities)
        let wrong = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for round in 0..<2_000 {
                        if task == 0, round.isMultiple(of: 100) {
                            NSManagedObject.register(ClassCacheProbeConcurrent.self)
                        }
                        for (entity, type) in zip(entityList.entities, expected)
                        where ManagedObjectClasses.objectClass(for: entity) != type { wrong += 1 }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
    }
}

/// Entities handed to concurrent tasks: never changed while they run.
private struct UncheckedSendableEntities: @unchecked Sendable {
    let entities: [NSEntityDescription]
    init(_ entities: [NSEntityDescription]) { self.entities = entities }
}

/// Each registered by one test only: the registry is the process's, and tests run in parallel.
final class ClassCacheProbeLate: NSManagedObject {}
final class ClassCacheProbeRenamed: NSManagedObject {}
final class ClassCacheProbeConcurrent: NSManagedObject {}

