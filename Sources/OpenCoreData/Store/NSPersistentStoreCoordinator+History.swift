extension NSPersistentStoreCoordinator {
    /// A token for the latest transaction of each store of `stores` (all
    /// stores for nil) that keeps persistent history; nil when none does.
    /// Costs one read per store.
    public func currentPersistentHistoryToken(fromStores stores: [Any]?) -> NSPersistentHistoryToken? {
        let chosen = stores?.compactMap { $0 as? NSPersistentStore } ?? persistentStores
        var tokens: [String: Int64] = [:]
        performStoreAccess {
            for case let store as StoreHistorySource in chosen {
                if let number = try? store.currentHistoryNumber(), let identifier = store.identifier {
                    tokens[identifier] = number
                }
            }
        }
        return tokens.isEmpty ? nil : NSPersistentHistoryToken(storeTokens: tokens)
    }
}
