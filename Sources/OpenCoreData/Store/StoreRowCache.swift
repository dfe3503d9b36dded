import Logging

/// The coordinator's row cache: the last record read or saved for each
/// object, shared by every context of the coordinator, so that firing a
/// fault whose record some object already holds reads nothing from the store.
///
/// Managed objects hold their committed record as a ``Row``; the cache keeps
/// a row only while some object (in any context) uses it, as Core Data's
/// snapshots live while referenced (`SharedObjectTable`). A
/// context's `stalenessInterval` bounds the age of rows it accepts.
///
/// Ordering: every call that records what a store read, saved or deleted is
/// made inside the coordinator's store access (`performStoreAccess`), right
/// after the store work it records, so the cache changes in the order the
/// store did. Within that order a read never replaces a newer row (compared
/// by `Z_OPT` version): a record read before a save can't come back after it.
/// Safe to use from any thread; each call takes the cache's own lock once.
final class StoreRowCache: @unchecked Sendable {
    /// One record as read from or written to a store: a buffer of its slots
    /// stamped with the record and its version (see `SlotBuffer`).
    typealias Row = SlotBuffer

    private let lock = NSLock()
    /// The rows by their records' IDs; only touched under `lock`.
    private let rows = SharedObjectTable<Row>()
    /// Where hits are logged from SQL debug level 3 (``CoreDataDebug``); nil,
    /// one check per lookup, below that.
    private let hitLog: Logger? = CoreDataDebug.sqlDebugLevel >= 3 ? CoreDataDebug.logger : nil

    /// The cached row of `id` if it is at most `maxAge` seconds old (any age
    /// when `maxAge` is negative, none when it is 0).
    func row(for id: NSManagedObjectID, maxAge: TimeInterval) -> Row? {
        row(maxAge: maxAge, of: { id }) { rows[ObjectKey(id)] }
    }

    /// `row(for:maxAge:)` for the permanent record of `primaryKey` in
    /// `family`, found without making its ID (a fault a fetch made has none).
    func row(of family: ObjectIDFamily, primaryKey: Int64, maxAge: TimeInterval) -> Row? {
        row(maxAge: maxAge, of: { NSManagedObjectID(family: family, key: .permanent(primaryKey)) }) {
            rows.value(hash: { NSManagedObjectID.tableHash(family, primaryKey: primaryKey, seed: $0) },
                       matching: { $0.recordIdentity.names(family, primaryKey: primaryKey) })
        }
    }

    /// The row `lookup` finds under the lock, if at most `maxAge` seconds old; `id` names it in the hit log.
    @inline(__always)
    private func row(maxAge: TimeInterval, of id: () -> NSManagedObjectID, _ lookup: () -> Row?) -> Row? {
        guard maxAge != 0 else { return nil }
        let now = maxAge > 0 ? ProcessInfo.processInfo.systemUptime : 0
        let row: Row? = lock.withLock {
            guard let row = lookup(), maxAge < 0 || now - row.readTime <= maxAge else { return nil }
            return row
        }
        if let hitLog, row != nil {
            hitLog.info("CoreData: annotation: row cache hit for : \(id().uriRepresentation())")
        }
        return row
    }

    /// Caches a record just read from its store and returns the row the
    /// reader should use: a cached row of the same version is kept (and
    /// counts as read now), one of a newer version wins over the read.
    func rememberRead(_ snapshot: StoreSnapshot) -> Row {
        let now = ProcessInfo.processInfo.systemUptime
        return withUnsafePointer(to: snapshot) { record in lock.withLock { read(record, at: now) } }
    }

    /// `rememberRead(_:)` for every record of a fetch, under one lock and
    /// with the table grown once; the rows pair with `snapshots` by position.
    func rememberRead(contentsOf snapshots: [StoreSnapshot]) -> [Row] {
        let now = ProcessInfo.processInfo.systemUptime
        return lock.withLock {
            rows.reserveCapacity(forAdding: snapshots.count)
            return Self.rows(of: snapshots) { read($0, at: now) }
        }
    }

    /// Caches the records a save just wrote: each is the newest state of its
    /// record, so it replaces whatever row was cached. `newRecords` (at most
    /// the count of `snapshots`) is how many are new to the cache, such as
    /// inserted records: the table grows once for them. An updated record
    /// mostly replaces its row in place; reserving room for it too doubled
    /// the table of an update of everything fetched (~100 instructions a row).
    func rememberSaved(_ snapshots: [StoreSnapshot], newRecords: Int? = nil) -> [Row] {
        let now = ProcessInfo.processInfo.systemUptime
        return lock.withLock {
            rows.reserveCapacity(forAdding: newRecords ?? snapshots.count)
            return Self.rows(of: snapshots) { record in
                let row = Row.makeUnderCacheLock(from: record)
                row.readTime = now
                let record = row.recordIdentity
                rows.updateValue(hash: record.tableHash, matching: { $0.recordIdentity.namesSameRecord(as: record) }) {
                    $0 = row
                }
                return row
            }
        }
    }

    /// `row(record)` for each of `snapshots`, in order, each read where it lies: `map`'s copy of each (its ID,
    /// layout, slots and changed slots) cost four retains and releases a record, ~170 instructions.
    @inline(__always)
    private static func rows(of snapshots: [StoreSnapshot], _ row: (UnsafePointer<StoreSnapshot>) -> Row) -> [Row] {
        snapshots.withUnsafeBufferPointer { records in
            [Row](unsafeUninitializedCapacity: records.count) { made, initialized in
                for index in records.indices {
                    made.initializeElement(at: index, to: row(records.baseAddress! + index))
                    initialized += 1
                }
            }
        }
    }

    /// `snapshot` as a row, not cached: its own buffer when that can be
    /// made the row (see `SlotBuffer.make(from:)`).
    func row(from snapshot: StoreSnapshot) -> Row {
        withUnsafePointer(to: snapshot) { record in lock.withLock { Row.makeUnderCacheLock(from: record) } }
    }

    /// Drops the rows of records that were deleted or changed behind the
    /// cache's back (batch updates), so no context reads them again.
    func forget<IDs: Sequence>(_ ids: IDs) where IDs.Element == NSManagedObjectID {
        lock.withLock { for id in ids { rows.removeValue(forKey: ObjectKey(id)) } }
    }

    /// Drops the rows of the records of the store `storeIdentifier` whose
    /// entity `isChanged` accepts (every record by default): after a batch
    /// request whose records the coordinator can't list (a batch delete's
    /// cascades, an update that returns no IDs). Objects keep the rows they
    /// hold; faults fired later read the store. Costs a pass over the cache.
    func forgetRecords(ofStore storeIdentifier: String?,
                       where isChanged: (NSEntityDescription) -> Bool = { _ in true }) {
        lock.withLock {
            rows.removeAll { row in
                let family = row.recordIdentity.family
                return family.storeIdentifier == storeIdentifier && isChanged(family.entity)
            }
        }
    }

    /// Drops the rows no object uses any more.
    func sweep() {
        lock.withLock { rows.sweep() }
    }

    /// What breaks the table's invariants, one line each (none when sound): for tests.
    var invariantViolations: [String] { lock.withLock { rows.invariantViolations } }

    private func read(_ record: UnsafePointer<StoreSnapshot>, at now: TimeInterval) -> Row {
        // Found by the record's identity: a record a fetch read has no ID to make a key of.
        rows.updateValue(hash: { record.pointee.identity.tableHash(seed: $0) },
                         matching: { $0.recordIdentity.namesSameRecord(as: record.pointee.identity) }) { cached in
            if let row = cached, row.version >= record.pointee.version {
                if row.version == record.pointee.version { row.readTime = now }
                return row
            }
            let row = Row.makeUnderCacheLock(from: record)
            row.readTime = now
            cached = row
            return row
        }
    }
}

/// A buffer as a row: the record it is stamped with (see `SlotBuffer`).
extension SlotBuffer {
    /// The buffer of `snapshot`'s slots as the row of its record and
    /// version: the buffer itself when it is already that row, or when the
    /// snapshot holds it alone (stamped now), else a copy. Safe anywhere:
    /// a buffer held elsewhere is stamped only under the cache's lock.
    static func make(from snapshot: consuming StoreSnapshot) -> SlotBuffer {
        if snapshot.values.isEmpty { snapshot.values = .empty(layout: snapshot.layout) }
        if let row = snapshot.values.buffer, row.isRow(of: snapshot) { return row }
        let unique = snapshot.values.isUniquelyReferenced()
        return withUnsafePointer(to: snapshot) { stamped($0, inPlace: unique) }
    }

    /// `make(from:)` for a caller holding the cache's lock, which may stamp
    /// a buffer that is no row yet even while others share it: every such
    /// stamp is made under that lock (a parent's object shares a child's
    /// buffer, and both contexts' saves make rows).
    ///
    /// `record` is read where it lies (a save's array of them): passed by value, it was copied.
    fileprivate static func makeUnderCacheLock(from record: UnsafePointer<StoreSnapshot>) -> SlotBuffer {
        if let row = record.pointee.values.buffer {
            if row.isRow(of: record.pointee) { return row }
            return stamped(record, inPlace: row.record == nil)
        }
        return make(from: record.pointee)
    }

    private static func stamped(_ record: UnsafePointer<StoreSnapshot>, inPlace: Bool) -> SlotBuffer {
        let buffer = record.pointee.values.buffer.unsafelyUnwrapped
        let row = inPlace ? buffer : buffer.copy()
        row.record = record.pointee.identity
        row.version = record.pointee.version
        return row
    }

    /// Whether the buffer is the row of the snapshot's record and version, however each names the record (a
    /// fetched row by family and key, an object's snapshot by its ID).
    private func isRow(of snapshot: borrowing StoreSnapshot) -> Bool {
        guard version == snapshot.version, let record else { return false }
        return record.isIdentical(to: snapshot.identity) || record.namesSameRecord(as: snapshot.identity)
    }

    /// The record whose row this is.
    var recordIdentity: RecordIdentity { record.unsafelyUnwrapped }
    /// The ID of the record whose row this is: made anew for a row a fetch read (see `RecordIdentity`).
    var objectID: NSManagedObjectID { recordIdentity.objectID }
    var values: SlotValues { SlotValues(self) }
    var snapshot: StoreSnapshot {
        StoreSnapshot(identity: recordIdentity, version: version, layout: layout, values: values)
    }
}

extension StoreRowCache.Row: SharedTableElement {
    var tableKey: ObjectKey { ObjectKey(objectID) }

    func hasTableKey(_ key: ObjectKey) -> Bool {
        recordIdentity.isNamed(by: key.id)
    }

    func tableKeyHash(seed: Int) -> Int { recordIdentity.tableHash(seed: seed) }

    static func tableHash(of key: ObjectKey, seed: Int) -> Int { key.id.tableHash(seed: seed) }
}
