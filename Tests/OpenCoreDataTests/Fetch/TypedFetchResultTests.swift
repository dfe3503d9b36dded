import Foundation
import Testing
@testable import OpenCoreDataCore

class TypedResultVehicle: NSManagedObject {}
final class TypedResultCar: TypedResultVehicle {}

/// `fetch(_:)` returns `[ResultType]`: objects of the request's own class
/// (or plain `NSManagedObject`s) come back in the array the fetch made,
/// mixed classes object by object; either way the array is an ordinary one
/// of its element type (it grows, and `type(of:)` names that type).
@Suite struct TypedFetchResultTests {
    static func context(_ kind: TestStack.StoreKind) throws -> NSManagedObjectContext {
        let vehicle = NSEntityDescription(name: "Vehicle", className: "OpenCoreDataTests.TypedResultVehicle")
        let car = NSEntityDescription(name: "Car", className: "OpenCoreDataTests.TypedResultCar")
        vehicle.properties = [TestStack.attribute("name", .stringAttributeType)]
        vehicle.subentities = [car]
        let model = NSManagedObjectModel()
        model.entities = [vehicle, car]
        let context = try TestStack.context(model, kind)
        for name in ["v1", "v2"] { TestStack.insert("Vehicle", into: context, ["name": name]) }
        for name in ["c1", "c2", "c3"] { TestStack.insert("Car", into: context, ["name": name]) }
        try context.save()
        context.reset()
        return context
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func resultsAreArraysOfTheRequestsType(_ kind: TestStack.StoreKind) throws {
        let context = try Self.context(kind)
        var cars = try context.fetch(NSFetchRequest<TypedResultCar>(entityName: "Car"))
        #expect(type(of: cars) == [TypedResultCar].self && cars.count == 3)
        cars.append(TypedResultCar(entity: cars[0].entity, insertInto: nil))
        #expect(cars.count == 4 && cars.allSatisfy { $0.entity.name == "Car" })

        var vehicles = try context.fetch(NSFetchRequest<TypedResultVehicle>(entityName: "Vehicle"))
        #expect(vehicles.count == 5 && vehicles.filter { $0 is TypedResultCar }.count == 3)
        vehicles.append(cars[0])
        #expect(vehicles.count == 6)

        var objects = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Vehicle"))
        objects.append(contentsOf: cars)
        #expect(type(of: objects) == [NSManagedObject].self && objects.count == 9)

        var results = try context.fetch(NSFetchRequest<NSFetchRequestResult>(entityName: "Car"))
        results.append(cars[3])
        #expect(results.count == 4 && results.allSatisfy { $0 is NSManagedObject })

        let none = NSFetchRequest<TypedResultCar>(entityName: "Car")
        none.predicate = NSPredicate(format: "name == 'none'")
        var empty = try context.fetch(none)
        empty.append(cars[1])
        #expect(empty.count == 1)
    }
}
