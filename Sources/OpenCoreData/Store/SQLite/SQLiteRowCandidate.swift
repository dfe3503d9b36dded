/// Stored rows seen through key-value coding, for the parts of a fetch that
/// SQL cannot express: fetch evaluation reads them as it reads objects.
///
/// The candidates' snapshots are loaded in one batch; rows reached through
/// relationships are loaded on first use, one read each, and kept for the
/// rest of the fetch.
final class SQLiteRowLoader {
    private let store: SQLiteStore
    private var snapshots: [NSManagedObjectID: StoreSnapshot] = [:]

    init(store: SQLiteStore) { self.store = store }

    /// Rows for `ids`, with their snapshots loaded in one batch.
    func rows(_ ids: [NSManagedObjectID]) throws -> [SQLiteRow] {
        snapshots.merge(try store.snapshots(for: ids)) { a, _ in a }
        return ids.map { SQLiteRow(loader: self, id: $0) }
    }

    func snapshot(_ id: NSManagedObjectID) -> StoreSnapshot? {
        if let known = snapshots[id] { return known }
        // A read failing mid-evaluation reads as a missing row, as a dangling reference does.
        let loaded = (try? store.snapshots(for: [id]))?[id]
        snapshots[id] = loaded
        return loaded
    }
}

/// One stored row as a fetch candidate. It equals its object ID and the
/// managed object of that ID, so predicates with object constants
/// (`team == %@`) read rows as they read objects.
final class SQLiteRow: NSObject, FetchCandidate {
    let loader: SQLiteRowLoader
    let id: NSManagedObjectID

    init(loader: SQLiteRowLoader, id: NSManagedObjectID) {
        self.loader = loader
        self.id = id
    }

    var candidateEntity: NSEntityDescription { id.entity }

    override func isEqual(_ object: Any?) -> Bool {
        switch object {
        case let row as SQLiteRow: row.id == id
        case let other as NSManagedObjectID: other == id
        case let managed as NSManagedObject: managed.objectID == id
        default: false
        }
    }

    override var hash: Int { id.hash }

    func value(forKey key: String) -> Any? {
        guard let snapshot = loader.snapshot(id) else { return nil }
        if let value = snapshot.attributes[key] { return value }
        if let destination = snapshot.toOne[key] { return row(destination) }
        if let destinations = snapshot.toMany[key] { return destinations.compactMap(row) }
        guard let property = id.entity.propertiesByName[key] else {
            preconditionFailure("Entity \(id.entity.name ?? "") has no property named '\(key)'")
        }
        return (property as? NSRelationshipDescription)?.isToMany == true ? [SQLiteRow]() : nil
    }

    private func row(_ id: NSManagedObjectID) -> SQLiteRow? {
        loader.snapshot(id) == nil ? nil : SQLiteRow(loader: loader, id: id)
    }
}

extension SQLiteRowLoader {
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
        case let id as NSManagedObjectID: return SQLiteRow(loader: self, id: id)
        case let object as NSManagedObject: return SQLiteRow(loader: self, id: object.objectID)
        case let array as [Any]: return array.map(constant)
        case let set as Set<AnyHashable>: return set.map(constant)
        case let set as NSSet: return set.allObjects.map(constant)
        case let ordered as NSOrderedSet: return ordered.array.map(constant)
        default: return value
        }
    }
}
