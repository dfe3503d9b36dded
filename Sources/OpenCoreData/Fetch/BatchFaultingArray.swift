/// The result of ``NSManagedObjectContext/fetchBatched(_:)``: Core Data's
/// batch-faulting array, a random-access collection of the fetched objects
/// that makes them a batch (`fetchBatchSize` objects) at a time.
///
/// It holds the fetch's object IDs (compactly, as the store returned them)
/// and the objects of the batch read last. Reading an element of another
/// batch makes that batch's objects, loads their records in one read per
/// store (or from the row cache), prefetches the request's relationship key
/// paths, and lets the previous batch go; a released unchanged object leaves
/// its context, so memory follows the batch, not the result. Reading within
/// the current batch is O(1). Use it on its context's queue.
public struct BatchFaultingArray<Element>: RandomAccessCollection {
    private let storage: Storage

    /// A result already made in full.
    init(elements: [Element]) {
        storage = .elements(elements)
    }

    /// A result of `ids` made in batches of `request.fetchBatchSize`.
    init(context: NSManagedObjectContext, ids: StoreObjectIDs, request: NSFetchRequest<NSFetchRequestResult>) {
        storage = .batches(Batches(context: context, ids: ids, request: request))
    }

    private enum Storage {
        case elements([Element])
        case batches(Batches)
    }

    /// Always 0.
    public var startIndex: Int { 0 }

    /// The number of results; O(1), no object is made.
    public var endIndex: Int {
        switch storage {
        case .elements(let elements): elements.count
        case .batches(let batches): batches.ids.count
        }
    }

    /// The result at `position`. O(1) within the batch read last; another batch costs one read of
    /// `fetchBatchSize` records per store (or none, from the row cache) and releases the previous
    /// batch.
    public subscript(position: Int) -> Element {
        switch storage {
        case .elements(let elements): return elements[position]
        case .batches(let batches): return NSManagedObjectContext.typed(batches.object(at: position))
        }
    }

    /// The batch being read: reference storage, so that reading elements of
    /// an immutable array can replace it.
    private final class Batches {
        let ids: StoreObjectIDs
        private weak var context: NSManagedObjectContext?
        private let batchSize: Int
        private let loadsValues: Bool
        private let prefetching: [String]
        private var start = 0
        private var objects: [NSManagedObject] = []

        init(context: NSManagedObjectContext, ids: StoreObjectIDs, request: NSFetchRequest<NSFetchRequestResult>) {
            self.ids = ids
            self.context = context
            batchSize = request.fetchBatchSize
            loadsValues = request.includesPropertyValues || !request.returnsObjectsAsFaults
            prefetching = request.relationshipKeyPathsForPrefetching ?? []
        }

        func object(at position: Int) -> NSManagedObject {
            precondition(position >= 0 && position < ids.count, "Index \(position) out of range of a fetch result of \(ids.count) objects")
            if position < start || position >= start + objects.count { load(from: position - position % batchSize) }
            return objects[position - start]
        }

        private func load(from first: Int) {
            guard let context else {
                preconditionFailure("The context of a batched fetch result was released before the result was read")
            }
            objects = []
            start = first
            let positions = first..<Swift.min(first + batchSize, ids.count)
            // Faults made from the store's keys, as a fetch makes them: an ID is made when first asked for.
            let batch = if let record = ids.record, context.parent == nil {
                positions.map { position in
                    let (family, primaryKey) = record(position)
                    return context.object(family, primaryKey: primaryKey)
                }
            } else {
                positions.map { context.object(with: ids[$0]) }
            }
            if loadsValues { context.fulfillFaults(batch) }
            context.prefetchRelationships(prefetching, of: batch)
            objects = batch
        }
    }
}
