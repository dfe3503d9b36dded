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

/// One stored row as a fetch candidate.
struct SQLiteRow: FetchCandidate {
    let loader: SQLiteRowLoader
    let id: NSManagedObjectID

    var candidateEntity: NSEntityDescription { id.entity }

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
