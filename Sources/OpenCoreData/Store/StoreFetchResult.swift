/// What a store returns for a fetch: the selected IDs in order and, when the
/// store read them in the same pass, their records.
///
/// Invariant: `records` is empty or has one record per ID, in the same
/// order, so the context pairs them by position rather than by a lookup per
/// row. The context gives each record to its object (a fault) to load when
/// it fires, as Core Data's fetches fill the row cache.
public struct StoreFetchResult: @unchecked Sendable {
    /// The selected objects' IDs, in the fetch's order.
    public var ids: StoreObjectIDs
    /// Empty, or one record per ID in the same order.
    public var records: [StoreSnapshot]

    init(ids: StoreObjectIDs, records: [StoreSnapshot] = []) {
        precondition(records.isEmpty || records.count == ids.count, "A fetch's records must pair with its IDs")
        self.ids = ids
        self.records = records
    }
}
