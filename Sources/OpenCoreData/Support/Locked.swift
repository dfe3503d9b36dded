import Foundation

/// A value that one thread at a time reads or changes, behind an `NSLock`.
///
/// It stands where `Synchronization.Mutex` would: on Linux that `Mutex`
/// waits and wakes through futexes inside the Swift runtime's own code,
/// which ThreadSanitizer does not see, so TSan finds no order between two
/// threads' locked accesses and reports each contended one as a race (four
/// threads changing a locked dictionary, 2026-11-25: races with `Mutex`,
/// none with `NSLock`). A lock TSan understands keeps its reports about
/// this library meaningful. Each call costs one lock and unlock of a
/// `pthread_mutex_t`.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value while holding the lock, and returns its result.
    func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
