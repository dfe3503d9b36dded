import GRDB

/// The Swift side of the history triggers on a store's writing connection:
/// the SQL functions they call for what SQL cannot know (which transaction
/// they are in, who saves, the time in Core Data's epoch, `ZCOLUMNS` bytes).
///
/// The first change of an SQLite transaction opens its `ATRANSACTION` row and
/// reports it here; each commit or rollback (GRDB reports both) forgets it, so
/// the triggers open one row per transaction, whoever runs it: a context's
/// save, a batch request or plain SQL on the connection. Change keys are
/// counted here from the largest in use; `finish(_:)` writes the last one to
/// `Z_PRIMARYKEY`, and the next transaction's first change does it too.
final class SQLiteHistoryRecorder: TransactionObserver, @unchecked Sendable {
    /// What the next transaction records about who made it, and the to-many
    /// relationships each saved row changed (they live outside the row, so the
    /// update trigger cannot see them), as `ZCOLUMNS` bytes by (`Z_ENT`, `Z_PK`).
    struct Save {
        var author: String?, contextName: String?
        var toManyBits: [Int64: [Int: [UInt8]]] = [:]
    }

    private struct State {
        var save = Save()
        /// The open transaction's `ATRANSACTION.Z_PK`, once its first change opened it.
        var transaction: Int64?
        /// The last `ACHANGE.Z_PK` handed out in the open transaction.
        var lastChange: Int64 = 0
    }

    private let state = Locked(State())
    /// `bundleID` and `processID` of every transaction of this process: Apple
    /// records the bundle identifier and the process name (the corpus stores
    /// show `com.apple.dt.xctest.tool` and `xctest`); Linux programs have no
    /// bundle identifier, so the process name stands for both.
    let bundleID: String, processName: String

    init() {
        processName = ProcessInfo.processInfo.processName
        bundleID = Bundle.main.bundleIdentifier ?? processName
    }

    /// Sets who makes the transaction that starts next; it is forgotten when
    /// that transaction ends.
    func begin(_ save: Save) {
        state.withLock { $0.save = save }
    }

    /// Registers the functions on `db` (the writing connection) and observes its transactions.
    func register(in db: Database) {
        // The open transaction's number, NULL before its first change.
        db.add(function: DatabaseFunction("NSHISTORYTRANSACTION", argumentCount: 0, pure: false) { [self] _ in
            state.withLock { $0.transaction }
        })
        // NSHISTORYOPENED(transaction, last change key): the begin trigger's report.
        db.add(function: DatabaseFunction("NSHISTORYOPENED", argumentCount: 2, pure: false) { [self] values in
            state.withLock {
                $0.transaction = Int64.fromDatabaseValue(values[0])
                $0.lastChange = Int64.fromDatabaseValue(values[1]) ?? 0
            }
            return nil
        })
        // The next change's key: counted here instead of an UPDATE of Z_PRIMARYKEY per change.
        db.add(function: DatabaseFunction("NSHISTORYNEXTCHANGE", argumentCount: 0, pure: false) { [self] _ in
            state.withLock { state in
                state.lastChange += 1
                return state.lastChange
            }
        })
        db.add(function: DatabaseFunction("NSHISTORYNOW", argumentCount: 0, pure: false) { _ in
            Date().timeIntervalSinceReferenceDate
        })
        // 0 author, 1 bundle identifier, 2 context name, 3 process name.
        db.add(function: DatabaseFunction("NSHISTORYINFO", argumentCount: 1, pure: false) { [self] values in
            switch Int.fromDatabaseValue(values[0]) {
            case 0: return state.withLock { $0.save.author }
            case 1: return bundleID
            case 2: return state.withLock { $0.save.contextName }
            default: return processName
            }
        })
        // NSHISTORYCOLUMNS(Z_ENT, Z_PK, byte…): the bytes as a blob, with the
        // bits of the to-many relationships the save changed added.
        db.add(function: DatabaseFunction("NSHISTORYCOLUMNS", argumentCount: nil, pure: false) { [self] values in
            var bytes = values.dropFirst(2).map { UInt8(truncatingIfNeeded: Int.fromDatabaseValue($0) ?? 0) }
            if let entity = Int.fromDatabaseValue(values[0]), let pk = Int64.fromDatabaseValue(values[1]),
               let extra = state.withLock({ $0.save.toManyBits[pk]?[entity] }) {
                for (index, byte) in extra.enumerated() where index < bytes.count { bytes[index] |= byte }
            }
            return Data(bytes)
        })
        db.add(transactionObserver: self, extent: .databaseLifetime)
    }

    // MARK: TransactionObserver

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: Database) { endTransaction() }
    func databaseDidRollback(_ db: Database) { endTransaction() }

    private func endTransaction() {
        state.withLock { $0 = State() }
    }

    /// Records in `Z_PRIMARYKEY` the change keys the open transaction handed
    /// out, so that Core Data continues after them; call before it commits.
    func finish(_ db: Database) throws {
        guard let last = state.withLock({ $0.transaction == nil ? nil : $0.lastChange }) else { return }
        try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = max(Z_MAX, ?) WHERE Z_ENT = ?",
                       arguments: [last, SQLiteHistoryTables.changeEntity])
    }
}
