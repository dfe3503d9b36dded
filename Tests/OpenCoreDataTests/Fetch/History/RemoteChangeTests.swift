import Foundation
import Testing
@testable import OpenCoreDataCore

/// `NSPersistentStoreRemoteChange`: with
/// `NSPersistentStoreRemoteChangeNotificationPostOptionKey`, a commit to the
/// store from another coordinator or process posts the notification, object
/// the coordinator, userInfo with the store URL, UUID and history token
/// (https://developer.apple.com/documentation/foundation/nsnotification/name-swift.struct/
/// nspersistentstoreremotechange);
/// merging the history after it shows the other process's objects
/// (https://developer.apple.com/documentation/coredata/consuming_relevant_store_changes).
@Suite(.serialized) struct RemoteChangeTests {
    static let writer: URL = {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("HistoryWriter").path),
              url.path != "/" {
            url.deleteLastPathComponent()
        }
        return url.appendingPathComponent("HistoryWriter")
    }()

    static var options: [AnyHashable: Any] {
        [NSPersistentHistoryTrackingKey: true as NSNumber,
         NSPersistentStoreRemoteChangeNotificationPostOptionKey: true as NSNumber]
    }

    /// Collects the remote-change notifications posted for `coordinator`.
    final class Listener: @unchecked Sendable {
        private let lock = NSLock()
        private var received: [Notification] = []
        private var observer: (any NSObjectProtocol)?

        init(_ coordinator: NSPersistentStoreCoordinator) {
            observer = NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange,
                                                              object: coordinator, queue: nil) { [weak self] note in
                self?.lock.withLock { self?.received.append(note) }
            }
        }

        deinit { observer.map(NotificationCenter.default.removeObserver) }

        var notifications: [Notification] { lock.withLock { received } }

        /// Waits up to `seconds` for a notification whose token reaches `number`.
        func wait(forTransaction number: Int64, store: String, seconds: Double = 20) -> Notification? {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if let found = notifications.last(where: {
                    ($0.userInfo?[NSPersistentHistoryTokenKey] as? NSPersistentHistoryToken)?
                        .transactionNumber(inStore: store) ?? 0 >= number
                }) { return found }
                usleep(5_000)
            }
            return nil
        }
    }

    /// Issue 16: another process saves, or batch-inserts (NSBatchInsertRequest writes around its contexts); this
    /// one is notified and merges the new objects from history.
    @Test(arguments: ["save", "batch"])
    func anotherProcesssWriteIsNotifiedAndMergedFromHistory(mode: String) throws {
        let url = TestStack.temporaryStoreURL()
        let model = try CrashModelForTests.make()
        let context = try HistoryStack.context(url, model: model, options: Self.options)
        let coordinator = context.persistentStoreCoordinator!
        let store = try #require(coordinator.persistentStores.first?.identifier)
        let seen = try context.performAndWait {
            let node = NSEntityDescription.insertNewObject(forEntityName: "Node", into: context)
            node.setValue(Int64(0), forKey: "batch")
            try context.save()
            return try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Node"))
        }
        let before = try #require(coordinator.currentPersistentHistoryToken(fromStores: nil))
        let listener = Listener(coordinator)

        let process = Process()
        process.executableURL = Self.writer
        process.arguments = [url.path, CrashModelForTests.url.path, "25", "child", mode]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try #require(process.terminationStatus == 0, "HistoryWriter: \(printed)")

        let notification = try #require(listener.wait(forTransaction: 2, store: store))
        #expect(notification.object as? NSPersistentStoreCoordinator === coordinator)
        #expect(notification.userInfo?[NSStoreUUIDKey] as? String == store)
        #expect(notification.userInfo?[NSPersistentStoreURLKey] as? URL == url)

        try context.performAndWait {
            let transactions = try HistoryStack.history(context, after: before)
            try #require(transactions.count == 1)
            #expect(transactions[0].author == "child" && transactions[0].processID == "HistoryWriter")
            #expect(transactions[0].changes?.count == 25)
            let inserted = Set(try #require(transactions[0].changes).map(\.changedObjectID))
            final class Merged: @unchecked Sendable { var ids: Set<NSManagedObjectID>? }
            let merged = Merged()
            let observer = NotificationCenter.default.addObserver(
                forName: NSManagedObjectContext.didMergeChangesObjectIDsNotification, object: context, queue: nil) {
                merged.ids = $0.userInfo?[NSInsertedObjectIDsKey] as? Set<NSManagedObjectID>
            }
            context.mergeChanges(fromContextDidSave: transactions[0].objectIDNotification())
            NotificationCenter.default.removeObserver(observer)
            #expect(merged.ids == inserted && inserted.count == 25)
            let nodes = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Node"))
            #expect(nodes.count == 26 && Set(nodes).isSuperset(of: seen))
            #expect(Set(nodes.compactMap { $0.value(forKey: "index") as? Int64 }) == Set(0..<25))
        }
    }

    @Test func anotherCoordinatorsSaveIsNotifiedWithTheHistoryToken() throws {
        let url = TestStack.temporaryStoreURL()
        let watched = try HistoryStack.context(url, options: Self.options)
        let listener = Listener(watched.persistentStoreCoordinator!)
        let other = try HistoryStack.context(url)
        try other.performAndWait {
            TestStack.insert("Album", into: other, ["name": "elsewhere"])
            try other.save()
        }
        let store = try #require(watched.persistentStoreCoordinator!.persistentStores.first?.identifier)
        let notification = try #require(listener.wait(forTransaction: 1, store: store))
        let token = try #require(notification.userInfo?[NSPersistentHistoryTokenKey] as? NSPersistentHistoryToken)
        #expect(token == other.persistentStoreCoordinator!.currentPersistentHistoryToken(fromStores: nil))
        // Nothing more is posted while nothing is committed: no polling loop reports changes.
        let count = listener.notifications.count
        usleep(200_000)
        #expect(listener.notifications.count == count)
    }

    /// Apps see the notification for their own saves too (Apple's sample filters its own author out
    /// of the history it fetches after one); here the coordinator's own commit reaches the file as any other.
    @Test func theCoordinatorsOwnSaveIsNotifiedToo() throws {
        let context = try HistoryStack.context(TestStack.temporaryStoreURL(), options: Self.options)
        let listener = Listener(context.persistentStoreCoordinator!)
        try context.performAndWait {
            TestStack.insert("Album", into: context, ["name": "mine"])
            try context.save()
        }
        let store = try #require(context.persistentStoreCoordinator!.persistentStores.first?.identifier)
        #expect(listener.wait(forTransaction: 1, store: store) != nil)
    }

    @Test func withoutTheOptionNothingIsPosted() throws {
        let url = TestStack.temporaryStoreURL()
        let quiet = try HistoryStack.context(url)
        let listener = Listener(quiet.persistentStoreCoordinator!)
        let other = try HistoryStack.context(url)
        try other.performAndWait {
            TestStack.insert("Album", into: other, ["name": "unheard"])
            try other.save()
        }
        usleep(300_000)
        #expect(listener.notifications.isEmpty)
    }

    /// https://developer.apple.com/documentation/coredata/nspersistentstorecoordinatorstoresdidchangenotification
    @Test func addingAndRemovingStoresPostsTheStoreNotifications() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: HistoryStack.model())
        // Posted synchronously on this thread by addPersistentStore and remove.
        final class Posted: @unchecked Sendable {
            var items: [(name: Notification.Name, info: [AnyHashable: Any]?)] = []
        }
        let posted = Posted()
        let names: [Notification.Name] = [.NSPersistentStoreCoordinatorStoresWillChange,
                                          .NSPersistentStoreCoordinatorStoresDidChange,
                                          .NSPersistentStoreCoordinatorWillRemoveStore]
        let observers = names.map { name in
            NotificationCenter.default.addObserver(forName: name, object: coordinator, queue: nil) {
                posted.items.append((name, $0.userInfo))
            }
        }
        defer { observers.forEach(NotificationCenter.default.removeObserver) }
        let store = try coordinator.addPersistentStore(type: .inMemory, at: URL(fileURLWithPath: "/dev/null"))
        #expect(posted.items.map(\.name) == [.NSPersistentStoreCoordinatorStoresWillChange,
                                             .NSPersistentStoreCoordinatorStoresDidChange])
        #expect((posted.items.last?.info?[NSAddedPersistentStoresKey] as? [NSPersistentStore])?.first === store)
        posted.items.removeAll()
        try coordinator.remove(store)
        #expect(posted.items.map(\.name) == [.NSPersistentStoreCoordinatorWillRemoveStore,
                                             .NSPersistentStoreCoordinatorStoresWillChange,
                                             .NSPersistentStoreCoordinatorStoresDidChange])
        #expect(posted.items.first?.info == nil)
        #expect((posted.items.last?.info?[NSRemovedPersistentStoresKey] as? [NSPersistentStore])?.first === store)
        #expect(NSUUIDChangedPersistentStoresKey == "changedUUID")
    }
}
