/// What happened to a record in a transaction, with Apple's raw values.
public enum NSPersistentHistoryChangeType: Int, Sendable {
    /// The record was inserted.
    case insert = 0
    /// Some of the record's properties changed; ``NSPersistentHistoryChange/updatedProperties`` says
    /// which.
    case update = 1
    /// The record was deleted; the change's `tombstone` holds the values the model keeps for deleted
    /// records (`preservesValueInHistoryOnDeletion`).
    case delete = 2
}

/// One record's change in a persistent-history transaction (Apple's
/// NSPersistentHistoryChange).
open class NSPersistentHistoryChange: NSObject, KeyValueCoding, @unchecked Sendable {
    /// The change's number, unique in its store.
    public let changeID: Int64
    /// The changed record.
    public let changedObjectID: NSManagedObjectID
    /// Insert, update or delete.
    public let changeType: NSPersistentHistoryChangeType
    /// For a delete, the values of the attributes marked to preserve their
    /// value in history on deletion (`preservesValueInHistoryOnDeletion`), by
    /// name; nil for inserts and updates.
    public let tombstone: [AnyHashable: Any]?
    /// The transaction holding the change; nil when the request asked for changes only.
    public internal(set) weak var transaction: NSPersistentHistoryTransaction?
    /// For an update, the properties it changed; nil for inserts and deletes.
    public let updatedProperties: Set<NSPropertyDescription>?

    init(_ change: StoreHistoryChange) {
        changeID = change.id
        changedObjectID = change.objectID
        changeType = NSPersistentHistoryChangeType(rawValue: change.type) ?? .update
        tombstone = change.tombstone.map { values in
            Dictionary(uniqueKeysWithValues: values.map { (AnyHashable($0.key), $0.value) })
        }
        updatedProperties = change.updatedProperties.map(Set.init)
        super.init()
    }

    /// The entity of changes in history fetch requests (`fetchRequest`), with
    /// the keys predicates can use: changeID, changeType, changedObjectID,
    /// changedEntity, tombstone, transaction, updatedProperties.
    open class var entityDescription: NSEntityDescription? { PersistentHistoryEntities.change }

    /// The same entity; the context is not needed here.
    open class func entityDescription(with context: NSManagedObjectContext) -> NSEntityDescription? {
        entityDescription
    }

    /// A fetch request over changes, for `NSPersistentHistoryChangeRequest.fetchRequest`.
    open class var fetchRequest: NSFetchRequest<NSFetchRequestResult>? {
        let request = NSFetchRequest<NSFetchRequestResult>()
        request.entity = entityDescription
        return request
    }

    /// The value of `key` for predicates over changes; stops the program for an
    /// unknown key, as key-value coding does on Apple.
    public func value(forKey key: String) -> Any? {
        switch key {
        case "changeID": changeID
        case "changedObjectID": changedObjectID
        case "changeType": changeType.rawValue
        case "changedEntity": changedObjectID.entity
        case "tombstone": tombstone
        case "transaction": transaction
        case "updatedProperties": updatedProperties
        default: preconditionFailure("NSPersistentHistoryChange is not key value coding-compliant for the key \(key)")
        }
    }

    /// The change's number, type and object ID.
    open override var description: String {
        "<NSPersistentHistoryChange: \(changeID) \(changeType) \(changedObjectID)>"
    }
}
