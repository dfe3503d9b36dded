// Derived attributes (NSDerivedAttributeDescription). Apple's documentation
// lists the expressions: "to-one keypath" (`name`, `author.name`), "to-one
// keypath with a function" (`canonical:(name)`, `uppercase:`, `lowercase:`),
// "to-many keypath with a function" (`friends.@count`, `@sum`) and `now()`.
// Core Data's SQLite store computes them when a save reaches the store; here
// the saving context does, before it validates and writes, so that the
// objects in memory hold the values too.

extension NSManagedObjectContext {
    /// Computes the derived attributes of the objects this save inserts or
    /// changes, and of the objects whose derivation reads, through a
    /// relationship, an object this save inserts, changes or deletes (the
    /// books of an author whose name changed, for `author.name`). A value
    /// that does not change is not written. Costs one expression evaluation
    /// per derived attribute of each such object.
    func updateDerivedAttributes() {
        guard let model = persistentStoreCoordinator?.managedObjectModel else { return }
        let plan = DerivedAttributePlan.of(model)
        guard !plan.isEmpty else { return }
        // Objects the save changes compute every derived attribute (now() too);
        // objects reached through a relationship, those that read through it.
        var targets = ManagedObjectSet(), reached: [ObjectIdentifier: [NSDerivedAttributeDescription]] = [:]
        let changed = inserted.objects + updated.objects
        for object in changed where plan.derives(object.entity) { targets.append(object) }
        for object in changed + deleted.objects {
            for (relationship, attributes) in plan.dependents(of: object.entity) {
                for dependent in object.destinations(of: relationship) where !dependent.isDeletedFlag {
                    guard !dependent.isInsertedFlag, !dependent.isUpdatedFlag else { continue }
                    if targets.append(dependent) { reached[ObjectIdentifier(dependent)] = [] }
                    reached[ObjectIdentifier(dependent)]! += attributes
                }
            }
        }
        for object in targets.objects {
            let only = reached[ObjectIdentifier(object)]
            for (attribute, expression) in plan.expressions(of: object.entity)
            where only.map({ $0.contains { $0 === attribute } }) ?? true {
                let value = ValueCoercion.coerce(expression.expressionValue(with: object, context: nil), for: attribute)
                let slot = object.values.layout.slot(of: attribute)
                guard !ValueEquality.equal(object.values.anyValue(at: slot), value) else { continue }
                object.storeChange(SlotValue(attribute: value), slot: slot)
            }
        }
    }
}

/// What a model's derived attributes need, worked out once per model: each
/// entity's derived attributes with their parsed expressions, and for each
/// entity the relationships that lead from its objects to objects whose
/// derivation reads them (the inverse of a derivation's first step).
final class DerivedAttributePlan: @unchecked Sendable {
    private var expressionsByEntity: [ObjectIdentifier: [(NSDerivedAttributeDescription, NSExpression)]] = [:]
    private var dependentsByEntity: [ObjectIdentifier: [(NSRelationshipDescription, [NSDerivedAttributeDescription])]]
        = [:]

    var isEmpty: Bool { expressionsByEntity.isEmpty }

    func derives(_ entity: NSEntityDescription) -> Bool { expressionsByEntity[ObjectIdentifier(entity)] != nil }

    func expressions(of entity: NSEntityDescription) -> [(NSDerivedAttributeDescription, NSExpression)] {
        expressionsByEntity[ObjectIdentifier(entity)] ?? []
    }

    /// The relationships from `entity`'s objects to objects whose derived
    /// attributes (listed with each) read them.
    func dependents(of entity: NSEntityDescription) -> [(NSRelationshipDescription, [NSDerivedAttributeDescription])] {
        dependentsByEntity[ObjectIdentifier(entity)] ?? []
    }

    private init(_ model: NSManagedObjectModel) {
        for entity in model.entities {
            let derived = entity.derivedAttributes.compactMap { attribute in
                attribute.derivationExpression.map { (attribute, $0) }
            }
            guard !derived.isEmpty else { continue }
            expressionsByEntity[ObjectIdentifier(entity)] = derived
            for (attribute, expression) in derived {
                for relationship in Self.firstSteps(of: expression, in: entity) {
                    guard let inverse = relationship.inverseRelationship, let source = inverse.entity else { continue }
                    for entity in [source] + Self.allSubentities(of: source) {
                        dependentsByEntity[ObjectIdentifier(entity), default: []].append((inverse, [attribute]))
                    }
                }
            }
        }
    }

    /// The relationships of `entity` that the key paths of `expression` start with.
    private static func firstSteps(of expression: NSExpression, in entity: NSEntityDescription)
        -> [NSRelationshipDescription] {
        var steps: [NSRelationshipDescription] = []
        ExpressionWalk.walk(expression) { expression, _ in
            if case .keyPath(let operand, let path) = expression.kind, case .evaluatedObject = operand.kind,
               let first = path.split(separator: ".").first,
               let relationship = entity.relationshipsByName[String(first)],
               !steps.contains(where: { $0 === relationship }) {
                steps.append(relationship)
            }
            return true
        }
        return steps
    }

    private static func allSubentities(of entity: NSEntityDescription) -> [NSEntityDescription] {
        entity.subentities.flatMap { [$0] + allSubentities(of: $0) }
    }

    /// A plan and, weakly, the model it is for: a model's address may be
    /// reused once it is gone.
    private struct Entry {
        weak var model: NSManagedObjectModel?
        let plan: DerivedAttributePlan
    }

    private static let plans = Locked<[ObjectIdentifier: Entry]>([:])

    /// The plan of `model`, made at its first save while the model lives.
    static func of(_ model: NSManagedObjectModel) -> DerivedAttributePlan {
        plans.withLock { plans in
            if let entry = plans[ObjectIdentifier(model)], entry.model === model { return entry.plan }
            plans = plans.filter { $0.value.model != nil }
            let plan = DerivedAttributePlan(model)
            plans[ObjectIdentifier(model)] = Entry(model: model, plan: plan)
            return plan
        }
    }
}
