/// How a mapping's expressions reach the manager: the variables they are
/// evaluated with, and the selectors `FUNCTION($manager, …)` sends, which on
/// Linux the manager answers itself (ExpressionFunctionReceiver).
extension NSMigrationManager: ExpressionFunctionReceiver {
    /// Evaluates a mapping expression for `source` with Apple's variables
    /// (`$manager`, `$source`, `$destination`, `$entityMapping`,
    /// `$propertyMapping`, `$entityPolicy`). Throws what a function the
    /// manager answers threw (a cancellation, an unknown mapping name), else
    /// NSEntityMigrationPolicyError (134170) naming the mapping and property.
    func evaluate(_ expression: NSExpression, source: NSManagedObject?, destination: NSManagedObject?,
                  mapping: NSEntityMapping, propertyMapping: NSPropertyMapping?,
                  policy: NSEntityMigrationPolicy) throws -> Any? {
        var variables: [String: Any] = [NSMigrationManagerKey: self, NSMigrationEntityMappingKey: mapping,
                                        NSMigrationEntityPolicyKey: policy]
        if let source { variables[NSMigrationSourceObjectKey] = source }
        if let destination { variables[NSMigrationDestinationObjectKey] = destination }
        if let propertyMapping { variables[NSMigrationPropertyMappingKey] = propertyMapping }
        do {
            return try expression.evaluate(with: source, variables: variables)
        } catch {
            if let underlying = error.underlying { throw underlying }
            let entity = mapping.destinationEntityName ?? mapping.sourceEntityName ?? "?"
            let property = propertyMapping?.name ?? "?"
            throw NSError.coreData(NSEntityMigrationPolicyError,
                                   "Entity migration policy error: mapping \(mapping.name ?? "?") could not compute "
                                   + "\(entity).\(property) from \(expression): \(error.message)",
                                   userInfo: ["entity": entity, "property": property,
                                              "entityMapping": mapping.name ?? "", "reason": error.message])
        }
    }

    func value(ofFunction selector: String, arguments: [Any?]) throws -> ExpressionFunctionResult {
        func objects(_ value: Any?) -> [NSManagedObject] { MigrationValues.objects(in: value) }
        func mappingName(_ value: Any?) throws -> String {
            guard let name = value as? String, mappingModel.entityMappingsByName[name] != nil else {
                throw NSError.coreData(NSEntityMigrationPolicyError,
                                       "Entity migration policy error: \(selector) names no entity mapping of the "
                                       + "mapping model: \(value.map { "\($0)" } ?? "nil")",
                                       userInfo: ["entityMapping": "\(value ?? "nil")"])
            }
            return name
        }
        switch (selector, arguments.count) {
        case ("destinationInstancesForEntityMappingNamed:sourceInstances:", 2):
            return .value(destinationInstances(forEntityMappingName: try mappingName(arguments[0]),
                                               sourceInstances: objects(arguments[1])))
        case ("sourceInstancesForEntityMappingNamed:destinationInstances:", 2):
            return .value(sourceInstances(forEntityMappingName: try mappingName(arguments[0]),
                                          destinationInstances: objects(arguments[1])))
        case ("destinationInstancesForSourceRelationshipNamed:sourceInstances:", 2):
            // What an inferred mapping writes: whichever mapping migrated each related instance.
            return .value(objects(arguments[1]).flatMap { source in
                associations.mappings(associating: source.objectID).flatMap {
                    destinationInstances(forEntityMappingName: $0, sourceInstances: [source])
                }
            })
        default:
            return .notHandled
        }
    }
}

/// Values moving between a migration's expressions and its objects.
enum MigrationValues {
    /// The managed objects in an expression's value: one object, or a
    /// collection of them (arrays, sets, ordered sets); nil is none.
    static func objects(in value: Any?) -> [NSManagedObject] {
        switch value {
        case let object as NSManagedObject: return [object]
        case let array as [Any]: return array.compactMap { $0 as? NSManagedObject }
        case let set as NSOrderedSet: return set.array.compactMap { $0 as? NSManagedObject }
        case let set as NSSet: return set.allObjects.compactMap { $0 as? NSManagedObject }
        case let set as Set<NSManagedObject>: return Array(set)
        default: return []
        }
    }

    /// An expression's value in the form `relationship` takes: the first
    /// object for a to-one, a set or an ordered set for a to-many.
    static func relationshipValue(_ value: Any?, for relationship: NSRelationshipDescription) -> Any? {
        let found = objects(in: value)
        guard relationship.isToMany else { return found.first }
        return relationship.isOrdered ? NSOrderedSet(array: found) : NSSet(array: found)
    }

    /// A copy of `model` whose properties are all optional and unvalidated,
    /// with the same tables: the model the destination store is written with
    /// batch by batch, before relationships are set. The real model
    /// validates the result in phase 3.
    static func unvalidated(_ model: NSManagedObjectModel) -> NSManagedObjectModel {
        let copy = model.copy() as! NSManagedObjectModel
        for entity in copy.entities {
            for property in entity.ownProperties {
                property.isOptional = true
                property.validationPredicateStorage = []
                property.validationWarnings = []
                if let relationship = property as? NSRelationshipDescription { relationship.minCount = 0 }
            }
        }
        return copy
    }
}
