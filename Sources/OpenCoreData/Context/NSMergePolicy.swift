/// How a save resolves optimistic locking conflicts (Apple's
/// NSMergePolicyType; raw values as Apple's).
public enum NSMergePolicyType: UInt, Sendable {
    /// The save fails with NSManagedObjectMergeError (133020).
    case errorMergePolicyType = 0
    /// Property by property; what another context saved wins.
    case mergeByPropertyStoreTrumpMergePolicyType = 1
    /// Property by property; this context's changes win.
    case mergeByPropertyObjectTrumpMergePolicyType = 2
    /// This context's objects are saved whole.
    case overwriteMergePolicyType = 3
    /// This context's changes to the conflicting objects are discarded.
    case rollbackMergePolicyType = 4
}

/// Resolves the conflicts a save finds between a context's changes and what
/// the store holds now (Apple's NSMergePolicy). A context's `mergePolicy` is
/// one of the five shared policies, or an instance of a subclass that
/// overrides `resolve(optimisticLockingConflicts:)`.
///
/// A conflict arises when an object the context updates or deletes was
/// saved or deleted by another context or program since this context read
/// it (its record's version, `Z_OPT`, changed). Resolving costs one store
/// read for the conflicting records and a second attempt at the save.
open class NSMergePolicy: NSObject, @unchecked Sendable {
    /// The policy's kind.
    public let mergeType: NSMergePolicyType

    /// A policy of `type`.
    public init(merge type: NSMergePolicyType) {
        mergeType = type
    }

    /// Fails the save with NSManagedObjectMergeError (133020), the conflicts
    /// under NSPersistentStoreSaveConflictsErrorKey. Every context's default.
    public static let error = NSMergePolicy(merge: .errorMergePolicyType)
    /// Keeps what the store holds for each property changed there, and this
    /// context's changes to the others.
    public static let mergeByPropertyStoreTrump = NSMergePolicy(merge: .mergeByPropertyStoreTrumpMergePolicyType)
    /// Keeps this context's changes, and what the store holds for the
    /// properties this context did not change.
    public static let mergeByPropertyObjectTrump = NSMergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
    /// Saves this context's objects whole over what the store holds.
    public static let overwrite = NSMergePolicy(merge: .overwriteMergePolicyType)
    /// Discards this context's changes to the conflicting objects.
    public static let rollback = NSMergePolicy(merge: .rollbackMergePolicyType)

    /// Resolves the conflicts of one save: hands the optimistic locking
    /// conflicts to `resolve(optimisticLockingConflicts:)`, then the
    /// uniqueness-constraint conflicts to `resolve(constraintConflicts:)`, as
    /// Core Data does. Throws to fail the save.
    open func resolve(mergeConflicts list: [Any]) throws {
        let locking = list.compactMap { $0 as? NSMergeConflict }
        let constraints = list.compactMap { $0 as? NSConstraintConflict }
        if !locking.isEmpty || constraints.isEmpty { try resolve(optimisticLockingConflicts: locking) }
        if !constraints.isEmpty { try resolve(constraintConflicts: constraints) }
    }

    /// Resolves uniqueness-constraint conflicts by the policy's type; the
    /// error policy throws NSManagedObjectConstraintMergeError (133021) with
    /// the conflicts under "conflictList". The other policies keep one
    /// object per conflict (the stored record's, for a database-level one)
    /// and delete the others after moving their relationships to it; see
    /// `resolveByType(_:)` for what each keeps.
    open func resolve(constraintConflicts list: [NSConstraintConflict]) throws {
        guard mergeType != .errorMergePolicyType else {
            throw NSError.coreData(NSManagedObjectConstraintMergeError, Self.describe(list),
                                   userInfo: ["conflictList": list])
        }
        for conflict in list { resolveByType(conflict) }
    }

    /// Resolves optimistic locking conflicts by the policy's type, changing
    /// each source object so that the save can go on; the error policy throws.
    open func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws {
        guard mergeType != .errorMergePolicyType else {
            throw NSError.coreData(NSManagedObjectMergeError,
                                   "\(list.count) object(s) changed in the store since this context read them.",
                                   userInfo: [NSPersistentStoreSaveConflictsErrorKey: list])
        }
        for conflict in list { resolve(conflict) }
    }

    private func resolve(_ conflict: NSMergeConflict) {
        let object = conflict.sourceObject
        guard let context = object.managedObjectContext else { return }
        guard conflict.newVersionNumber != 0 else {
            // Nothing left to update: the object goes the way of its record.
            object.committedRow = nil
            if !object.isDeletedFlag { context.delete(object) }
            return
        }
        // A conflict made by hand (public initializer) carries no record to merge.
        guard let persisted = conflict.persistedRecord else { return }
        let committed = object.committed
        let row = StoreRowCache.Row.make(from: Self.keepingUnreadToMany(persisted, of: committed))
        if object.isDeletedFlag {
            object.committedRow = row
            return
        }
        switch mergeType {
        case .rollbackMergePolicyType:
            context.apply(row, to: object)
            context.noteUnchanged(object)
            return
        case .overwriteMergePolicyType:
            object.values.markChanged(persisted.layout.columnSlots)
        case .mergeByPropertyObjectTrumpMergePolicyType, .mergeByPropertyStoreTrumpMergePolicyType:
            let storeWins = mergeType == .mergeByPropertyStoreTrumpMergePolicyType
            for slot in persisted.layout.columnSlots.slots {
                let external = !Self.same(committed?[slot] ?? .none, persisted[slot])
                guard external, storeWins || !object.values.changed.contains(slot) else { continue }
                object.values[slot] = persisted[slot]
            }
        case .errorMergePolicyType:
            return
        }
        object.committedRow = row
    }

    /// `record` with the to-many relationships `committed` holds unread left
    /// unread, so that changes still compare against what the store holds.
    private static func keepingUnreadToMany(_ record: StoreSnapshot, of committed: StoreSnapshot?) -> StoreSnapshot {
        guard let committed else { return record }
        var record = record
        for slot in record.layout.properties.indices where committed[slot].isUnread { record[slot] = .unread }
        return record
    }

    /// Whether two stored values (attributes, to-one IDs) are the same.
    private static func same(_ lhs: SlotValue, _ rhs: SlotValue) -> Bool {
        switch (lhs, rhs) {
        case (.none, .none): true
        case (.record(let a), .record(let b)): a.namesSameRecord(as: b)
        case (.object(let a), .record(let b)), (.record(let b), .object(let a)): a.isRecord(b)
        default: lhs.isSameAttributeValue(as: rhs)
        }
    }
}

/// The error policy, for `mergePolicy` (Apple's global of that name).
nonisolated(unsafe) public let NSErrorMergePolicy: Any = NSMergePolicy.error
/// The store-trump policy, for `mergePolicy`.
nonisolated(unsafe) public let NSMergeByPropertyStoreTrumpMergePolicy: Any = NSMergePolicy.mergeByPropertyStoreTrump
/// The object-trump policy, for `mergePolicy`.
nonisolated(unsafe) public let NSMergeByPropertyObjectTrumpMergePolicy: Any = NSMergePolicy.mergeByPropertyObjectTrump
/// The overwrite policy, for `mergePolicy`.
nonisolated(unsafe) public let NSOverwriteMergePolicy: Any = NSMergePolicy.overwrite
/// The rollback policy, for `mergePolicy`.
nonisolated(unsafe) public let NSRollbackMergePolicy: Any = NSMergePolicy.rollback
