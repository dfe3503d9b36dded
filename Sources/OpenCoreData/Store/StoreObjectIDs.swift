/// The IDs a store selected for a fetch, in order, made on access.
///
/// A store may keep its result as it read it (the SQLite store keeps a
/// primary key and an entity number per row, 12 bytes) instead of one ID
/// object per row (about 100 bytes), so that a batched fetch of a million
/// rows holds its result in ~12 MB. Reading an element creates its ID: O(1),
/// one allocation.
public struct StoreObjectIDs: RandomAccessCollection, @unchecked Sendable {
    /// The number of IDs.
    public let count: Int
    private let make: (Int) -> NSManagedObjectID
    /// The record of each position, for a store that keeps keys: what a
    /// context makes faults from without making their IDs.
    let record: ((Int) -> (family: ObjectIDFamily, primaryKey: Int64))?

    /// IDs already made.
    init(_ ids: [NSManagedObjectID]) {
        count = ids.count
        make = { ids[$0] }
        record = nil
    }

    /// `count` IDs, the one at position `i` made by `make(i)`.
    init(count: Int, make: @escaping (Int) -> NSManagedObjectID) {
        self.count = count
        self.make = make
        record = nil
    }

    /// `count` permanent IDs, the one at position `i` of the record `record(i)`.
    init(count: Int, record: @escaping (Int) -> (family: ObjectIDFamily, primaryKey: Int64)) {
        self.count = count
        self.record = record
        make = { position in
            let (family, primaryKey) = record(position)
            return NSManagedObjectID(family: family, key: .permanent(primaryKey))
        }
    }

    /// Always 0.
    public var startIndex: Int { 0 }
    /// ``count``.
    public var endIndex: Int { count }
    /// The ID at `position`, made on each access: O(1), one allocation.
    public subscript(position: Int) -> NSManagedObjectID { make(position) }
}
