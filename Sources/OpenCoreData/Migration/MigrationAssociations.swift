/// Which destination instances each entity mapping made from which source
/// instances, by object ID, so that no object stays in memory between
/// batches. The instances of the batch being created are held until the
/// batch is saved (``settle(_:)``), when their IDs become permanent.
///
/// Memory: two object IDs per association; lookups are dictionary reads.
struct MigrationAssociations {
    private var destinationsBySource: [String: [NSManagedObjectID: [NSManagedObjectID]]] = [:]
    private var sourceByDestination: [String: [NSManagedObjectID: NSManagedObjectID]] = [:]
    /// Destination IDs per mapping, in creation order: what phase 2 walks.
    private(set) var destinationsInOrder: [String: [NSManagedObjectID]] = [:]
    private var pending: [(mapping: String, source: NSManagedObjectID, destination: NSManagedObject)] = []

    mutating func associate(_ source: NSManagedObjectID, _ destination: NSManagedObject, mapping: String) {
        if destination.objectID.isTemporaryID {
            pending.append((mapping, source, destination))
        } else {
            record(source, destination.objectID, mapping: mapping)
        }
    }

    /// The objects whose IDs are still temporary, to be given permanent IDs.
    var pendingObjects: [NSManagedObject] { pending.map(\.destination) }

    /// Records the pending associations under their now permanent IDs.
    mutating func settle(_ isPermanent: (NSManagedObject) -> Bool) {
        for (mapping, source, destination) in pending where isPermanent(destination) {
            record(source, destination.objectID, mapping: mapping)
        }
        pending.removeAll()
    }

    mutating func forgetPending() { pending.removeAll() }

    private mutating func record(_ source: NSManagedObjectID, _ destination: NSManagedObjectID, mapping: String) {
        destinationsBySource[mapping, default: [:]][source, default: []].append(destination)
        sourceByDestination[mapping, default: [:]][destination] = source
        destinationsInOrder[mapping, default: []].append(destination)
    }

    /// Destination IDs made by `mapping` from `source`, and pending objects not yet saved.
    func destinations(of source: NSManagedObjectID, mapping: String) -> (ids: [NSManagedObjectID],
                                                                         unsaved: [NSManagedObject]) {
        let unsaved = pending.filter { $0.mapping == mapping && $0.source == source }.map(\.destination)
        return (destinationsBySource[mapping]?[source] ?? [], unsaved)
    }

    /// The source ID `destination` was made from by `mapping`.
    func source(of destination: NSManagedObject, mapping: String) -> NSManagedObjectID? {
        if let found = sourceByDestination[mapping]?[destination.objectID] { return found }
        return pending.first { $0.mapping == mapping && $0.destination === destination }?.source
    }

    /// Every destination ID `mapping` made, and its pending objects.
    func allDestinations(mapping: String) -> (ids: [NSManagedObjectID], unsaved: [NSManagedObject]) {
        (destinationsInOrder[mapping] ?? [], pending.filter { $0.mapping == mapping }.map(\.destination))
    }

    /// Every source ID `mapping` migrated, one per destination instance, saved ones first.
    func allSources(mapping: String) -> [NSManagedObjectID] {
        (destinationsInOrder[mapping] ?? []).compactMap { sourceByDestination[mapping]?[$0] }
            + pending.filter { $0.mapping == mapping }.map(\.source)
    }

    /// The mappings that made a destination instance from `source`.
    func mappings(associating source: NSManagedObjectID) -> [String] {
        destinationsBySource.keys.sorted().filter { destinationsBySource[$0]?[source] != nil }
            + Set(pending.filter { $0.source == source }.map(\.mapping)).sorted()
    }
}
