/// The keys of the dictionary a mapping's expressions are evaluated with:
/// `$manager`, `$source`, `$destination`, `$entityMapping`,
/// `$propertyMapping`, `$entityPolicy` (Apple's constants and values).
public let NSMigrationManagerKey = "manager"
/// The source instance (`$source`).
public let NSMigrationSourceObjectKey = "source"
/// The destination instance (`$destination`).
public let NSMigrationDestinationObjectKey = "destination"
/// The entity mapping being run (`$entityMapping`).
public let NSMigrationEntityMappingKey = "entityMapping"
/// The property mapping being evaluated (`$propertyMapping`).
public let NSMigrationPropertyMappingKey = "propertyMapping"
/// The entity migration policy running the mapping (`$entityPolicy`).
public let NSMigrationEntityPolicyKey = "entityPolicy"

/// How the instances of one entity mapping are migrated (Apple's
/// NSEntityMigrationPolicy). The migration manager calls, per entity
/// mapping and in Apple's three phases: `begin`, then
/// `createDestinationInstances` for each source instance and
/// `endInstanceCreation`; `createRelationships` for each destination
/// instance and `endRelationshipCreation`; `performCustomValidation`; `end`.
///
/// Subclass it and name the subclass in
/// ``NSEntityMapping/entityMigrationPolicyClassName`` ("MyApp.SplitPolicy"
/// or the bare class name, as for an entity's class). An error thrown by
/// any method stops the migration and is what `migrateStore` throws; the
/// destination is then not written.
open class NSEntityMigrationPolicy: NSObject, @unchecked Sendable {
    /// A policy; the manager makes one per entity mapping, with this initializer.
    public required override init() { super.init() }

    /// Called before the mapping's first instance is created. Does nothing here.
    open func begin(_ mapping: NSEntityMapping, with manager: NSMigrationManager) throws {}

    /// Creates the destination instance of `sInstance`: an object of the
    /// mapping's destination entity in the manager's destination context,
    /// each attribute mapping's `valueExpression` evaluated with `$source`
    /// (and the other keys above) and set, then associated with `sInstance`.
    /// A mapping without destination entity creates nothing. An expression
    /// that cannot be evaluated throws NSEntityMigrationPolicyError (134170)
    /// naming the mapping and property. One object and one evaluation per
    /// attribute mapping.
    open func createDestinationInstances(forSource sInstance: NSManagedObject, in mapping: NSEntityMapping,
                                         manager: NSMigrationManager) throws {
        guard let entity = manager.destinationEntity(for: mapping) else { return }
        let dInstance = NSManagedObject(entity: entity, insertInto: manager.destinationContext)
        for propertyMapping in mapping.attributeMappings ?? [] {
            guard let name = propertyMapping.name, let expression = propertyMapping.valueExpression else { continue }
            let value = try manager.evaluate(expression, source: sInstance, destination: dInstance,
                                             mapping: mapping, propertyMapping: propertyMapping, policy: self)
            dInstance.setValue(value, forKey: name)
        }
        manager.associate(sourceInstance: sInstance, withDestinationInstance: dInstance, for: mapping)
    }

    /// Called after the mapping's last instance was created. Does nothing here.
    open func endInstanceCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {}

    /// Sets the relationships of `dInstance`: each relationship mapping's
    /// `valueExpression`, evaluated with `$source` the instance `dInstance`
    /// was made from (typically `FUNCTION($manager,
    /// "destinationInstancesForEntityMappingNamed:sourceInstances:", "Name", $source.rel)`),
    /// becomes the relationship's value (an object, a set or an ordered set
    /// as the relationship is). When the inverse relationship is filled by
    /// another default-policy mapping, only one side is set and inverse
    /// maintenance sets the other (the side chosen keeps batches bounded).
    /// Same errors as instance creation.
    open func createRelationships(forDestination dInstance: NSManagedObject, in mapping: NSEntityMapping,
                                  manager: NSMigrationManager) throws {
        let entity = dInstance.entity
        guard let name = mapping.name,
              let sInstance = manager.sourceInstances(forEntityMappingName: name,
                                                      destinationInstances: [dInstance]).first else { return }
        for propertyMapping in mapping.relationshipMappings ?? [] {
            guard let key = propertyMapping.name, let expression = propertyMapping.valueExpression,
                  let relationship = entity.relationshipsByName[key],
                  !manager.relationshipsLeftToInverse.contains("\(name).\(key)") else { continue }
            let value = try manager.evaluate(expression, source: sInstance, destination: dInstance,
                                             mapping: mapping, propertyMapping: propertyMapping, policy: self)
            dInstance.setValue(MigrationValues.relationshipValue(value, for: relationship), forKey: key)
        }
    }

    /// Called after the mapping's relationships were set. Does nothing here.
    open func endRelationshipCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {}

    /// Called in the validation phase, before the destination instances are
    /// validated: the place for checks no model rule states. Does nothing here.
    open func performCustomValidation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {}

    /// Called once the mapping is done. Does nothing here.
    open func end(_ mapping: NSEntityMapping, manager: NSMigrationManager) throws {}
}
