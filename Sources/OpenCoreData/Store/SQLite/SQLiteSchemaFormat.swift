/// Which Core Data release's DDL a schema reproduces.
///
/// Table and column layout has not changed across the releases seen in real
/// stores (NSPersistenceFrameworkVersion 230 to 1523); what changed is how
/// indexes and uniqueness constraints are written and whether `Z_MODELCACHE`
/// exists. Each switch below sits between the last version seen without the
/// feature and the first version seen with it (docs/SQLiteLayout.md).
struct SQLiteSchemaFormat: Hashable, Sendable {
    /// The store metadata's `NSPersistenceFrameworkVersion` being imitated.
    var frameworkVersion: Int

    /// The newest release seen in the corpus (iOS 18 / macOS 15 era).
    static let current = SQLiteSchemaFormat(frameworkVersion: 1523)

    /// Whether the store has `Z_MODELCACHE` (absent up to 519, present from 637).
    var hasModelCache: Bool { frameworkVersion > 519 }

    /// Whether join tables get an index on their second column (absent up to
    /// 519, present from 849).
    var indexesJoinTables: Bool { frameworkVersion > 519 }

    /// Whether indexed attributes and uniqueness constraints are written the
    /// fetch-index way: `Z_<Entity>_<name>` indexes with `COLLATE BINARY`
    /// terms and `Z_<Entity>_UNIQUE_<a>_<b>` unique indexes (seen from 866),
    /// rather than `<TABLE>_<COLUMN>_INDEX` and in-table `CONSTRAINT … UNIQUE`
    /// (seen up to 637).
    var usesFetchIndexes: Bool { frameworkVersion > 637 }
}
