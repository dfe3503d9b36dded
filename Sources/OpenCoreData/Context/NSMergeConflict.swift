/// An optimistic locking failure found by a save: an object the context
/// changed or deleted whose record another context or program saved (or
/// deleted) since this context read it (Apple's NSMergeConflict).
///
/// Snapshots hold attribute values and to-one destinations as object IDs,
/// never to-many relationships, as Core Data's do.
open class NSMergeConflict: NSObject, @unchecked Sendable {
    /// The object whose save conflicts.
    public let sourceObject: NSManagedObject
    /// The object's values as it last read or saved them.
    public let objectSnapshot: [String: Any]?
    /// The coordinator's cached values of the record the object last read.
    public let cachedSnapshot: [String: Any]?
    /// The record's values in the store now; nil when it was deleted.
    public let persistedSnapshot: [String: Any]?
    /// The record's version in the store now; 0 when it was deleted.
    public let newVersionNumber: Int
    /// The version the object last read.
    public let oldVersionNumber: Int

    /// The record in the store now, in slots, for the policies that merge it.
    let persistedRecord: StoreSnapshot?

    /// A conflict of `sourceObject` between the versions given.
    public init(source sourceObject: NSManagedObject, newVersion: Int, oldVersion: Int,
                cachedSnapshot: [String: Any]?, persistedSnapshot: [String: Any]?) {
        self.sourceObject = sourceObject
        objectSnapshot = sourceObject.committed.map(Self.values)
        self.cachedSnapshot = cachedSnapshot
        self.persistedSnapshot = persistedSnapshot
        newVersionNumber = newVersion
        oldVersionNumber = oldVersion
        persistedRecord = nil
    }

    /// The conflict of `object` with the record the store holds now.
    init(object: NSManagedObject, persisted: StoreSnapshot?) {
        sourceObject = object
        let committed = object.committed.map(Self.values)
        objectSnapshot = committed
        cachedSnapshot = committed
        persistedSnapshot = persisted.map(Self.values)
        newVersionNumber = Int(persisted?.version ?? 0)
        oldVersionNumber = Int(object.committedRow?.version ?? 0)
        persistedRecord = persisted
    }

    /// A record's attributes and to-one destination IDs by property name.
    static func values(_ record: StoreSnapshot) -> [String: Any] {
        record.attributes.merging(record.toOne.mapValues { $0 as Any }) { value, _ in value }
    }
}
