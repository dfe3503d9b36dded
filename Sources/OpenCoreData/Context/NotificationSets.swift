/// The object sets of the notifications one save posts, each built once.
///
/// A save posts ObjectsDidChange for the changes of its last event, then
/// DidSave for everything it saved; when the changes were made in one event
/// (a loop over fetched objects, then `save()`), both hold the same objects,
/// listed in the same order. A set of managed objects costs ~450 instructions
/// an object to build (a hasher per object, and NSObject's `isEqual(_:)`
/// per probe that meets another object), so the second notification reuses
/// the first one's set. A list is compared with the list of each set kept:
/// counts first, then addresses in order until one differs (O(n) pointer
/// comparisons for the set that matches).
struct NotificationSets {
    /// A set and the list it was built from. A struct: an array of tuples
    /// has its type made at run time from its mangled name on first use,
    /// ~170,000 instructions once per process.
    private struct Built {
        let objects: [NSManagedObject]
        let set: Set<NSManagedObject>
    }
    private var built: [Built] = []

    /// The set of `objects`: one built before from the same objects in the
    /// same order, or a new one, kept for the calls after.
    mutating func set(of objects: [NSManagedObject]) -> Set<NSManagedObject> {
        if let match = built.first(where: { $0.objects.hasSameObjects(inOrderAs: objects) }) { return match.set }
        let set = Set(sparse: objects)
        built.append(Built(objects: objects, set: set))
        return set
    }
}

extension NSManagedObjectContext {
    /// The set of `objects` for a notification's userInfo; during a save,
    /// shared with the save's other notifications (``NotificationSets``).
    func notificationSet(of objects: [NSManagedObject]) -> Set<NSManagedObject> {
        guard savesNotificationSets != nil else { return Set(sparse: objects) }
        return savesNotificationSets!.set(of: objects)
    }

    /// Runs `body`, a save, with its notifications' sets shared; the sets
    /// (and the objects in them) are let go when it returns.
    func sharingNotificationSets<T>(_ body: () throws -> T) rethrows -> T {
        guard savesNotificationSets == nil else { return try body() }
        savesNotificationSets = NotificationSets()
        defer { savesNotificationSets = nil }
        return try body()
    }
}
