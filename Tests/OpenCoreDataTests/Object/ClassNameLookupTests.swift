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
}
