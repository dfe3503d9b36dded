/// The in-memory store (`NSInMemoryStoreType`): committed records in
/// dictionaries, gone when the store is removed.
///
/// It holds only what saves committed, so a failed save changes nothing and
/// contexts can refetch or roll back to it. Reads cost a dictionary lookup per
/// record; a fetch visits every record of the fetched entities.
final class InMemoryStore: NSPersistentStore, @unchecked Sendable {
    override var type: String { NSInMemoryStoreType }

    /// Records by entity name, then primary key.
    private var records: [String: [Int64: StoreSnapshot]] = [:]
    /// The last primary key handed out, per entity (Core Data numbers each entity's rows).
    private var lastPrimaryKeys: [String: Int64] = [:]

    override func newPrimaryKeys(for entity: NSEntityDescription, count: Int) throws -> [Int64] {
        let name = entity.name ?? ""
        let last = lastPrimaryKeys[name, default: 0]
        lastPrimaryKeys[name] = last + Int64(count)
        return (0..<Int64(count)).map { last + 1 + $0 }
    }

    override func snapshots(for ids: [NSManagedObjectID]) throws -> [ObjectKey: StoreSnapshot] {
        var found: [ObjectKey: StoreSnapshot] = [:]
        for id in ids {
            if let snapshot = record(for: id) { found[id] = snapshot }
        }
        return found
    }

    override func execute(_ fetch: StoreFetch) throws -> StoreFetchResult {
        let entities = fetch.request.includesSubentities ? Self.tree(of: fetch.entity) : [fetch.entity]
        let candidates = entities.flatMap { entity in
            (records[entity.name ?? ""] ?? [:]).keys.sorted().map { InMemoryRow(store: self, pk: $0, entity: entity) }
        }
        return StoreFetchResult(ids: StoreObjectIDs(try FetchEvaluation.filterAndSort(candidates, request: fetch.request, appliesWindow: fetch.appliesWindow)
            .map { objectID(for: $0.entity, primaryKey: $0.pk) }))
    }

    override func save(_ changes: StoreChangeSet) throws {
        if isReadOnly {
            throw NSError.coreData(NSPersistentStoreSaveError, "The store at \(url?.path ?? "") is read-only.")
        }
        var stale: [StoreVersionConflict.Record] = []
        for (id, version) in changes.expectedVersions {
            let current = id.primaryKey.flatMap { records[id.entity.name ?? ""]?[$0] }
            if current?.version != version { stale.append(.init(objectID: id, persisted: current)) }
        }
        if !stale.isEmpty { throw StoreVersionConflict(records: stale) }
        // Work on a copy and swap it in at the end: whatever fails leaves the store as it was.
        var next = records
        for id in changes.deleted {
            guard let pk = id.primaryKey else { continue }
            next[id.entity.name ?? ""]?[pk] = nil
        }
        for snapshot in changes.updated {
            let name = snapshot.objectID.entity.name ?? ""
            guard let pk = snapshot.objectID.primaryKey, let old = next[name]?[pk] else {
                throw NSError.coreData(NSManagedObjectReferentialIntegrityError,
                                       "The record of \(snapshot.objectID) is no longer in the store.")
            }
            var new = snapshot
            new.version = old.version + 1
            next[name]![pk] = new
        }
        for snapshot in changes.inserted {
            guard let pk = snapshot.objectID.primaryKey else {
                preconditionFailure("Saving \(snapshot.objectID) with a temporary ID")
            }
            var new = snapshot
            new.version = 1
            next[snapshot.objectID.entity.name ?? "", default: [:]][pk] = new
        }
        try Self.refuseDuplicates(changes.inserted + changes.updated, in: next)
        records = next
    }

    /// Throws when a saved record shares a uniqueness constraint's values with another record, as SQLite's unique
    /// indexes do. Costs a pass over the records of each constrained entity the save writes.
    private static func refuseDuplicates(_ saved: [StoreSnapshot],
                                         in records: [String: [Int64: StoreSnapshot]]) throws {
        var keys: [UniquenessConstraint: Set<[AnyHashable]>] = [:]
        for snapshot in saved {
            for constraint in UniquenessConstraint.all(for: snapshot.objectID.entity) {
                guard let key = UniquenessConstraint.key(constraint.names.map { snapshot[$0] }) else { continue }
                keys[constraint, default: []].insert(key)
            }
        }
        for (constraint, saving) in keys {
            var seen = Set<[AnyHashable]>()
            for entity in tree(of: constraint.scope) {
                for record in (records[entity.name ?? ""] ?? [:]).values {
                    guard let key = UniquenessConstraint.key(constraint.names.map { record[$0] }),
                          saving.contains(key) else { continue }
                    guard seen.insert(key).inserted else {
                        let names = constraint.names.joined(separator: ", ")
                        throw StoreConstraintViolation(message: "The in-memory store already holds a "
                            + "\(constraint.scope.name ?? "") with the same \(names).")
                    }
                }
            }
        }
    }

    func record(for id: NSManagedObjectID) -> StoreSnapshot? {
        guard let pk = id.primaryKey, id.storeIdentifier == identifier else { return nil }
        return records[id.entity.name ?? ""]?[pk]
    }

    private static func tree(of entity: NSEntityDescription) -> [NSEntityDescription] {
        [entity] + entity.subentities.flatMap(tree(of:))
    }
}

/// A committed record seen through key-value coding, so that fetch
/// evaluation (predicates, key-path sorts) reads it as it reads objects.
struct InMemoryRow: FetchCandidate, PredicateRecordIdentity {
    let store: InMemoryStore
    let pk: Int64
    let entity: NSEntityDescription

    var candidateEntity: NSEntityDescription { entity }
    var predicateRecordIdentity: AnyHashable { store.objectID(for: entity, primaryKey: pk) }

    func value(forKey key: String) -> Any? {
        let id = store.objectID(for: entity, primaryKey: pk)
        guard let snapshot = store.record(for: id) else { return nil }
        guard let property = entity.propertiesByName[key] else {
            preconditionFailure("Entity \(entity.name ?? "") has no property named '\(key)'")
        }
        let value = snapshot[key]
        guard let relationship = property as? NSRelationshipDescription else { return value }
        if relationship.isToMany { return (value as? [NSManagedObjectID] ?? []).compactMap(row(for:)) }
        return (value as? NSManagedObjectID).flatMap(row(for:))
    }

    private func row(for id: NSManagedObjectID) -> InMemoryRow? {
        guard let pk = id.primaryKey, store.record(for: id) != nil else { return nil }
        return InMemoryRow(store: store, pk: pk, entity: id.entity)
    }
}
