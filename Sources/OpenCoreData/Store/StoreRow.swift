/// Stored records seen through key-value coding, for what is computed from
/// saved data outside a store's own query language: the parts of a fetch
/// SQL cannot express, and dictionary results. Fetch evaluation and key
/// paths read them as they read objects.
///
/// The candidates' snapshots are loaded in one batch per store; records
/// reached through relationships are loaded on first use, one read each, and
/// kept for the loader's lifetime. Use it under the coordinator's store lock.
final class StoreRowLoader {
    private var snapshots: [ObjectKey: StoreSnapshot] = [:]
    private var loaded: Set<ObjectKey> = []

    /// Rows for `ids`, with their snapshots loaded in one batch per store.
    func rows(_ ids: [NSManagedObjectID]) throws -> [StoreRow] {
        for group in Dictionary(grouping: ids, by: { $0.persistentStore.map(ObjectIdentifier.init) }).values {
            guard let store = group[0].persistentStore else { continue }
            snapshots.merge(try store.completeSnapshots(for: group)) { a, _ in a }
            loaded.formUnion(group.lazy.map(ObjectKey.init))
        }
        return ids.map { StoreRow(loader: self, id: $0) }
    }

    func snapshot(_ id: NSManagedObjectID) -> StoreSnapshot? {
        if let known = snapshots[id] { return known }
        guard loaded.insert(ObjectKey(id)).inserted else { return nil }
        // A read failing mid-evaluation reads as a missing record, as a dangling reference does.
        let found = (try? id.persistentStore?.completeSnapshots(for: [id]))?[id]
        snapshots[id] = found
        return found
    }
}

/// One stored record as a fetch candidate. It equals its object ID and the
/// managed object of that ID, so predicates with object constants
/// (`team == %@`) read records as they read objects.
final class StoreRow: NSObject, FetchCandidate {
    let loader: StoreRowLoader
    let id: NSManagedObjectID

    init(loader: StoreRowLoader, id: NSManagedObjectID) {
        self.loader = loader
        self.id = id
    }

    var candidateEntity: NSEntityDescription { id.entity }

    override func isEqual(_ object: Any?) -> Bool {
        switch object {
        case let row as StoreRow: row.id == id
        case let other as NSManagedObjectID: other == id
        case let managed as NSManagedObject: managed.objectID == id
        default: false
        }
    }

    override var hash: Int { id.hash }

    func value(forKey key: String) -> Any? {
        guard let snapshot = loader.snapshot(id) else { return nil }
        guard let property = id.entity.propertiesByName[key] else {
            preconditionFailure("Entity \(id.entity.name ?? "") has no property named '\(key)'")
        }
        let value = snapshot[key]
        guard let relationship = property as? NSRelationshipDescription else { return value }
        if relationship.isToMany { return (value as? [NSManagedObjectID] ?? []).compactMap(row) }
        return (value as? NSManagedObjectID).flatMap(row)
    }

    private func row(_ id: NSManagedObjectID) -> StoreRow? {
        loader.snapshot(id) == nil ? nil : StoreRow(loader: loader, id: id)
    }
}

extension StoreRowLoader {
    /// `predicate` with every managed object or object ID among its constants
    /// replaced by the row of that ID, so that comparisons in either direction
    /// (`team == %@`, `%@ IN tags`) compare rows with rows. One copy of the tree.
    func rowsForObjectConstants(in predicate: NSPredicate) -> NSPredicate {
        switch predicate {
        case let c as NSComparisonPredicate where c.customSelector == nil:
            return NSComparisonPredicate(leftExpression: expression(c.leftExpression), rightExpression: expression(c.rightExpression),
                                         modifier: c.comparisonPredicateModifier, type: c.predicateOperatorType, options: c.options)
        case let c as NSCompoundPredicate:
            return NSCompoundPredicate(type: c.compoundPredicateType, subpredicates: c.predicates.map(rowsForObjectConstants))
        default:
            return predicate
        }
    }

    private func expression(_ expression: NSExpression) -> NSExpression {
        switch expression.kind {
        case .constant(let value): return NSExpression(forConstantValue: constant(value))
        case .aggregate(let items): return NSExpression(forAggregate: items.map(self.expression))
        case .keyPath(let operand, let path): return NSExpression(kind: .keyPath(self.expression(operand), path))
        case .subquery(let collection, let variable, let predicate):
            return NSExpression(kind: .subquery(self.expression(collection), variable: variable, rowsForObjectConstants(in: predicate)))
        default: return expression
        }
    }

    private func constant(_ value: Any?) -> Any? {
        switch value {
        case let id as NSManagedObjectID: return StoreRow(loader: self, id: id)
        case let object as NSManagedObject: return StoreRow(loader: self, id: object.objectID)
        case let array as [Any]: return array.map(constant)
        case let set as Set<AnyHashable>: return set.map(constant)
        case let set as NSSet: return set.allObjects.map(constant)
        case let ordered as NSOrderedSet: return ordered.array.map(constant)
        default: return value
        }
    }
}
