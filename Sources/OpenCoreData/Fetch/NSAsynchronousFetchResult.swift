/// The result of a request a store runs asynchronously (Apple's
/// NSPersistentStoreAsynchronousResult): its progress and error, and
/// `cancel()`.
open class NSPersistentStoreAsynchronousResult: NSPersistentStoreResult, @unchecked Sendable {
    /// The context the request was executed in.
    public let managedObjectContext: NSManagedObjectContext
    /// The progress of the request: its total is the estimated, then the
    /// actual number of results; child of the progress current when the
    /// request was executed.
    public let progress: Progress?
    /// Why the request failed (`NSUserCancelledError` when cancelled); nil while
    /// running and after success. Set on the context's queue before the completion block runs.
    public internal(set) var operationError: (any Error)?

    init(context: NSManagedObjectContext, progress: Progress) {
        managedObjectContext = context
        self.progress = progress
    }

    /// Cancels the request if it has not run yet; its completion block then
    /// gets the result with `operationError` set. Costless and thread-safe.
    open func cancel() {
        progress?.cancel()
    }
}

/// The result of an executed NSAsynchronousFetchRequest: `finalResult`
/// once the fetch ran on the context's queue.
open class NSAsynchronousFetchResult<ResultType: NSFetchRequestResult>: NSPersistentStoreAsynchronousResult,
                                                                         @unchecked Sendable {
    /// The request this is the result of.
    public let fetchRequest: NSAsynchronousFetchRequest<ResultType>
    /// The fetched results; nil until the fetch ran, and when it failed or was cancelled.
    public internal(set) var finalResult: [ResultType]?

    init(request: NSAsynchronousFetchRequest<ResultType>, context: NSManagedObjectContext, progress: Progress) {
        fetchRequest = request
        super.init(context: context, progress: progress)
    }
}
