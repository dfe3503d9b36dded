/// `fetchBatchSize` for the faults of the last batched fetch: when one of its
/// objects fires, the records of the next `batchSize` objects of the result
/// (from that one on) are read with it, in one query, so walking a large
/// result costs one read per batch and keeps only one batch of records
/// waiting in memory.
struct SQLiteFaultBatches {
    private var ids: [NSManagedObjectID] = []
    private var positions: [NSManagedObjectID: Int] = [:]
    private var batchSize = 0

    /// Remembers the result of a fetch with `batchSize` > 0; forgets any
    /// earlier one. Linear in the result size.
    mutating func remember(_ ids: [NSManagedObjectID], batchSize: Int) {
        self.ids = batchSize > 0 ? ids : []
        self.batchSize = batchSize
        positions = batchSize > 0 ? Dictionary(ids.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a }) : [:]
    }

    mutating func forget() { remember([], batchSize: 0) }

    /// Whether no batched fetch is remembered: no read is widened.
    var isEmpty: Bool { batchSize == 0 }

    /// `missing` plus, for each one in the remembered result, the objects that
    /// follow it up to a batch.
    func widened(_ missing: [NSManagedObjectID]) -> [NSManagedObjectID] {
        guard batchSize > 0 else { return missing }
        var wanted = missing, seen = Set(missing)
        for id in missing {
            guard let start = positions[id] else { continue }
            for next in ids[start..<min(start + batchSize, ids.count)] where seen.insert(next).inserted { wanted.append(next) }
        }
        return wanted
    }
}
