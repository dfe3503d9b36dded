/// Numbers 1, 2, 3… handed out once each, from any thread; each costs one lock.
final class SerialNumbers: @unchecked Sendable {
    private let lock = NSLock()
    private var last = 0

    func next() -> Int { lock.withLock { last += 1; return last } }
}
