import Foundation
import GRDB
import Testing
@testable import OpenCoreDataCore

/// The coordinator's operations on whole stores, with Apple's signatures
/// (both the `type:` StoreType and the older `ofType:`/`withType:` String
/// spellings), from Apple's documentation, the pages under
/// https://developer.apple.com/documentation/coredata/nspersistentstorecoordinator/ named
/// metadataforpersistentstore(oftype:at:options:), setmetadata(_:for:),
/// replacepersistentstore(at:destinationoptions:withpersistentstorefrom:sourceoptions:type:),
/// destroypersistentstore(at:type:options:) and migratepersistentstore(_:to:options:type:)
/// (the member list with both spellings: https://onestack.dev/ios-reference/CoreData/NSPersistentStoreCoordinator).
@Suite struct StoreFileOperationsTests {
    /// A SQLite store at a new URL holding a box "b" with the things "t0"…"t2" in that order.
    static func filledStore() throws -> (NSPersistentStoreCoordinator, URL) {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: SQLiteStoreTests.model())
        let url = TestStack.temporaryStoreURL()
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        try fill(coordinator)
        return (coordinator, url)
    }

    static func fill(_ coordinator: NSPersistentStoreCoordinator) throws {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let box = NSEntityDescription.insertNewObject(forEntityName: "Box", into: context)
            box.setValue("b", forKey: "name")
            let things = (0..<3).map { index in
                let thing = NSEntityDescription.insertNewObject(forEntityName: "Thing", into: context)
                thing.setValue("t\(index)", forKey: "name")
                return thing
            }
            box.setValue(NSOrderedSet(array: things), forKey: "things")
            try context.save()
        }
    }

    /// The box's name and its things' names in order, as `coordinator` reads them.
    static func contents(_ coordinator: NSPersistentStoreCoordinator) throws -> [String] {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return try context.performAndWait {
            let boxes = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Box"))
            return boxes.flatMap { box in
                [box.value(forKey: "name") as? String ?? "?"] + ((box.value(forKey: "things") as? NSOrderedSet)?
                    .array.map { ($0 as! NSManagedObject).value(forKey: "name") as? String ?? "?" } ?? [])
            }
        }
    }

    static func opened(_ url: URL) throws -> NSPersistentStoreCoordinator {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: SQLiteStoreTests.model())
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        return coordinator
    }

    @Test func metadataSetOnAStoreIsWrittenWithTheNextSave() throws {
        let (coordinator, url) = try Self.filledStore()
        let store = coordinator.persistentStores[0]
        var metadata = coordinator.metadata(for: store)
        metadata["appVersion"] = "2.0"
        coordinator.setMetadata(metadata, for: store)
        #expect(try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url,
                                                                           options: nil)["appVersion"] == nil)
        try Self.fill(coordinator)
        let written = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
        #expect(written["appVersion"] as? String == "2.0")
        #expect(written[NSStoreUUIDKey] as? String == store.identifier)
    }

    @Test func replacingCopiesTheWholeStoreAndItsIdentity() throws {
        let (coordinator, source) = try Self.filledStore()
        let uuid = coordinator.persistentStores[0].identifier
        let destination = TestStack.temporaryStoreURL("Copy.sqlite")
        try coordinator.replacePersistentStore(at: destination, withPersistentStoreFrom: source, type: .sqlite)
        #expect(try Self.contents(Self.opened(destination)) == ["b", "t0", "t1", "t2"])
        let copied = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: destination)
        #expect(copied[NSStoreUUIDKey] as? String == uuid)

        // Over an existing store, with the older spelling: the destination becomes the source's copy.
        let other = NSPersistentStoreCoordinator(managedObjectModel: SQLiteStoreTests.model())
        let existing = TestStack.temporaryStoreURL("Existing.sqlite")
        try other.addPersistentStore(type: .sqlite, at: existing)
        try other.remove(other.persistentStores[0])
        try coordinator.replacePersistentStore(at: existing, destinationOptions: nil, withPersistentStoreFrom: source,
                                               sourceOptions: nil, ofType: NSSQLiteStoreType)
        #expect(try Self.contents(Self.opened(existing)) == ["b", "t0", "t1", "t2"])
    }

    @Test func replacingRefusesWhatItCannotCopy() throws {
        let (coordinator, source) = try Self.filledStore()
        func code(_ body: () throws -> Void) -> Int? { (#expect(throws: NSError.self, performing: body))?.code }
        // No source file: 260, as metadataForPersistentStore.
        #expect(code { try coordinator.replacePersistentStore(at: source, withPersistentStoreFrom:
                    TestStack.temporaryStoreURL(), type: .sqlite) } == CocoaError.fileReadNoSuchFile.rawValue)
        let copy = TestStack.temporaryStoreURL("Copy.sqlite")
        try coordinator.replacePersistentStore(at: copy, withPersistentStoreFrom: source, type: .sqlite)
        try coordinator.addPersistentStore(type: .sqlite, at: copy)
        #expect(code { try coordinator.replacePersistentStore(at: copy, withPersistentStoreFrom: source,
                                                               type: .sqlite) } == NSPersistentStoreOperationError)
        let plain = TestStack.temporaryStoreURL("Plain.sqlite")
        try DatabaseQueue(path: plain.path).write { try $0.execute(sql: "CREATE TABLE t (x)") }
        #expect(code { try coordinator.replacePersistentStore(at: TestStack.temporaryStoreURL(),
                                                               withPersistentStoreFrom: plain, type: .sqlite) }
            == NSPersistentStoreInvalidTypeError)
        #expect(code { try coordinator.replacePersistentStore(at: copy, withPersistentStoreFrom: source,
                                                               type: .inMemory) } == NSPersistentStoreInvalidTypeError)
    }

    @Test func destroyingEmptiesTheFileSoANewStoreStartsThere() throws {
        let (coordinator, url) = try Self.filledStore()
        let uuid = coordinator.persistentStores[0].identifier
        try coordinator.remove(coordinator.persistentStores[0])
        try coordinator.destroyPersistentStore(at: url, type: .sqlite)
        let error = #expect(throws: NSError.self) {
            try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
        }
        #expect(error?.code == NSPersistentStoreInvalidTypeError)
        let reopened = try Self.opened(url)
        #expect(try Self.contents(reopened) == [])
        #expect(reopened.persistentStores[0].identifier != uuid)
        // No file: nothing to do (older spelling).
        try coordinator.destroyPersistentStore(at: TestStack.temporaryStoreURL("None.sqlite"),
                                               ofType: NSSQLiteStoreType, options: nil)
        #expect(throws: NSError.self) { try coordinator.destroyPersistentStore(at: url, type: .inMemory) }
    }

    @Test func migratingToSQLiteCopiesTheFileAndSwapsTheStore() throws {
        let (coordinator, url) = try Self.filledStore()
        let old = coordinator.persistentStores[0]
        var metadata = coordinator.metadata(for: old)
        metadata["unsaved"] = true
        coordinator.setMetadata(metadata, for: old)
        let target = TestStack.temporaryStoreURL("Moved.sqlite")
        let moved = try coordinator.migratePersistentStore(old, to: target, type: .sqlite)
        #expect(coordinator.persistentStores.count == 1 && coordinator.persistentStores[0] === moved)
        #expect(moved.url == target && moved.identifier == old.identifier)
        #expect(try Self.contents(coordinator) == ["b", "t0", "t1", "t2"])
        #expect(FileManager.default.fileExists(atPath: url.path))
        // Metadata set but not yet saved on the old store moves with it and is written by the next save.
        #expect(coordinator.metadata(for: moved)["unsaved"] as? Bool == true)
        try Self.fill(coordinator)
        #expect(try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: target)["unsaved"]
            as? Bool == true)
    }

    @Test func migratingToAnotherTypeCopiesEveryObjectAndTheOrder() throws {
        let (coordinator, _) = try Self.filledStore()
        var metadata = coordinator.metadata(for: coordinator.persistentStores[0])
        metadata["appVersion"] = "2.0"
        coordinator.setMetadata(metadata, for: coordinator.persistentStores[0])
        let memory = try coordinator.migratePersistentStore(coordinator.persistentStores[0],
                                                            to: URL(fileURLWithPath: "/dev/null"), options: nil,
                                                            withType: NSInMemoryStoreType)
        #expect(memory.type == NSInMemoryStoreType && coordinator.persistentStores.count == 1)
        #expect(try Self.contents(coordinator) == ["b", "t0", "t1", "t2"])
        #expect(coordinator.metadata(for: memory)["appVersion"] as? String == "2.0")

        // And back to a new file, which another coordinator then reads.
        let file = TestStack.temporaryStoreURL("Back.sqlite")
        try coordinator.migratePersistentStore(memory, to: file, type: .sqlite)
        #expect(try Self.contents(Self.opened(file)) == ["b", "t0", "t1", "t2"])
    }

    @Test func migratingRefusesForeignStoresItsOwnPlaceAndUnknownTypes() throws {
        let (coordinator, url) = try Self.filledStore()
        let (other, _) = try Self.filledStore()
        let store = coordinator.persistentStores[0]
        func code(_ body: () throws -> Void) -> Int? { (#expect(throws: NSError.self, performing: body))?.code }
        #expect(code { try coordinator.migratePersistentStore(other.persistentStores[0],
                                                               to: TestStack.temporaryStoreURL(), type: .sqlite) }
            == NSPersistentStoreOperationError)
        #expect(code { try coordinator.migratePersistentStore(store, to: url, type: .sqlite) }
            == NSPersistentStoreOperationError)
        #expect(code { try coordinator.migratePersistentStore(store, to: TestStack.temporaryStoreURL(),
                                                               withType: "Nope") } == NSPersistentStoreInvalidTypeError)
        #expect(coordinator.persistentStores.count == 1 && coordinator.persistentStores[0] === store)
    }
}
