/// A uniqueness-constraint violation found by a save (Apple's NSConstraintConflict): objects that share the values
/// of one of their entity's uniqueness constraints.
///
/// Two situations, as on Apple: a *context-level* conflict is between objects of the saving context only (no
/// `databaseObject`; two or more `conflictingObjects`); a *database-level* conflict is between one object of the
/// context and a record already in the store (`databaseObject` is the context's object for that record, with
/// `databaseSnapshot` its stored values; one conflicting object). Snapshots hold attribute values and to-one
/// destinations as object IDs, never to-many relationships.
open class NSConstraintConflict: NSObject, @unchecked Sendable {
    /// The names of the properties of the violated constraint.
    public let constraint: [String]
    /// The values the conflicting objects share, by property name.
    public let constraintValues: [String: Any]
    /// The context's object for the stored record that already has the values; nil for a context-level conflict.
    public let databaseObject: NSManagedObject?
    /// The stored values of `databaseObject`'s record.
    public let databaseSnapshot: [String: Any]?
    /// The context's objects that violate the constraint.
    public let conflictingObjects: [NSManagedObject]
    /// The last saved values of each conflicting object, by position (empty for an object never saved).
    public let conflictingSnapshots: [[AnyHashable: Any]]

    /// A conflict as given (Apple's initializer, for tests and custom policies). The constraint values are read
    /// from the first conflicting object.
    public init(constraint: [String], database databaseObject: NSManagedObject?,
                databaseSnapshot: [AnyHashable: Any]?, conflicting conflictingObjects: [NSManagedObject],
                conflictingSnapshots: [Any]) {
        self.constraint = constraint
        self.databaseObject = databaseObject
        self.databaseSnapshot = databaseSnapshot.map { snapshot in
            Dictionary(snapshot.compactMap { key, value in (key.base as? String).map { ($0, value) } },
                       uniquingKeysWith: { first, _ in first })
        }
        self.conflictingObjects = conflictingObjects
        self.conflictingSnapshots = conflictingSnapshots.map { $0 as? [AnyHashable: Any] ?? [:] }
        var values: [String: Any] = [:]
        if let first = conflictingObjects.first {
            for name in constraint { values[name] = first.value(forKey: name) }
        }
        constraintValues = values
    }

    /// A conflict found by a save: `objects` share `values` of `constraint`; `database` is the stored record's
    /// object and values for a database-level conflict.
    init(constraint: [String], values: [String: Any], database: (NSManagedObject, StoreSnapshot)?,
         objects: [NSManagedObject]) {
        self.constraint = constraint
        constraintValues = values
        databaseObject = database?.0
        databaseSnapshot = database.map { NSMergeConflict.values($0.1) }
        conflictingObjects = objects
        conflictingSnapshots = objects.map { object in
            object.committed.map { NSMergeConflict.values($0) as [AnyHashable: Any] } ?? [:]
        }
    }

    /// The constraint, the stored object's ID and the conflicting objects' IDs, in the shape of Apple's
    /// description.
    open override var description: String {
        let database = databaseObject.map { "\($0.objectID)" } ?? "(null)"
        return "NSConstraintConflict for constraint \(constraint): database: \(database), "
            + "conflictedObjects: \(conflictingObjects.map(\.objectID))"
    }
}
