import Foundation

// Query generations: a pinned context reads the SQLite stores through read transactions kept open since its
// generation began (WAL snapshots), and caches those rows apart from the coordinator's current ones. A save of the
// context, `reset()`, `mergeChanges(fromContextDidSave:)` and `setQueryGenerationFrom(_:)` move it on; other
// contexts' and processes' saves do not.

extension NSManagedObjectContext {
    /// The generation the context is pinned to; nil when it reads the stores' current data. A context asked to use
    /// the current generation takes it at its next read (or when this is asked).
    public var queryGenerationToken: NSQueryGenerationToken? {
        checkConcurrency("reading the query generation")
        return pinnedGeneration()
    }

    /// Pins the context to `generation` (`.current`: the stores' data as of the context's next read; a token of
    /// another context of the same coordinator: that context's generation), or unpins it with nil. As on Apple,
    /// a context whose stores cannot keep a generation (in-memory stores, SQLite without WAL) stays unpinned; a
    /// nested context reads through its parent and is never pinned itself. Throws NSCoreDataError (134060) for a
    /// token of other stores.
    public func setQueryGenerationFrom(_ generation: NSQueryGenerationToken?) throws {
        checkConcurrency("setting the query generation")
        guard let generation, parent == nil else {
            queryGeneration = nil
            return
        }
        if let kept = generation.generation {
            guard kept.belongs(to: persistentStoreCoordinator?.persistentStores ?? []) else {
                throw NSError.coreData(NSCoreDataError, "The query generation token was taken from other stores than "
                    + "this context's; use a token of a context of the same coordinator, or .current.")
            }
            queryGeneration = generation
        } else {
            queryGeneration = .current
        }
    }

    /// Moves a pinned context to the stores' current generation at its next read (after its own save, a reset,
    /// a merge).
    func advanceQueryGeneration() {
        if queryGeneration != nil { queryGeneration = .current }
    }

    /// The context's generation, taken now if it asked for the current one; nil when unpinned.
    func pinnedGeneration() -> NSQueryGenerationToken? {
        guard let generation = queryGeneration else { return nil }
        guard generation.generation == nil else { return generation }
        guard let coordinator = persistentStoreCoordinator,
              let kept = try? coordinator.performStoreAccess({
                  try StoreGeneration.take(of: coordinator.persistentStores)
              })
        else {
            queryGeneration = nil
            return nil
        }
        let pinned = NSQueryGenerationToken(generation: kept)
        queryGeneration = pinned
        return pinned
    }

    /// The cache of the rows this context reads: its generation's when pinned, else the coordinator's.
    func readCache(_ coordinator: NSPersistentStoreCoordinator) -> StoreRowCache {
        pinnedGeneration()?.rowCache ?? coordinator.rowCache
    }

    /// Runs `body`, a read of the stores, inside the coordinator's store access and at the context's generation;
    /// `body` gets the row cache to remember what it reads in.
    func readStores<T>(_ coordinator: NSPersistentStoreCoordinator, _ body: (StoreRowCache) throws -> T) throws -> T {
        guard let token = pinnedGeneration(), let kept = token.generation else {
            return try coordinator.performStoreAccess { try body(coordinator.rowCache) }
        }
        return try coordinator.performStoreAccess { try kept.reading { try body(token.rowCache) } }
    }
}
