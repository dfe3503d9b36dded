import Testing
@testable import OpenCoreDataCore

/// `value(forKey:as:)`, what generated properties read through: Xcode's
/// property types over the Swift values the object stores.
@Suite struct TypedValueTests {
    static func object() throws -> NSManagedObject {
        let entity = NSEntityDescription(name: "Price", properties: [
            NSAttributeDescription(name: "amount", type: .decimalAttributeType),
            NSAttributeDescription(name: "count", type: .integer16AttributeType),
            NSAttributeDescription(name: "flag", type: .booleanAttributeType),
        ])
        let model = NSManagedObjectModel()
        model.entities = [entity]
        let context = try TestStack.context(model)
        return NSManagedObject(entity: context.persistentStoreCoordinator!.managedObjectModel.entitiesByName["Price"]!, insertInto: context)
    }

    @Test func scalarsReadZeroForNilAndNumbersBridge() throws {
        let object = try Self.object()
        #expect(object.value(forKey: "count", as: Int16.self) == 0)
        #expect(object.value(forKey: "count", as: NSNumber?.self) == nil)
        object.setValue(NSNumber(value: 7), forKey: "count")
        #expect(object.value(forKey: "count", as: Int16.self) == 7)
        #expect(object.value(forKey: "count", as: NSNumber?.self)?.intValue == 7)
        object.setValue(NSNumber(value: true), forKey: "flag")
        #expect(object.value(forKey: "flag", as: Bool.self))
    }

    @Test func decimalsReadAsNSDecimalNumber() throws {
        let object = try Self.object()
        object.setValue(NSDecimalNumber(string: "12.5"), forKey: "amount")
        #expect(object.value(forKey: "amount") as? Decimal == Decimal(string: "12.5"))
        #expect(object.value(forKey: "amount", as: NSDecimalNumber?.self) == NSDecimalNumber(string: "12.5"))
    }
}
