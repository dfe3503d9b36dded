// The notifications a coordinator posts about its stores, with Apple's
// names and userInfo keys.

extension NSNotification.Name {
    /// Posted before stores are added or removed; object: the coordinator,
    /// userInfo: `NSAddedPersistentStoresKey` or `NSRemovedPersistentStoresKey`.
    public static let NSPersistentStoreCoordinatorStoresWillChange =
        Notification.Name("NSPersistentStoreCoordinatorStoresWillChangeNotification")
    /// Posted after stores were added or removed; object and userInfo as for `…StoresWillChange`.
    public static let NSPersistentStoreCoordinatorStoresDidChange =
        Notification.Name("NSPersistentStoreCoordinatorStoresDidChangeNotification")
    /// Posted before a store is removed; object: the coordinator, no userInfo.
    public static let NSPersistentStoreCoordinatorWillRemoveStore =
        Notification.Name("NSPersistentStoreCoordinatorWillRemoveStoreNotification")
    /// Posted when a commit reached a store added with
    /// `NSPersistentStoreRemoteChangeNotificationPostOptionKey` (from any
    /// coordinator or process); object: the coordinator, userInfo:
    /// `NSPersistentStoreURLKey`, `NSStoreUUIDKey` and, when the store keeps
    /// history, `NSPersistentHistoryTokenKey`. Posted on a private queue.
    public static let NSPersistentStoreRemoteChange = Notification.Name("NSPersistentStoreRemoteChangeNotification")
}

/// userInfo key of the stores a coordinator added (an array).
public let NSAddedPersistentStoresKey = "added"
/// userInfo key of the stores a coordinator removed (an array).
public let NSRemovedPersistentStoresKey = "removed"
/// userInfo key of a store whose UUID changed: the old and the new store (an array).
public let NSUUIDChangedPersistentStoresKey = "changedUUID"
/// userInfo key of the history token in `NSPersistentStoreRemoteChange`.
public let NSPersistentHistoryTokenKey = "historyToken"
/// userInfo key of the store's URL in `NSPersistentStoreRemoteChange`.
public let NSPersistentStoreURLKey = "storeURL"

extension NSPersistentStoreCoordinator {
    /// Posts `…StoresWillChange` (`willChange`) or `…StoresDidChange` for `stores` added or removed.
    func postStoresChange(willChange: Bool, added: [NSPersistentStore] = [], removed: [NSPersistentStore] = []) {
        var info: [AnyHashable: Any] = [:]
        if !added.isEmpty { info[NSAddedPersistentStoresKey] = added }
        if !removed.isEmpty { info[NSRemovedPersistentStoresKey] = removed }
        NotificationCenter.default.post(name: willChange ? .NSPersistentStoreCoordinatorStoresWillChange
                                                         : .NSPersistentStoreCoordinatorStoresDidChange,
                                        object: self, userInfo: info)
    }
}
