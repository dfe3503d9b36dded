// Which properties a save must validate: a model question (the rules live in
// the model), asked once per entity when the model is frozen.

extension NSPropertyDescription {
    /// Whether some value of the property can fail the model's validation:
    /// it is required, or has bounds, a pattern, count limits or validation
    /// predicates. Fetched properties are never validated.
    var hasValidationRules: Bool {
        switch self {
        case is NSFetchedPropertyDescription: return false
        case _ where !isOptional || !validationPredicateStorage.isEmpty: return true
        case let attribute as NSAttributeDescription: return attribute.validationRules != AttributeValidationRules()
        case let relationship as NSRelationshipDescription:
            return relationship.minCount > 0 || relationship.maxCount > 0
        default: return false
        }
    }
}
