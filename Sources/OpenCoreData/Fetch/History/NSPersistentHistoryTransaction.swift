/// One committed transaction of a store's persistent history: a context's
/// save or a batch request (Apple's NSPersistentHistoryTransaction).
open class NSPersistentHistoryTransaction: NSObject, KeyValueCoding, @unchecked Sendable {
    /// When the transaction was committed.
    public let timestamp: Date
    /// Its changes, in the order they were made; nil when the request asked for transactions only.
    public internal(set) var changes: [NSPersistentHistoryChange]?
    /// The transaction's number in its store, increasing.
    public let transactionNumber: Int64
    /// The identifier of the store (`NSStoreUUIDKey`).
    public let storeID: String
    /// The bundle identifier of the program that made it (its process name on Linux).
    public let bundleID: String
    /// The name of the process that made it.
    public let processID: String
    /// The `name` of the context that saved, if it had one.
    public let contextName: String?
    /// The `transactionAuthor` of the context that saved, if it had one.
    public let author: String?
    /// A token for the store's history up to and including this transaction.
    public let token: NSPersistentHistoryToken

    init(_ transaction: StoreHistoryTransaction, storeID: String) {
        timestamp = transaction.timestamp
        transactionNumber = transaction.number
        self.storeID = storeID
        bundleID = transaction.bundleID ?? ""
        processID = transaction.processID ?? ""
        contextName = transaction.contextName
        author = transaction.author
        token = NSPersistentHistoryToken(storeTokens: [storeID: transaction.number])
        super.init()
    }

    /// A DidSave-style notification (`didSaveObjectIDsNotification`, object
    /// IDs under `NSInsertedObjectIDsKey`, `NSUpdatedObjectIDsKey` and
    /// `NSDeletedObjectIDsKey`) for `mergeChanges(fromContextDidSave:)`.
    /// Empty when the transaction was fetched without its changes.
    open func objectIDNotification() -> Notification {
        var ids: [NSPersistentHistoryChangeType: Set<NSManagedObjectID>] = [.insert: [], .update: [], .delete: []]
        for change in changes ?? [] { ids[change.changeType, default: []].insert(change.changedObjectID) }
        return Notification(name: NSManagedObjectContext.didSaveObjectIDsNotification, object: self, userInfo: [
            NSInsertedObjectIDsKey: ids[.insert]!, NSUpdatedObjectIDsKey: ids[.update]!,
            NSDeletedObjectIDsKey: ids[.delete]!,
        ])
    }

    /// The entity of transactions in history fetch requests (`fetchRequest`),
    /// with the keys predicates can use: author, bundleID, changes,
    /// contextName, processID, storeID, timestamp, token, transactionNumber.
    open class var entityDescription: NSEntityDescription? { PersistentHistoryEntities.transaction }

    /// The same entity; the context is not needed here.
    open class func entityDescription(with context: NSManagedObjectContext) -> NSEntityDescription? {
        entityDescription
    }

    /// A fetch request over transactions, for `NSPersistentHistoryChangeRequest.fetchRequest`.
    open class var fetchRequest: NSFetchRequest<NSFetchRequestResult>? {
        let request = NSFetchRequest<NSFetchRequestResult>()
        request.entity = entityDescription
        return request
    }

    /// The value of `key` for predicates over transactions; stops the program
    /// for an unknown key, as key-value coding does on Apple.
    public func value(forKey key: String) -> Any? {
        switch key {
        case "timestamp": timestamp
        case "changes": changes
        case "transactionNumber": transactionNumber
        case "storeID": storeID
        case "bundleID": bundleID
        case "processID": processID
        case "contextName": contextName
        case "author": author
        case "token": token
        default:
            preconditionFailure("NSPersistentHistoryTransaction is not key value coding-compliant for the key \(key)")
        }
    }

    /// The transaction's number, timestamp, author and change count.
    open override var description: String {
        "<NSPersistentHistoryTransaction: \(transactionNumber) \(timestamp) author \(author ?? "nil"), "
            + "\(changes?.count ?? 0) changes>"
    }
}
