import Foundation
import Testing
@testable import OpenCoreDataCore

/// Validation at each level of nested contexts: every save validates what it
/// saves ("validation is performed when you save", Apple's Model Object
/// Validation guide; a parent's save is a save), so a parent validates the
/// objects a child saved into it. A parent may skip the rules a child just
/// ran on exactly the same values, but never when anything could differ:
/// values changed in the parent before or after the child's save, a subclass
/// with validation code of its own.
@Suite struct NestedValidationTests {
    /// Item: `count` at most 10, `label` required.
    static func model(itemClass: String? = nil) -> NSManagedObjectModel {
        let item = NSEntityDescription(name: "Item", className: itemClass)
        item.properties = [
            TestStack.attribute("count", .integer32AttributeType, rules: .init(maxValueString: "10")),
            TestStack.attribute("label", .stringAttributeType, optional: false),
        ]
        let model = NSManagedObjectModel()
        model.entities = [item]
        return model
    }

    /// A root context holding one saved item (count 1, label "a") and a child of it.
    static func stack(_ kind: TestStack.StoreKind, itemClass: String? = nil) throws
        -> (root: NSManagedObjectContext, child: NSManagedObjectContext) {
        let root = try TestStack.context(model(itemClass: itemClass), kind)
        try root.performAndWait { () throws in
            TestStack.insert("Item", into: root, ["count": Int32(1), "label": "a"])
            try root.save()
            root.reset()
        }
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = root
        return (root, child)
    }

    static func item(in context: NSManagedObjectContext) throws -> NSManagedObject {
        try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item")).first)
    }

    static func expectTooLarge(_ save: () throws -> Void) {
        #expect {
            try save()
        } throws: { error in
            (error as NSError).code == NSValidationNumberTooLargeError
        }
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func aValueTheParentChangedAfterTheChildReadIsValidated(kind: TestStack.StoreKind) throws {
        let (root, child) = try Self.stack(kind)
        let childItem = try child.performAndWait { () throws in
            let item = try Self.item(in: child)
            #expect(item.value(forKey: "count") as? Int32 == 1)
            return item
        }
        // The child read count 1; the parent now holds 20, which the child never sees.
        try root.performAndWait { try Self.item(in: root).setValue(Int32(20), forKey: "count") }
        try child.performAndWait { () throws in
            childItem.setValue("b", forKey: "label")
            try child.save()
        }
        root.performAndWait { Self.expectTooLarge(root.save) }
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func aValueTheParentSetsAfterTheChildsSaveIsValidated(kind: TestStack.StoreKind) throws {
        let (root, child) = try Self.stack(kind)
        try child.performAndWait { () throws in
            try Self.item(in: child).setValue("b", forKey: "label")
            try child.save()
        }
        try root.performAndWait { () throws in
            let item = try Self.item(in: root)
            #expect(item.childValidatedStamp == item.valuesStamp)
            item.setValue(Int32(20), forKey: "count")
            #expect(item.childValidatedStamp != item.valuesStamp)
            Self.expectTooLarge(root.save)
        }
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func whatTheChildValidatedIsSavedToTheStore(kind: TestStack.StoreKind) throws {
        let (root, child) = try Self.stack(kind)
        try child.performAndWait { () throws in
            try Self.item(in: child).setValue(Int32(10), forKey: "count")
            TestStack.insert("Item", into: child, ["count": Int32(2), "label": "new"])
            try child.save()
        }
        try root.performAndWait { () throws in
            try root.save()
            root.reset()
            let counts = try root.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item"))
                .compactMap { $0.value(forKey: "count") as? Int32 }
            #expect(counts.sorted() == [2, 10])
        }
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func aSubclassValidatesAtEachLevel(kind: TestStack.StoreKind) throws {
        let (root, child) = try Self.stack(kind, itemClass: "OpenCoreDataTests.CountingItem")
        (root.name, child.name) = (UUID().uuidString, UUID().uuidString)
        try child.performAndWait { () throws in
            try Self.item(in: child).setValue("b", forKey: "label")
            try child.save()
        }
        try root.performAndWait { try root.save() }
        #expect(CountingItem.validations(in: child) == 1)
        #expect(CountingItem.validations(in: root) == 1)
    }
}

/// Counts `validateForUpdate()` calls per context name, as a subclass's own validation code would run.
final class CountingItem: NSManagedObject, @unchecked Sendable {
    private static let updateValidations = Locked<[String: Int]>([:])

    static func validations(in context: NSManagedObjectContext) -> Int {
        updateValidations.withLock { $0[context.name ?? ""] ?? 0 }
    }

    override func validateForUpdate() throws {
        if let name = managedObjectContext?.name {
            Self.updateValidations.withLock { $0[name, default: 0] += 1 }
        }
        try super.validateForUpdate()
    }
}
