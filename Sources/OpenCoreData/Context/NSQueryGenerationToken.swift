import Foundation

/// A generation of the stores' data that a context can be pinned to (Apple's NSQueryGenerationToken): while
/// pinned, every read of the context sees the stores as they were when the generation began, whatever other
/// contexts or processes save since.
///
/// `current` asks for the stores' current generation, taken at the context's next read. A pinned context's token
/// holds one read transaction per SQLite store, which keeps the WAL file from being checkpointed past it: unpin or
/// advance contexts that no longer need the old data.
public final class NSQueryGenerationToken: NSObject, NSCopying, @unchecked Sendable {
    /// The token asking for the current generation (`setQueryGenerationFrom(.current)`).
    public static let current = NSQueryGenerationToken(generation: nil)

    /// The kept data; nil for `current`.
    let generation: StoreGeneration?
    /// Rows read at this generation: never mixed with the coordinator's cache of current rows.
    let rowCache = StoreRowCache()

    init(generation: StoreGeneration?) {
        self.generation = generation
    }

    /// Tokens are values: a copy is the token itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    /// Whether the token is `current` or a pinned generation, and over how many stores.
    public override var description: String {
        guard let generation else { return "<NSQueryGenerationToken current>" }
        return "<NSQueryGenerationToken \(ObjectIdentifier(self).hashValue) of \(generation.storeCount) store(s)>"
    }
}
