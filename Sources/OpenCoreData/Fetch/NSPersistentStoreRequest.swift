/// The kinds of request a context executes, with Apple's raw values.
public enum NSPersistentStoreRequestType: UInt, Sendable {
    /// A fetch (``NSFetchRequest``, ``NSAsynchronousFetchRequest``, and here also history requests).
    case fetchRequestType = 1
    /// A save (Apple's `NSSaveChangesRequest`; contexts save through `save()` here).
    case saveRequestType = 2
    /// An ``NSBatchInsertRequest``.
    case batchInsertRequestType = 5
    /// An ``NSBatchUpdateRequest``.
    case batchUpdateRequestType = 6
    /// An ``NSBatchDeleteRequest``.
    case batchDeleteRequestType = 7
}

/// A request a context hands to its stores with `execute(_:)` (Apple's
/// NSPersistentStoreRequest): the batch requests, which work on the stores'
/// records directly instead of through managed objects.
open class NSPersistentStoreRequest: NSObject {
    /// The stores to run against; nil means every store holding the entity.
    open var affectedStores: [NSPersistentStore]?

    /// The kind of request.
    open var requestType: NSPersistentStoreRequestType {
        preconditionFailure("\(Swift.type(of: self)) does not name its request type")
    }
}

/// What executing a request returned (Apple's NSPersistentStoreResult);
/// each request type has its own subclass.
open class NSPersistentStoreResult: NSObject {}
