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
            // A to-one's counts are its arity (`maxCount` 1), not a rule: the
            // check of a to-one looks at optionality and predicates only.
            return relationship.isToMany && (relationship.minCount > 0 || relationship.maxCount > 0)
        default: return false
        }
    }

    /// Whether the property's one validation rule is that it holds a value:
    /// a required attribute without bounds, pattern or predicates, or a
    /// required to-one relationship without predicates. A save checks such a
    /// property of a plain object by looking at its slot.
    var onlyRequiresAValue: Bool {
        guard !isOptional, validationPredicateStorage.isEmpty else { return false }
        switch self {
        case let attribute as NSAttributeDescription:
            return !(attribute is NSDerivedAttributeDescription)
                && attribute.validationRules == AttributeValidationRules()
        case let relationship as NSRelationshipDescription: return !relationship.isToMany
        default: return false
        }
    }
}
