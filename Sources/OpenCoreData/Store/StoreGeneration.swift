import GRDB

/// The stores' data as of one moment, kept for a query generation: a read transaction per SQLite store over its
/// WAL (GRDB's `DatabaseSnapshot`). Reads made inside `reading(_:)` see that data; other stores are not kept and
/// read as usual. Holding one keeps the WAL from being checkpointed past it.
final class StoreGeneration: @unchecked Sendable {
    private let snapshots: [ObjectIdentifier: DatabaseSnapshot]

    private init(snapshots: [ObjectIdentifier: DatabaseSnapshot]) {
        self.snapshots = snapshots
    }

    /// The current data of those of `stores` that can keep a generation; nil when none can (in-memory stores,
    /// SQLite without WAL). Call inside the coordinator's store access.
    static func take(of stores: [NSPersistentStore]) throws -> StoreGeneration? {
        var snapshots: [ObjectIdentifier: DatabaseSnapshot] = [:]
        for case let store as SQLiteStore in stores {
            if let snapshot = try store.makeGenerationSnapshot() { snapshots[ObjectIdentifier(store)] = snapshot }
        }
        return snapshots.isEmpty ? nil : StoreGeneration(snapshots: snapshots)
    }

    /// Whether every store kept here is one of `stores`.
    func belongs(to stores: [NSPersistentStore]) -> Bool {
        let identities = Set(stores.map(ObjectIdentifier.init))
        return snapshots.keys.allSatisfy(identities.contains)
    }

    /// The number of stores kept.
    var storeCount: Int { snapshots.count }

    /// Runs `body` with the kept stores' reads going to this generation.
    func reading<T>(_ body: () throws -> T) rethrows -> T {
        try SQLiteStore.$pinnedReads.withValue(snapshots, operation: body)
    }
}
