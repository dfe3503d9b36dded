/// What an entity mapping does with the instances of its entity (Apple's
/// `NSEntityMappingType`, with Apple's raw values).
public enum NSEntityMappingType: UInt, Sendable {
    /// No type set yet.
    case undefinedEntityMappingType = 0
    /// Instances are made by a custom migration policy.
    case customEntityMappingType = 1
    /// A destination entity the source model does not have: nothing is copied.
    case addEntityMappingType = 2
    /// A source entity the destination model does not have: its instances go.
    case removeEntityMappingType = 3
    /// The entity is the same on both sides: instances are copied as they are.
    case copyEntityMappingType = 4
    /// The entity changed (renamed, properties added, removed or changed):
    /// instances are copied through the property mappings.
    case transformEntityMappingType = 5
}
