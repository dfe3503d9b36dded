// `-com.apple.CoreData.ConcurrencyDebug 1`: a context or one of its objects
// used on a thread that is not running the context's work stops the
// program, as Apple's does, so that such a bug shows where it happens rather
// than as a corrupted graph later (CoreDataDebug.concurrencyDebug).

extension NSManagedObjectContext {
    /// Stops the program, naming `what`, when the concurrency checks were on
    /// as the context was made and this thread is not running the context's
    /// work. Off, the load of one stored flag.
    @inline(__always)
    func checkConcurrency(_ what: @autoclosure () -> String) {
        guard checksConcurrency else { return }
        reportConcurrencyViolation(what)
    }

    @inline(never)
    private func reportConcurrencyViolation(_ what: () -> String) {
        if isCurrent || (concurrencyType == .mainQueueConcurrencyType && Thread.isMainThread) { return }
        let queueName = concurrencyType == .mainQueueConcurrencyType ? "the main queue" : "its private queue"
        let context = name.map { ", context \($0)" } ?? ""
        preconditionFailure("CoreData ConcurrencyDebug: \(what()) off the context's queue (\(queueName)\(context)), "
            + "on thread \(Thread.current); use perform or performAndWait")
    }
}
