/// How to migrate a store from one managed object model to another (Apple's
/// NSMappingModel): one entity mapping per entity added, removed, copied or
/// transformed.
///
/// Built in code, inferred, or read from Xcode's `.xcmappingmodel`
/// (``init(contentsOf:)``, ``init(from:forSourceModel:destinationModel:)``).
open class NSMappingModel: NSObject, @unchecked Sendable {
    /// The entity mappings, in destination-then-removed order for an inferred model.
    open var entityMappings: [NSEntityMapping]! = []

    /// The entity mappings by name.
    open var entityMappingsByName: [String: NSEntityMapping] {
        Dictionary((entityMappings ?? []).compactMap { m in m.name.map { ($0, m) } }, uniquingKeysWith: { a, _ in a })
    }

    /// True for a mapping Core Data inferred, which an SQLite store can
    /// run in place in SQL.
    var isInferred = false

    /// An empty mapping model.
    public override init() { super.init() }

    /// The mapping Core Data infers from the differences between two models
    /// (lightweight migration). It exists only when every change is one Apple
    /// documents as inferable: entities, attributes and relationships added
    /// or removed; renamed through `renamingIdentifier`; attributes made
    /// optional or non-optional; to-one relationships made to-many; to-many
    /// relationships made ordered or unordered; entities given a new parent,
    /// moved out of a hierarchy and properties moved up or down one.
    /// Otherwise it throws NSInferredMappingModelError (134190) naming the
    /// entity and property that cannot be inferred: an attribute's type
    /// changed (other than between numeric types, which apps ship as
    /// lightweight migrations), an attribute became a relationship, a to-many became a to-one,
    /// a relationship points at another entity, two hierarchies merged.
    /// Linear in the number of properties of both models.
    open class func inferredMappingModel(forSourceModel sourceModel: NSManagedObjectModel,
                                         destinationModel: NSManagedObjectModel) throws -> NSMappingModel {
        let mapping = try MappingInference(source: sourceModel, destination: destinationModel).mappingModel()
        mapping.isInferred = true
        return mapping
    }
}
