/// A fetch that `execute(_:)` starts and returns from at once (Apple's
/// NSAsynchronousFetchRequest): the fetch runs later on the context's
/// queue, reports through a `Progress`, can be cancelled until it starts,
/// and hands its result to `completionBlock` on that queue.
///
/// It costs what `fetch(_:)` costs, plus one hop to the context's queue.
open class NSAsynchronousFetchRequest<ResultType: NSFetchRequestResult>: NSPersistentStoreRequest,
                                                                           AsynchronousFetchStarting {
    /// The fetch to run.
    public let fetchRequest: NSFetchRequest<ResultType>
    /// Called on the context's queue with the result once the fetch ran, failed or was cancelled.
    public let completionBlock: ((NSAsynchronousFetchResult<ResultType>) -> Void)?
    /// How many results the caller expects, the result's progress total
    /// until the fetch ran; 0 when unknown.
    open var estimatedResultCount = 0

    /// A request running `request` and handing the result to `completionBlock`.
    public init(fetchRequest request: NSFetchRequest<ResultType>,
                completionBlock: ((NSAsynchronousFetchResult<ResultType>) -> Void)? = nil) {
        fetchRequest = request
        self.completionBlock = completionBlock
        super.init()
    }

    /// `.fetchRequestType`, as Apple's.
    open override var requestType: NSPersistentStoreRequestType { .fetchRequestType }

    /// Schedules the fetch on `context`'s queue and returns its (pending) result.
    func start(in context: NSManagedObjectContext) -> NSPersistentStoreResult {
        let progress = Progress(totalUnitCount: Int64(estimatedResultCount))
        let result = NSAsynchronousFetchResult(request: self, context: context, progress: progress)
        let run = UncheckedSendable { [self] in
            if progress.isCancelled {
                result.operationError = NSError(
                    domain: NSCocoaErrorDomain, code: CocoaError.userCancelled.rawValue,
                    userInfo: [NSLocalizedDescriptionKey: "The asynchronous fetch was cancelled."])
            } else {
                do {
                    let objects = try context.fetch(fetchRequest)
                    progress.totalUnitCount = Int64(objects.count)
                    progress.completedUnitCount = Int64(objects.count)
                    result.finalResult = objects
                } catch {
                    result.operationError = error
                }
            }
            completionBlock?(result)
        }
        context.perform { run.value() }
        return result
    }
}

/// Lets `execute(_:)` start an asynchronous fetch whatever its result type.
protocol AsynchronousFetchStarting {
    func start(in context: NSManagedObjectContext) -> NSPersistentStoreResult
}

/// A closure the caller hands to the context's queue, where the context's
/// own objects may be used (the guarantee `perform` gives).
private struct UncheckedSendable: @unchecked Sendable {
    let value: () -> Void
    init(_ value: @escaping () -> Void) { self.value = value }
}
