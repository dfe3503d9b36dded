// Apple's class methods of NSEntityDescription that involve a context.

extension NSEntityDescription {
    /// A new object of the entity named `entityName`, inserted into `context`,
    /// of the class its `managedObjectClassName` names (see docs/Differences.md).
    /// The result may be ignored, as Apple's (an Objective-C method) may.
    @discardableResult
    public class func insertNewObject(forEntityName entityName: String, into context: NSManagedObjectContext) -> NSManagedObject {
        guard let entity = entity(forEntityName: entityName, in: context) else {
            preconditionFailure("+entityForName: could not locate an entity named '\(entityName)' in the context's model")
        }
        return ManagedObjectClasses.objectClass(for: entity).init(entity: entity, insertInto: context)
    }

    /// The entity named `entityName` in the model of `context`'s coordinator.
    public class func entity(forEntityName entityName: String, in context: NSManagedObjectContext) -> NSEntityDescription? {
        context.withModel { $0.entity(named: entityName) } ?? nil
    }
}
