// Executing persistent-history requests: each store keeping history reads or
// deletes its transactions; a fetch request's predicate then narrows them.

extension NSManagedObjectContext {
    /// Runs `request` against the stores of `affectedStores` (all for nil)
    /// that keep persistent history. Throws NSPersistentStoreOperationError
    /// (134070) when none does, NSPersistentHistoryTokenExpiredError (134301)
    /// when history after the request's token was deleted.
    func executeHistory(_ request: NSPersistentHistoryChangeRequest) throws -> NSPersistentHistoryResult {
        guard let coordinator = persistentStoreCoordinator else {
            throw NSError.coreData(NSPersistentStoreOperationError, "The context has no persistent store coordinator.")
        }
        let stores = (request.affectedStores ?? coordinator.persistentStores).compactMap { $0 as? StoreHistorySource }
        let tracking = try coordinator.performStoreAccess { try stores.filter { try $0.currentHistoryNumber() != nil } }
        guard !tracking.isEmpty else {
            throw NSError.coreData(NSPersistentStoreOperationError,
                                   "No store of the request keeps persistent history (NSPersistentHistoryTrackingKey).")
        }
        if request.deletes {
            let deleted = try coordinator.performStoreAccess {
                try tracking.reduce(0) { sum, store in
                    try sum + (request.storeBound(for: store).map { try store.deleteHistory(before: $0) } ?? 0)
                }
            }
            return NSPersistentHistoryResult(result: request.resultType == .count ? deleted : true,
                                             resultType: request.resultType)
        }
        let transactions = try readHistory(request, from: tracking, coordinator: coordinator)
        return NSPersistentHistoryResult(result: Self.historyResult(transactions, request.resultType),
                                         resultType: request.resultType)
    }

    private func readHistory(_ request: NSPersistentHistoryChangeRequest, from stores: [any StoreHistorySource],
                             coordinator: NSPersistentStoreCoordinator) throws -> [NSPersistentHistoryTransaction] {
        let withChanges = request.resultType != .transactionsOnly || request.fetchRequest?.entity?.name == "Change"
        var transactions: [NSPersistentHistoryTransaction] = []
        try coordinator.performStoreAccess {
            for store in stores {
                guard let bound = request.storeBound(for: store) else { continue }
                for read in try store.historyTransactions(after: bound, withChanges: withChanges) {
                    let transaction = NSPersistentHistoryTransaction(read, storeID: store.identifier ?? "")
                    if withChanges {
                        transaction.changes = read.changes.map(NSPersistentHistoryChange.init)
                        transaction.changes?.forEach { $0.transaction = transaction }
                    }
                    transactions.append(transaction)
                }
            }
            // Records the history shows changed may be cached from before; faults read them again.
            coordinator.rowCache.forget(transactions.flatMap { $0.changes ?? [] }.lazy
                .filter { $0.changeType != .insert }.map(\.changedObjectID))
        }
        return Self.narrow(transactions, by: request.fetchRequest)
    }

    /// The transactions the predicate of `fetchRequest` selects, or with only
    /// the changes it selects when its entity is the change entity.
    private static func narrow(_ transactions: [NSPersistentHistoryTransaction],
                               by fetchRequest: NSFetchRequest<NSFetchRequestResult>?)
        -> [NSPersistentHistoryTransaction] {
        guard let fetchRequest, let predicate = fetchRequest.predicate else { return transactions }
        guard fetchRequest.entity?.name == "Change" else { return transactions.filter { predicate.evaluate(with: $0) } }
        return transactions.filter { transaction in
            transaction.changes = transaction.changes?.filter { predicate.evaluate(with: $0) }
            return !(transaction.changes?.isEmpty ?? true)
        }
    }

    private static func historyResult(_ transactions: [NSPersistentHistoryTransaction],
                                      _ type: NSPersistentHistoryResultType) -> Any {
        let changes = transactions.flatMap { $0.changes ?? [] }
        switch type {
        case .statusOnly: return true
        case .count: return changes.count
        case .objectIDs:
            var seen = Set<NSManagedObjectID>()
            return changes.map(\.changedObjectID).filter { seen.insert($0).inserted }
        case .transactionsOnly:
            transactions.forEach { $0.changes = nil }
            return transactions
        case .changesOnly:
            changes.forEach { $0.transaction = nil }
            return changes
        case .transactionsAndChanges: return transactions
        }
    }
}
