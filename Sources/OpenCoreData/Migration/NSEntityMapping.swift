/// How the instances of one source entity become instances of one
/// destination entity in a migration (Apple's NSEntityMapping).
///
/// An inferred mapping (``NSMappingModel/inferredMappingModel(forSourceModel:destinationModel:)``)
/// fills the entity names, their version hashes, the mapping type and one
/// property mapping per stored destination property.
open class NSEntityMapping: NSObject, @unchecked Sendable {
    /// The mapping's name, unique in its mapping model (`IEM_<Type>_<Entity>` when inferred).
    open var name: String!
    /// Add, remove, copy, transform or custom.
    open var mappingType: NSEntityMappingType = .undefinedEntityMappingType
    /// The source entity's name; nil for an added entity.
    open var sourceEntityName: String?
    /// The source entity's version hash, checked against the source model.
    open var sourceEntityVersionHash: Data?
    /// The destination entity's name; nil for a removed entity.
    open var destinationEntityName: String?
    /// The destination entity's version hash.
    open var destinationEntityVersionHash: Data?
    /// One mapping per destination attribute.
    open var attributeMappings: [NSPropertyMapping]?
    /// One mapping per destination relationship.
    open var relationshipMappings: [NSPropertyMapping]?
    /// The expression giving the source instances to migrate; nil for all of them.
    open var sourceExpression: NSExpression?
    /// Application data kept with the mapping.
    open var userInfo: [AnyHashable: Any]?
    /// The `NSEntityMigrationPolicy` subclass that migrates the instances; nil for the default policy.
    open var entityMigrationPolicyClassName: String?

    /// An empty entity mapping.
    public override init() { super.init() }

    /// The mapping's name, type and entities, for logs.
    open override var description: String {
        "<NSEntityMapping \(name ?? "nil") \(mappingType) \(sourceEntityName ?? "nil") -> "
            + "\(destinationEntityName ?? "nil")>"
    }
}
