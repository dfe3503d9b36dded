/// The predicate-typed parts of model descriptions, which the model layer
/// stores untyped because it sits below the predicate layer.
extension NSPropertyDescription {
    /// Predicates a value of the property must satisfy (evaluated with the
    /// value as SELF) before an object is saved.
    public var validationPredicates: [NSPredicate] {
        validationPredicateStorage.compactMap { $0 as? NSPredicate }
    }

    /// Sets the validation predicates and the warning (error message) for
    /// each, index by index.
    public func setValidationPredicates(_ predicates: [NSPredicate]?, withValidationWarnings warnings: [String]?) {
        ensureEditable("validation predicates of \(name)")
        validationPredicateStorage = predicates ?? []
        validationWarnings = warnings ?? []
    }

    /// The first validation predicate `value` fails, with its warning; nil
    /// when it passes them all. A predicate that can't be evaluated counts as
    /// failed, since the value could not be shown to be valid.
    func firstFailedValidationPredicate(for value: Any?) -> (predicate: NSPredicate, warning: String)? {
        for (index, predicate) in validationPredicates.enumerated() {
            let passed = (try? predicate.evaluateThrowing(with: value)) ?? false
            if !passed {
                let warning = index < validationWarnings.count ? "\(validationWarnings[index])" : "\(name) fails \(predicate.predicateFormat)"
                return (predicate, warning)
            }
        }
        return nil
    }
}

extension NSDerivedAttributeDescription {
    /// The expression Core Data evaluates at save to compute the value
    /// (e.g. `chapters.@count`, `now()`); nil when unset or when the stored
    /// text does not parse.
    public var derivationExpression: NSExpression? {
        get { derivationExpressionFormat.flatMap { try? NSExpression.parse($0) } }
        set { derivationExpressionFormat = newValue?.description }
    }
}
