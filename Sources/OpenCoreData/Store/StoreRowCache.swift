/// The coordinator's row cache: the last record read or saved for each
/// object, shared by every context of the coordinator, so that firing a
/// fault whose record some object already holds reads nothing from the store.
///
/// Managed objects hold their committed record as a ``Row``; the cache holds
/// rows weakly, so a record stays cached exactly as long as some object (in
/// any context) uses it, as Core Data's snapshots live while referenced. A
/// context's `stalenessInterval` bounds the age of rows it accepts. Safe to
/// use from any thread; each call takes a lock for a dictionary operation.
final class StoreRowCache: @unchecked Sendable {
    /// One record as read from or written to a store.
    final class Row: @unchecked Sendable {
        let snapshot: StoreSnapshot
        /// When the record was read or written, in seconds of system uptime.
        let time: TimeInterval

        init(_ snapshot: StoreSnapshot, time: TimeInterval = ProcessInfo.processInfo.systemUptime) {
            self.snapshot = snapshot
            self.time = time
        }
    }

    private let lock = NSLock()
    private var rows = WeakValueDictionary<NSManagedObjectID, Row>()

    /// The cached row of `id` if it is at most `maxAge` seconds old (any age
    /// when `maxAge` is negative, none when it is 0).
    func row(for id: NSManagedObjectID, maxAge: TimeInterval) -> Row? {
        guard maxAge != 0 else { return nil }
        let now = maxAge > 0 ? ProcessInfo.processInfo.systemUptime : 0
        return lock.withLock {
            guard let row = rows[id], maxAge < 0 || now - row.time <= maxAge else { return nil }
            return row
        }
    }

    /// Caches `snapshot` as its record's current row, replacing an older one,
    /// and returns the row for the object that holds it.
    func remember(_ snapshot: StoreSnapshot) -> Row {
        let row = Row(snapshot)
        lock.withLock { rows[snapshot.objectID] = row }
        return row
    }

    /// Caches every snapshot of a fetch result, as `remember(_:)` does one,
    /// under one lock and with the table grown once.
    func remember(contentsOf snapshots: [StoreSnapshot]) -> [Row] {
        let now = ProcessInfo.processInfo.systemUptime
        let made = snapshots.map { Row($0, time: now) }
        lock.withLock {
            rows.reserveCapacity(rows.storageCount + made.count)
            for row in made { rows[row.snapshot.objectID] = row }
        }
        return made
    }

    /// Drops the row of a deleted record, so no context reads it again.
    func forget(_ id: NSManagedObjectID) {
        lock.withLock { rows[id] = nil }
    }
}
