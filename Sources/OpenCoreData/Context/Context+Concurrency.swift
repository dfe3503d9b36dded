#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Running work on a context's queue. `performAndWait` runs inline when the
// calling thread is already doing this context's work (it is reentrant, as
// in Core Data); every block ends with `processPendingChanges()`.

extension NSManagedObjectContext {
    /// When an async `perform` runs its block.
    public enum ScheduledTaskType: Sendable {
        /// At once when already on the context's queue, else as soon as the queue is free.
        case immediate
        /// Always after the work already queued.
        case enqueued
    }

    /// Runs `block` on the context's queue, later; returns at once.
    public func perform(_ block: @escaping @Sendable () -> Void) {
        queue.async { self.runAsCurrent(block) }
    }

    /// Runs `block` on the context's queue and waits (Apple's Objective-C
    /// `performBlockAndWait:`). Inline when the caller is already running
    /// this context's work.
    public func performAndWait(_ block: () -> Void) {
        performAndWait(sweeping: true, block)
    }

    /// Runs `block` on the context's queue, waits, and returns its result or
    /// error. Inline when the caller is already running this context's work.
    public func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        try performAndWait(sweeping: true, block)
    }

    /// `performAndWait`; a call that `sweeping` is false for leaves the
    /// registry sweep to the context's own next block (a nested context's
    /// brief calls into its parent would otherwise sweep it each time).
    func performAndWait<T>(sweeping: Bool, _ block: () throws -> T) rethrows -> T {
        if isCurrent { return try block() }
        if concurrencyType == .mainQueueConcurrencyType, Thread.isMainThread {
            return try runAsCurrent(sweeping: sweeping, block)
        }
        return try withoutActuallyEscaping(block) { block in
            let box = UncheckedBox(block)
            let result = queue.sync { UncheckedBox(Result { try self.runAsCurrent(sweeping: sweeping, box.value) }) }
            return try result.value.get()
        }
    }

    /// Runs `block` on the context's queue and returns its result or error
    /// to the awaiting task.
    public func perform<T, E: Error>(schedule: ScheduledTaskType = .immediate,
                                     _ block: @escaping () throws(E) -> T) async throws(E) -> T {
        if schedule == .immediate, isCurrent {
            do { return try block() } catch { throw error }
        }
        let box = UncheckedBox(block)
        let outcome: UncheckedBox<Result<T, E>> = await withCheckedContinuation { continuation in
            queue.async {
                let result: Result<T, E> = self.runAsCurrent {
                    do throws(E) { return .success(try box.value()) } catch { return .failure(error) }
                }
                continuation.resume(returning: UncheckedBox(result))
            }
        }
        return try outcome.value.get()
    }

    /// For a main-queue context, processes pending changes once the main
    /// queue gets to it, so that changes made outside `perform` reach
    /// ObjectsDidChange observers (fetched-results controllers) at the end of
    /// the main run loop's turn, as on Apple. At most one is scheduled at a time.
    func scheduleEndOfTurnProcessing() {
        guard concurrencyType == .mainQueueConcurrencyType, !endOfTurnScheduled else { return }
        endOfTurnScheduled = true
        // Weakly: a program that never runs the main queue must not keep the context alive.
        DispatchQueue.main.async { [weak self] in
            self?.endOfTurnScheduled = false
            self?.processPendingChanges()
        }
    }

    /// Whether this thread is running this context's work now.
    var isCurrent: Bool { CurrentContexts.contains(self) }

    private func runAsCurrent<T>(sweeping: Bool = true, _ block: () throws -> T) rethrows -> T {
        CurrentContexts.push(self)
        defer {
            processPendingChanges()
            if sweeping { sweepRegistryIfDue() }
            CurrentContexts.pop()
        }
        return try block()
    }
}

/// A value moved across a queue hop that the context's queue makes safe.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// The contexts whose work the current thread is running, innermost last.
///
/// Kept in the thread's pthread-specific storage and released when the
/// thread ends. Foundation's `Thread.current.threadDictionary` cost 5,000 to
/// 7,000 instructions an access (the key made an `AnyHashable` and hashed,
/// the value cast back from `Any`), three accesses a `performAndWait`; this
/// is a `pthread_getspecific`.
enum CurrentContexts {
    private final class Stack {
        var contexts: [ObjectIdentifier] = []
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let created = pthread_key_create(&key) { releaseStack($0) }
        precondition(created == 0, "OpenCoreData could not create its thread-specific key (\(created))")
        return key
    }()

    private static func releaseStack(_ stack: UnsafeMutableRawPointer?) {
        guard let stack else { return }
        Unmanaged<Stack>.fromOpaque(stack).release()
    }

    private static var stack: Stack {
        if let stack = pthread_getspecific(key) { return Unmanaged<Stack>.fromOpaque(stack).takeUnretainedValue() }
        let stack = Stack()
        pthread_setspecific(key, Unmanaged.passRetained(stack).toOpaque())
        return stack
    }

    static func contains(_ context: NSManagedObjectContext) -> Bool {
        stack.contexts.contains(ObjectIdentifier(context))
    }

    static func push(_ context: NSManagedObjectContext) { stack.contexts.append(ObjectIdentifier(context)) }
    static func pop() { stack.contexts.removeLast() }
}
