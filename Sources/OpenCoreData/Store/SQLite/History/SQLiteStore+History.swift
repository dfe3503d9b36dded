import GRDB

extension SQLiteStore: StoreHistorySource {
    /// Sets up the history after the file is open (``SQLiteHistory/open``), and the
    /// remote-change watcher when `NSPersistentStoreRemoteChangeNotificationPostOptionKey` is true.
    /// `holdsHistory` says whether the file has the history tables, when the open already looked.
    func openHistory(holdsHistory: Bool?) throws {
        history = try translatingErrors {
            try SQLiteHistory.open(database, mapping: mapping, tracking: SQLiteHistory.isRequested(options),
                                   readOnly: isReadOnly, holdsHistory: holdsHistory)
        }
        let remote = options?[NSPersistentStoreRemoteChangeNotificationPostOptionKey]
        if (remote as? NSNumber)?.boolValue ?? (remote as? Bool) ?? false, let url, !SQLiteConnection.isInMemory(url) {
            remoteChangeWatcher = try translatingErrors { try SQLiteRemoteChangeWatcher(store: self, url: url) }
        }
    }

    func currentHistoryNumber() throws -> Int64? {
        guard let history else { return nil }
        return try translatingErrors {
            try database.read { try SQLiteHistoryReader(store: self, layouts: history.layouts, db: $0).currentNumber() }
        }
    }

    func historyTransactions(after bound: StoreHistoryBound, withChanges: Bool) throws -> [StoreHistoryTransaction] {
        let history = try requireHistory()
        return try translatingErrors {
            try database.read { db in
                try SQLiteHistoryReader(store: self, layouts: history.layouts, db: db)
                    .transactions(after: bound, withChanges: withChanges)
            }
        }
    }

    func deleteHistory(before bound: StoreHistoryBound) throws -> Int {
        let history = try requireHistory()
        if isReadOnly {
            throw NSError.coreData(NSPersistentStoreSaveError, "The store at \(url?.path ?? "") is read-only.")
        }
        return try translatingErrors {
            try database.write { db in
                try SQLiteHistoryReader(store: self, layouts: history.layouts, db: db).delete(before: bound)
            }
        }
    }

    private func requireHistory() throws -> SQLiteHistory {
        guard let history else {
            throw NSError.coreData(NSPersistentStoreOperationError,
                                   "The store at \(url?.path ?? "") keeps no persistent history: add it with "
                                   + "NSPersistentHistoryTrackingKey set to true.")
        }
        return history
    }
}
