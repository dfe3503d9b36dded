/// What a store needs to run an `NSBatchUpdateRequest`: which records
/// (entity, predicate) and their new attribute values, checked and coerced
/// by the context beforehand.
public struct StoreBatchUpdate: @unchecked Sendable {
    /// Who writes (the context's `transactionAuthor` and `name`), for persistent history.
    var author: String?, contextName: String?
    /// A new value: a constant of the attribute's type (nil clears it), or an
    /// expression evaluated on each record (its key paths read the record).
    enum Value {
        case constant(Any?)
        case expression(NSExpression)
    }

    var entity: NSEntityDescription
    var predicate: NSPredicate?
    var includesSubentities: Bool
    var values: [(attribute: NSAttributeDescription, value: Value)]
    /// Whether the result must list the updated records' IDs; a store may
    /// leave them out otherwise and report only how many it updated.
    var wantsIDs = true

    /// The selection as a fetch request, for the stores' fetch machinery.
    var fetchRequest: NSFetchRequest<NSFetchRequestResult> {
        let request = NSFetchRequest<NSFetchRequestResult>()
        request.entity = entity
        request.predicate = predicate
        request.includesSubentities = includesSubentities
        request.includesPropertyValues = false
        return request
    }

    /// Whether every value is a constant, so the update is one SQL statement.
    var isConstant: Bool {
        values.allSatisfy { if case .constant = $0.value { true } else { false } }
    }

    /// `snapshot` with the new values; expressions read the record through
    /// `row`. Throws (see `checked`) for an expression whose result does not
    /// fit the attribute's type.
    func updated(_ snapshot: StoreSnapshot, row: StoreRow) throws -> StoreSnapshot {
        var updated = snapshot
        for (attribute, value) in values {
            switch value {
            case .constant(let constant):
                updated[updated.layout.slot(of: attribute)] = SlotValue(attribute: constant)
            case .expression(let expression):
                updated[updated.layout.slot(of: attribute)] = SlotValue(attribute: try Self.checked(
                    expression.expressionValue(with: row, context: nil), for: attribute))
            }
        }
        return updated
    }

    /// `value` as a value of `attribute`'s type; otherwise throws
    /// NSManagedObjectValidationError (1550) naming both, where a context's
    /// setter would stop the program (a batch request is data, not code).
    static func checked(_ value: Any?, for attribute: NSAttributeDescription) throws -> Any? {
        guard let value = ValueCoercion.unwrapped(value), !(value is NSNull) else { return nil }
        guard let converted = ValueCoercion.converted(value, for: attribute) else {
            throw NSError.coreData(NSManagedObjectValidationError,
                                   "A batch update can't set \(attribute.entity?.name ?? "").\(attribute.name) to \(value) (\(type(of: value))).",
                                   userInfo: [NSValidationKeyErrorKey: attribute.name, NSValidationValueErrorKey: value])
        }
        return converted
    }
}

/// What a store's batch update did: how many records it updated and their
/// IDs, when the update asked for them (``StoreBatchUpdate/wantsIDs``) or
/// the store had them anyway.
struct StoreBatchUpdateResult {
    var count: Int
    var ids: [NSManagedObjectID]?
}
