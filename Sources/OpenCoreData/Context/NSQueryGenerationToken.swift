import Foundation
import GRDB

/// A generation of the stores' data that a context can be pinned to (Apple's NSQueryGenerationToken): while
/// pinned, every read of the context sees the stores as they were when the generation began, whatever other
/// contexts or processes save since.
///
/// `current` asks for the stores' current generation, taken at the context's next read. A pinned context's token
/// holds one read transaction per SQLite store (a WAL snapshot), which keeps the WAL file from being checkpointed
/// past it: unpin or advance contexts that no longer need the old data.
public final class NSQueryGenerationToken: NSObject, NSCopying, @unchecked Sendable {
    /// The token asking for the current generation (`setQueryGenerationFrom(.current)`).
    public static let current = NSQueryGenerationToken(snapshots: nil)

    /// The pinned stores' read transactions by store identity; nil for `current`.
    let snapshots: [ObjectIdentifier: DatabaseSnapshot]?
    /// Rows read at this generation: never mixed with the coordinator's cache of current rows.
    let rowCache = StoreRowCache()

    init(snapshots: [ObjectIdentifier: DatabaseSnapshot]?) {
        self.snapshots = snapshots
    }

    /// Tokens are values: a copy is the token itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override var description: String {
        snapshots == nil ? "<NSQueryGenerationToken current>"
            : "<NSQueryGenerationToken \(ObjectIdentifier(self).hashValue) of \(snapshots!.count) store(s)>"
    }
}
