/// What an executed history request returns, with Apple's raw values.
public enum NSPersistentHistoryResultType: Int, Sendable {
    /// `result` is `true`.
    case statusOnly = 0
    /// `result` is the `[NSManagedObjectID]` of the changed records, each once.
    case objectIDs = 1
    /// `result` is the number of changes (of transactions, for a delete).
    case count = 2
    /// `result` is `[NSPersistentHistoryTransaction]` without their changes.
    case transactionsOnly = 3
    /// `result` is `[NSPersistentHistoryChange]` without their transactions.
    case changesOnly = 4
    /// `result` is `[NSPersistentHistoryTransaction]` with their changes.
    case transactionsAndChanges = 5
}

/// A request to read or delete persistent history (Apple's
/// NSPersistentHistoryChangeRequest), run with the context's `execute(_:)`,
/// which returns an ``NSPersistentHistoryResult``.
///
/// Reading costs one query for the transactions and one for their changes
/// per store; a `fetchRequest` predicate is evaluated on the transactions or
/// changes read.
public class NSPersistentHistoryChangeRequest: NSPersistentStoreRequest, @unchecked Sendable {
    enum Bound {
        case token(NSPersistentHistoryToken?), transaction(NSPersistentHistoryTransaction?), date(Date), none
    }

    let bound: Bound
    let deletes: Bool

    /// What `execute(_:)` returns in the result; `.transactionsAndChanges` by default.
    public var resultType = NSPersistentHistoryResultType.transactionsAndChanges
    /// Narrows the transactions (`NSPersistentHistoryTransaction.fetchRequest`)
    /// or the changes (`NSPersistentHistoryChange.fetchRequest`) read, by its predicate.
    public var fetchRequest: NSFetchRequest<NSFetchRequestResult>?

    /// The token the request reads after or deletes before, if made with one.
    public var token: NSPersistentHistoryToken? {
        if case .token(let token) = bound { return token }
        return nil
    }

    required init(bound: Bound, deletes: Bool) {
        self.bound = bound
        self.deletes = deletes
        super.init()
    }

    /// History reads are fetches of the store's history; Apple's request type for them is private.
    public override var requestType: NSPersistentStoreRequestType { .fetchRequestType }

    /// Reads the transactions committed after `date`.
    public class func fetchHistory(after date: Date) -> Self { Self(bound: .date(date), deletes: false) }
    /// Reads the transactions after `token` (all of them for nil); executing
    /// throws NSPersistentHistoryTokenExpiredError (134301) when some of them were deleted.
    public class func fetchHistory(after token: NSPersistentHistoryToken?) -> Self {
        Self(bound: .token(token), deletes: false)
    }
    /// Reads the transactions after `transaction` (all of them for nil).
    public class func fetchHistory(after transaction: NSPersistentHistoryTransaction?) -> Self {
        Self(bound: .transaction(transaction), deletes: false)
    }
    /// Reads the transactions or changes `fetchRequest` selects, from all history.
    public class func fetchHistory(withFetch fetchRequest: NSFetchRequest<NSFetchRequestResult>) -> Self {
        let request = Self(bound: .none, deletes: false)
        request.fetchRequest = fetchRequest
        return request
    }
    /// Deletes the transactions committed before `date`.
    public class func deleteHistory(before date: Date) -> Self { Self(bound: .date(date), deletes: true) }
    /// Deletes the transactions before `token`'s (all of them for nil).
    public class func deleteHistory(before token: NSPersistentHistoryToken?) -> Self {
        Self(bound: .token(token), deletes: true)
    }
    /// Deletes the transactions before `transaction` (all of them for nil).
    public class func deleteHistory(before transaction: NSPersistentHistoryTransaction?) -> Self {
        Self(bound: .transaction(transaction), deletes: true)
    }

    /// The store-side bound for `store`: a token or transaction of another
    /// store reads all of this one's history (deletes none of it).
    func storeBound(for store: NSPersistentStore) -> StoreHistoryBound? {
        switch bound {
        case .none, .token(nil), .transaction(nil): return .all
        case .date(let date): return .date(date)
        case .token(let token?):
            guard let number = token.transactionNumber(inStore: store.identifier) else { return deletes ? nil : .all }
            return .transaction(number)
        case .transaction(let transaction?):
            guard transaction.storeID == store.identifier else { return deletes ? nil : .all }
            return .transaction(transaction.transactionNumber)
        }
    }
}

/// The result of an executed NSPersistentHistoryChangeRequest.
open class NSPersistentHistoryResult: NSPersistentStoreResult, @unchecked Sendable {
    /// As `resultType` says: `true`, object IDs, a count, transactions or changes.
    public let result: Any?
    /// The request's result type.
    public let resultType: NSPersistentHistoryResultType

    init(result: Any?, resultType: NSPersistentHistoryResultType) {
        self.result = result
        self.resultType = resultType
        super.init()
    }
}
