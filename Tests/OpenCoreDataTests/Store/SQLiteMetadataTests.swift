import Testing
import GRDB
@testable import OpenCoreDataCore
import TestScratch

/// Z_METADATA as Core Data writes it: read back from stores written on Apple
/// devices (shared/corpus/stores, with their decoded `.Z_METADATA.json`).
@Suite struct SQLiteMetadataTests {
    /// A writable copy of a corpus store with its -wal/-shm files (WAL stores
    /// need a writable -shm even to be read).
    static func copy(_ store: URL) throws -> URL {
        let folder = ScratchDirectory.url("ocd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let target = folder.appendingPathComponent(store.lastPathComponent)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: store.path + suffix) {
            try FileManager.default.copyItem(atPath: store.path + suffix, toPath: target.path + suffix)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target.path + suffix)
        }
        return target
    }

    @Test(.enabled(if: Corpus.stores != nil, "shared/corpus/stores is absent"))
    func corpusMetadataReadsAsCoreDataWroteIt() throws {
        let stores = Corpus.files(in: Corpus.stores, suffix: ".sqlite")
        var checked = 0, hashes = 0
        for store in stores {
            let jsonURL = URL(fileURLWithPath: store.path + ".Z_METADATA.json")
            guard let json = FileManager.default.contents(atPath: jsonURL.path),
                  let rows = try JSONSerialization.jsonObject(with: json) as? [[String: Any]],
                  let expected = rows.first else { continue }
            let copy = try Self.copy(store)
            defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
            let metadata = try SQLiteMetadata.read(at: copy)
            #expect(metadata["NSStoreUUID"] as? String == expected["Z_UUID"] as? String, "\(store.lastPathComponent)")
            let plist = expected["Z_PLIST"] as? [String: Any] ?? [:]
            #expect(metadata["NSStoreType"] as? String == plist["NSStoreType"] as? String)
            let expectedHashes = plist["NSStoreModelVersionHashes"] as? [String: [String: String]] ?? [:]
            let actualHashes = metadata["NSStoreModelVersionHashes"] as? [String: Data] ?? [:]
            #expect(Set(actualHashes.keys) == Set(expectedHashes.keys), "\(store.lastPathComponent)")
            for (entity, encoded) in expectedHashes {
                #expect(actualHashes[entity]?.base64EncodedString() == encoded["$base64"], "\(store.lastPathComponent) \(entity)")
                hashes += 1
            }
            checked += 1
        }
        print("corpus stores: metadata of \(checked) of \(stores.count) stores read, \(hashes) entity version hashes compared")
        #expect(checked == stores.count && checked > 40)
    }

    @Test func writeThenReadKeepsEveryKey() throws {
        let url = ScratchDirectory.url("meta-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: url) }
        let metadata: [String: Any] = [
            "NSStoreUUID": "B78DC464-0000-4000-8000-000000000001", "NSStoreType": "SQLite",
            "NSStoreModelVersionHashes": ["Album": Data(repeating: 7, count: 32)],
            "NSStoreModelVersionHashesVersion": 3, "NSStoreModelVersionIdentifiers": [""], "custom": "value",
        ]
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(sql: SQLiteMetadata.createTable)
            try SQLiteMetadata.write(metadata, db)
        }
        let read = try SQLiteMetadata.read(at: url)
        #expect(ValueEquality.equalDictionaries(read, metadata))
        #expect(try queue.read { try String.fetchOne($0, sql: "SELECT Z_UUID FROM Z_METADATA") } == "B78DC464-0000-4000-8000-000000000001")
    }

    /// The store writes Z_METADATA only in saves after the metadata was set;
    /// a value a property list cannot hold fails that save with an NSError
    /// and leaves the file as it was, and the store saves again once fixed.
    @Test func metadataIsWrittenWhenSetAndABadValueFailsTheSave() throws {
        let context = try TestStack.context(TestStack.albumsModel(), .sqlite)
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first)
        let url = try #require(store.url)
        func saved() throws -> [String: Any] {
            try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url,
                                                                        options: nil)
        }
        try context.performAndWait { () throws in
            store.metadata["note"] = NSObject()
            TestStack.insert("Album", into: context, ["name": "a"])
            #expect(throws: NSError.self) { try context.save() }
            #expect(try saved()["note"] == nil)
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Album")) == 1)
            store.metadata["note"] = "fine"
            try context.save()
            #expect(try saved()["note"] as? String == "fine")
            // A save that doesn't set the metadata keeps what the last one wrote.
            TestStack.insert("Album", into: context, ["name": "b"])
            try context.save()
            #expect(try saved()["note"] as? String == "fine")
        }
        let reader = try TestStack.reader(of: context)
        try reader.performAndWait { () throws in
            #expect(try reader.count(for: NSFetchRequest<NSManagedObject>(entityName: "Album")) == 2)
        }
    }

    @Test func filesThatAreNotStoresGiveCoreDataErrors() throws {
        #expect(throws: NSError.self) { try SQLiteMetadata.read(at: URL(fileURLWithPath: "/nonexistent.sqlite")) }
        do {
            _ = try SQLiteMetadata.read(at: URL(fileURLWithPath: "/nonexistent.sqlite"))
        } catch let error as NSError {
            #expect(error.code == CocoaError.fileReadNoSuchFile.rawValue)
        }
        let text = ScratchDirectory.url("text-\(UUID().uuidString).sqlite")
        try Data("not a database".utf8).write(to: text)
        defer { try? FileManager.default.removeItem(at: text) }
        do {
            _ = try SQLiteMetadata.read(at: text)
            Issue.record("a text file read as a store")
        } catch let error as NSError {
            #expect(error.domain == NSCocoaErrorDomain && error.code == NSPersistentStoreInvalidTypeError)
        }
        let empty = ScratchDirectory.url("empty-\(UUID().uuidString).sqlite")
        try DatabaseQueue(path: empty.path).write { try $0.execute(sql: "CREATE TABLE t(a)") }
        defer { try? FileManager.default.removeItem(at: empty) }
        do {
            _ = try SQLiteMetadata.read(at: empty)
            Issue.record("a plain SQLite file read as a store")
        } catch let error as NSError {
            #expect(error.code == NSPersistentStoreInvalidTypeError && error.localizedDescription.contains("Z_METADATA"))
        }
    }
}
