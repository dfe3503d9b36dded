#if canImport(Glibc)
import Glibc
#endif
import GRDB

/// Posts `NSPersistentStoreRemoteChange` for an SQLite store added with
/// `NSPersistentStoreRemoteChangeNotificationPostOptionKey` when a commit
/// reaches its file, from this or another coordinator or process.
///
/// inotify reports writes to the file and its `-wal` (no polling: the thread
/// sleeps in the kernel until a write); a burst of events is coalesced into
/// one check 10 ms later, which asks SQLite on a connection of its own whether
/// anything was committed since (`PRAGMA data_version` changes when another
/// connection commits) and reads the history token. Linux only; elsewhere
/// the option does nothing.
final class SQLiteRemoteChangeWatcher: @unchecked Sendable {
    private let queue = DispatchQueue(label: "OpenCoreData.SQLiteRemoteChangeWatcher")
    private let source: any DispatchSourceRead
    private let connection: DatabaseQueue
    private weak var store: SQLiteStore?
    private let names: Set<String>
    private let url: URL
    private var version: Int64 = 0
    private var checkPending = false

    /// Starts watching the file of `store` at `url`; nil when the platform has no inotify.
    init?(store: SQLiteStore, url: URL) throws {
        #if canImport(Glibc)
        let fd = inotify_init1(Int32(O_NONBLOCK | O_CLOEXEC))
        guard fd >= 0 else { return nil }
        // IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE
        guard inotify_add_watch(fd, url.deletingLastPathComponent().path, 0x2 | 0x8 | 0x80 | 0x100) >= 0 else {
            close(fd)
            return nil
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "OpenCoreData.SQLiteRemoteChangeWatcher"
        connection = try DatabaseQueue(path: url.path, configuration: configuration)
        self.store = store
        self.url = url
        names = [url.lastPathComponent, url.lastPathComponent + "-wal"]
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        version = (try? connection.read { try Int64.fetchOne($0, sql: "PRAGMA data_version") ?? 0 }) ?? 0
        source.setEventHandler { [weak self] in self?.drain(fd) }
        source.setCancelHandler { close(fd) }
        source.resume()
        #else
        return nil
        #endif
    }

    deinit { source.cancel() }

    /// Reads the pending events; schedules a check if one names the store's files.
    private func drain(_ fd: Int32) {
        #if canImport(Glibc)
        var buffer = [UInt8](repeating: 0, count: 4096)
        var touched = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            while offset + 16 <= count {
                // struct inotify_event: wd, mask, cookie, len (4 bytes each), then len bytes of name.
                let length = buffer.withUnsafeBytes {
                    Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                }
                let name = buffer[(offset + 16)..<min(offset + 16 + length, count)].prefix { $0 != 0 }
                if names.contains(String(decoding: name, as: UTF8.self)) { touched = true }
                offset += 16 + length
            }
        }
        guard touched, !checkPending else { return }
        checkPending = true
        queue.asyncAfter(deadline: .now() + .milliseconds(10)) { [weak self] in self?.check() }
        #endif
    }

    /// Posts the notification when something was committed since the last check.
    private func check() {
        checkPending = false
        guard let store, let coordinator = store.persistentStoreCoordinator else { return }
        let tracking = store.history != nil
        guard let (now, token) = try? connection.read({ db -> (Int64, Int64?) in
            let version = try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0
            guard tracking else { return (version, nil) }
            return (version, try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?",
                                                arguments: [SQLiteHistoryTables.transactionEntity]))
        }), now != version else { return }
        version = now
        var info: [AnyHashable: Any] = [NSPersistentStoreURLKey: url]
        if let identifier = store.identifier {
            info[NSStoreUUIDKey] = identifier
            if let token {
                info[NSPersistentHistoryTokenKey] = NSPersistentHistoryToken(storeTokens: [identifier: token])
            }
        }
        NotificationCenter.default.post(name: .NSPersistentStoreRemoteChange, object: coordinator, userInfo: info)
    }
}
