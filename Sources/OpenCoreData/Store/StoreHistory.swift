/// Persistent history as a store reads it, before the context layer turns it
/// into `NSPersistentHistoryTransaction` and `NSPersistentHistoryChange` objects.
struct StoreHistoryTransaction: @unchecked Sendable {
    /// The transaction's number, increasing with every transaction of the store.
    var number: Int64
    var timestamp: Date
    var author: String?, bundleID: String?, contextName: String?, processID: String?
    var changes: [StoreHistoryChange] = []
}

/// One changed record of a transaction.
struct StoreHistoryChange: @unchecked Sendable {
    var id: Int64
    /// 0 insert, 1 update, 2 delete (`NSPersistentHistoryChangeType`).
    var type: Int
    var objectID: NSManagedObjectID
    /// For an update, the properties it changed; nil otherwise.
    var updatedProperties: [NSPropertyDescription]?
    /// For a delete, the values of the attributes preserved on deletion, by name.
    var tombstone: [String: Any]?
}

/// Which transactions a history request reads or deletes.
enum StoreHistoryBound: Sendable {
    /// Every transaction.
    case all
    /// Transactions numbered above (fetch) or below (delete) the number.
    case transaction(Int64)
    /// Transactions timestamped after (fetch) or before (delete) the date.
    case date(Date)
}

/// A store that keeps persistent history (the SQLite store with
/// `NSPersistentHistoryTrackingKey`).
protocol StoreHistorySource: NSPersistentStore {
    /// The number of the store's latest transaction (0 before the first);
    /// nil when the store keeps no history.
    func currentHistoryNumber() throws -> Int64?
    /// The transactions after `bound`, oldest first, with their changes when
    /// `withChanges`. Throws NSPersistentHistoryTokenExpiredError (134301)
    /// when transactions after a transaction bound were deleted.
    func historyTransactions(after bound: StoreHistoryBound, withChanges: Bool) throws -> [StoreHistoryTransaction]
    /// Deletes the transactions before `bound` and their changes; returns how many transactions.
    func deleteHistory(before bound: StoreHistoryBound) throws -> Int
}
