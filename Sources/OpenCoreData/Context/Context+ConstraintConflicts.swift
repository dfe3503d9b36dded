import Foundation

// Finding uniqueness-constraint conflicts before a save writes: among the objects the save writes (context-level),
// then between each of them and the records already stored (database-level), as Core Data reports them to the
// merge policy. Only objects of entities with constraints cost anything: one store read per constraint and up to
// `lookupBatch` objects.

extension NSManagedObjectContext {
    /// Objects and their constraint values looked up in the store per query.
    private static let lookupBatch = 200

    /// The conflicts of the objects this save writes, context-level ones first. A group of objects that conflict
    /// among themselves is checked against the store only once the policy left one of them (the next round).
    func constraintConflicts() throws -> [NSConstraintConflict] {
        guard let model = persistentStoreCoordinator?.managedObjectModel,
              model.entities.contains(where: { !$0.uniquenessConstraintNames.isEmpty }) else { return [] }
        var groups = ConstraintGroups()
        var constraintsByEntity: [ObjectIdentifier: [UniquenessConstraint]] = [:]
        for object in inserted.objects + updated.objects where !object.isDeletedFlag {
            let constraints = constraintsByEntity[ObjectIdentifier(object.entity)] ?? {
                let found = UniquenessConstraint.all(for: object.entity)
                constraintsByEntity[ObjectIdentifier(object.entity)] = found
                return found
            }()
            for constraint in constraints where object.isInsertedFlag || Self.changes(object, constraint) {
                guard let key = UniquenessConstraint.key(constraint.names.map { Self.storedValue(object, $0) }) else {
                    continue
                }
                groups.add(object, key: key, constraint: constraint)
            }
        }
        guard !groups.isEmpty else { return [] }
        var conflicts: [NSConstraintConflict] = []
        var single: [UniquenessConstraint: [(key: [AnyHashable], object: NSManagedObject)]] = [:]
        for (constraint, key, objects) in groups.all {
            if objects.count > 1 {
                conflicts.append(NSConstraintConflict(constraint: constraint.names,
                                                      values: Self.values(of: objects[0], constraint),
                                                      database: nil, objects: objects))
            } else {
                single[constraint, default: []].append((key, objects[0]))
            }
        }
        for (constraint, candidates) in single.sorted(by: { $0.key.names.lexicographicallyPrecedes($1.key.names) }) {
            for start in stride(from: 0, to: candidates.count, by: Self.lookupBatch) {
                let batch = candidates[start..<min(start + Self.lookupBatch, candidates.count)]
                conflicts += try storedConflicts(with: Array(batch), constraint)
            }
        }
        return conflicts
    }

    /// The value of `name` as the store holds it: a to-one destination by its object ID.
    private static func storedValue(_ object: NSManagedObject, _ name: String) -> Any? {
        let value = object.value(forKey: name)
        return (value as? NSManagedObject)?.objectID ?? value
    }

    /// Whether the save writes a changed value of a property of `constraint` for the updated `object`.
    private static func changes(_ object: NSManagedObject, _ constraint: UniquenessConstraint) -> Bool {
        constraint.names.contains { name in
            object.values.layout.slotsByName[name].map(object.values.changed.contains) ?? false
        }
    }

    private static func values(of object: NSManagedObject, _ constraint: UniquenessConstraint) -> [String: Any] {
        var values: [String: Any] = [:]
        for name in constraint.names { values[name] = object.value(forKey: name) }
        return values
    }

    /// The database-level conflicts of `candidates` (each alone with its key in the save): the stored records of
    /// the constraint's entity with the same values, unless the record is one the save deletes or changes to
    /// other values.
    private func storedConflicts(with candidates: [(key: [AnyHashable], object: NSManagedObject)],
                                 _ constraint: UniquenessConstraint) throws -> [NSConstraintConflict] {
        // A key naming an object the store has never seen cannot be stored.
        let askable = candidates.filter { candidate in
            !candidate.key.contains { ($0.base as? NSManagedObjectID)?.isTemporaryID == true }
        }
        guard !askable.isEmpty else { return [] }
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: constraint.scope.name ?? "")
        request.entity = constraint.scope
        request.includesPendingChanges = false
        request.predicate = Self.predicate(matching: askable.map(\.object), constraint)
        let selection = try select(request, entity: constraint.scope, from: stores(for: constraint.scope, request),
                                   appliesWindow: true)
        guard !selection.ids.isEmpty else { return [] }
        let ids = Array(selection.ids)
        let rows = selection.rows.isEmpty ? Array(readRows(ids).values) : selection.rows
        let candidateByKey = Dictionary(askable.map { ($0.key, $0.object) }, uniquingKeysWith: { first, _ in first })
        var conflicts: [NSConstraintConflict] = []
        for row in rows {
            let record = row.snapshot
            guard let key = UniquenessConstraint.key(constraint.names.map { record[$0] }),
                  let object = candidateByKey[key], object.objectID != record.objectID else { continue }
            let stored = registered[record.objectID]
            if let stored, stored.isDeletedFlag || Self.changes(stored, constraint) { continue }
            let databaseObject = stored ?? self.object(with: record.objectID)
            conflicts.append(NSConstraintConflict(constraint: constraint.names,
                                                  values: Self.values(of: object, constraint),
                                                  database: (databaseObject, record), objects: [object]))
        }
        return conflicts
    }

    /// A predicate selecting the records whose constraint values are those of one of `objects`.
    private static func predicate(matching objects: [NSManagedObject], _ constraint: UniquenessConstraint)
        -> NSPredicate {
        func equal(_ name: String, _ value: Any?) -> NSPredicate {
            NSComparisonPredicate(leftExpression: NSExpression(forKeyPath: name),
                                  rightExpression: NSExpression(forConstantValue: value),
                                  modifier: .direct, type: .equalTo, options: [])
        }
        if constraint.names.count == 1, let name = constraint.names.first {
            return NSComparisonPredicate(leftExpression: NSExpression(forKeyPath: name),
                                         rightExpression: NSExpression(forConstantValue: objects.map {
                                             $0.value(forKey: name) as Any
                                         }),
                                         modifier: .direct, type: .in, options: [])
        }
        return NSCompoundPredicate(orPredicateWithSubpredicates: objects.map { object in
            NSCompoundPredicate(andPredicateWithSubpredicates: constraint.names.map { name in
                equal(name, object.value(forKey: name))
            })
        })
    }
}

/// The objects a save writes grouped by constraint and shared values, in the order they were first seen.
private struct ConstraintGroups {
    private var order: [(UniquenessConstraint, [AnyHashable])] = []
    private var members: [UniquenessConstraint: [[AnyHashable]: [NSManagedObject]]] = [:]

    var isEmpty: Bool { order.isEmpty }

    mutating func add(_ object: NSManagedObject, key: [AnyHashable], constraint: UniquenessConstraint) {
        if members[constraint]?[key] == nil { order.append((constraint, key)) }
        members[constraint, default: [:]][key, default: []].append(object)
    }

    var all: [(UniquenessConstraint, [AnyHashable], [NSManagedObject])] {
        order.map { constraint, key in (constraint, key, members[constraint]![key]!) }
    }
}
