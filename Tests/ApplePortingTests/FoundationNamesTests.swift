// Written as code for Apple's Core Data is: XCTest, Foundation and the Core
// Data module imported side by side, Foundation's class names used as types
// (parameters, annotations, stored properties, generic arguments). With `import
// CoreData` changed to `import OpenCoreData` it must compile unchanged: on
// Linux Foundation declares these five classes too, and a plain re-export
// left every such line "ambiguous for type lookup" (issue 18).
import XCTest
import Foundation
import OpenCoreData

/// Filters as apps keep them: Foundation's names in stored properties and a generic argument.
struct SavedFilter {
    var predicate: NSPredicate
    var sortDescriptors: [NSSortDescriptor]
    var cache: [String: NSExpression] = [:]
}

final class FoundationNamesTests: XCTestCase {
    private func filter(_ predicate: NSPredicate,
                        sortedBy sort: [NSSortDescriptor]) -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
        request.predicate = predicate
        request.sortDescriptors = sort
        return request
    }

    private func context() throws -> NSManagedObjectContext {
        let person = NSEntityDescription()
        person.name = "Person"
        let name = NSAttributeDescription()
        name.name = "name"
        name.attributeType = .stringAttributeType
        let age = NSAttributeDescription()
        age.name = "age"
        age.attributeType = .integer16AttributeType
        person.properties = [name, age]
        let model = NSManagedObjectModel()
        model.entities = [person]
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    func testFoundationClassNamesNameOpenCoreDatasClasses() throws {
        let adult: NSPredicate = NSPredicate(format: "age >= %d", 18)
        let named: NSComparisonPredicate = NSComparisonPredicate(
            leftExpression: NSExpression(forKeyPath: "name"), rightExpression: NSExpression(forConstantValue: "A"),
            modifier: .direct, type: .beginsWith, options: [])
        let both: NSCompoundPredicate = NSCompoundPredicate(andPredicateWithSubpredicates: [adult, named])
        let expression: NSExpression = NSExpression(format: "age + 1")
        let byName: NSSortDescriptor = NSSortDescriptor(key: "name", ascending: true)
        let predicates: [NSPredicate] = [adult, named, both, NSPredicate(value: true)]
        XCTAssertEqual(predicates.count, 4)
        XCTAssertEqual(both.predicateFormat, "age >= 18 AND name BEGINSWITH \"A\"")
        XCTAssertEqual(expression.expressionValue(with: ["age": 41], context: nil) as? Int, 42)

        let context = try context()
        for (name, age) in [("Ann", 30), ("Al", 12), ("Bea", 40)] {
            let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
            person.setValue(name, forKey: "name")
            person.setValue(age, forKey: "age")
        }
        try context.save()
        let saved = SavedFilter(predicate: both, sortDescriptors: [byName], cache: ["next": expression])
        let found = try context.fetch(filter(saved.predicate, sortedBy: saved.sortDescriptors))
        XCTAssertEqual(found.map { $0.value(forKey: "name") as? String }, ["Ann"])
    }
}
