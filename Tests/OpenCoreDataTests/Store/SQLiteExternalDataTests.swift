import Testing
import GRDB
@testable import OpenCoreDataCore

/// Attributes with `allowsExternalBinaryDataStorage` in the SQLite store:
/// large values in files beside the store, small ones inline, and no save,
/// failed or not, leaving a row that points to a missing file.
@Suite struct SQLiteExternalDataTests {
    /// Photo: `image` (binary) and `payload` (transformable) allow external
    /// storage; `other` (transformable) is there to make a save fail.
    static func model() -> NSManagedObjectModel {
        let photo = NSEntityDescription(name: "Photo")
        let image = TestStack.attribute("image", .binaryDataAttributeType)
        image.allowsExternalBinaryDataStorage = true
        let payload = TestStack.attribute("payload", .transformableAttributeType)
        payload.allowsExternalBinaryDataStorage = true
        photo.properties = [TestStack.attribute("name", .stringAttributeType), image, payload,
                            TestStack.attribute("other", .transformableAttributeType)]
        let model = NSManagedObjectModel()
        model.entities = [photo]
        return model
    }

    static let large = SQLiteExternalData.threshold

    /// `count` bytes that differ with `seed`.
    static func bytes(_ count: Int, seed: UInt8 = 0) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) &+ seed })
    }

    static func folder(of context: NSManagedObjectContext) -> URL {
        SQLiteExternalData(storeURL: SQLiteStoreTests.url(of: context)).folder
    }

    /// The file names in the external data folder, sorted; none when it does not exist.
    static func files(of context: NSManagedObjectContext) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder(of: context).path)) ?? []).sorted()
    }

    /// The stored `ZIMAGE` bytes of every row, by name.
    static func imageColumns(of context: NSManagedObjectContext) throws -> [String: Data] {
        try SQLiteStoreTests.raw(SQLiteStoreTests.url(of: context)).read { (db: Database) throws in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT ZNAME, ZIMAGE FROM ZPHOTO").map { ($0[0] as String, $0[1] as Data) })
        }
    }

    /// The values of `key` stored for each photo, by name, as a new coordinator reads them.
    static func stored(_ key: String, of context: NSManagedObjectContext) throws -> [String: Data] {
        let reader = try TestStack.reader(of: context)
        let photos = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Photo"))
        return Dictionary(uniqueKeysWithValues: photos.map { ($0.value(forKey: "name") as! String, $0.value(forKey: key) as? Data ?? Data()) })
    }

    @Test func largeValueGoesToAFileNamedByAUUID() throws {
        let context = try TestStack.context(Self.model(), .sqlite)
        let image = Self.bytes(Self.large)
        _ = TestStack.insert("Photo", into: context, ["name": "big", "image": image])
        try context.save()
        let column = try #require(try Self.imageColumns(of: context)["big"])
        // Core Data's bytes: tag 2, the file name, a NUL.
        #expect(column.first == 2 && column.last == 0)
        let name = try #require(String(data: column.dropFirst().dropLast(), encoding: .ascii))
        #expect(UUID(uuidString: name) != nil)
        #expect(Self.files(of: context) == [name])
        #expect(try Data(contentsOf: Self.folder(of: context).appendingPathComponent(name)) == image)
        #expect(Self.folder(of: context).path.hasSuffix("/.Store_SUPPORT/_EXTERNAL_DATA"))
    }

    @Test func smallValueStaysInlineTaggedOne() throws {
        let context = try TestStack.context(Self.model(), .sqlite)
        let small = Self.bytes(Self.large - 1)
        _ = TestStack.insert("Photo", into: context, ["name": "small", "image": small])
        _ = TestStack.insert("Photo", into: context, ["name": "tiny", "image": Data([7, 8])])
        try context.save()
        let columns = try Self.imageColumns(of: context)
        #expect(columns["small"] == Data([1]) + small)
        #expect(columns["tiny"] == Data([1, 7, 8]))
        #expect(Self.files(of: context).isEmpty)
    }

    @Test func valuesReadBackAfterReopening() throws {
        let context = try TestStack.context(Self.model(), .sqlite)
        let values = ["big": Self.bytes(Self.large * 3, seed: 1), "small": Self.bytes(100, seed: 2)]
        for (name, data) in values {
            _ = TestStack.insert("Photo", into: context, ["name": name, "image": data, "payload": data + data])
        }
        try context.save()
        #expect(Self.files(of: context).count == 2) // big's image and payload; small's payload is below the threshold
        #expect(try Self.stored("image", of: context) == values)
        #expect(try Self.stored("payload", of: context) == values.mapValues { $0 + $0 })
    }

    @Test func updateReplacesTheFileAndRemovesTheOldOneAfterTheSave() throws {
        let context = try TestStack.context(Self.model(), .sqlite)
        let photo = TestStack.insert("Photo", into: context, ["name": "p", "image": Self.bytes(Self.large, seed: 1)])
        try context.save()
        let first = Self.files(of: context)

        photo.setValue("renamed", forKey: "name")
        try context.save()
        #expect(Self.files(of: context) == first, "an unchanged value keeps its file")

        let replacement = Self.bytes(Self.large + 10, seed: 2)
        photo.setValue(replacement, forKey: "image")
        try context.save()
        let second = Self.files(of: context)
        #expect(second.count == 1 && second != first)
        #expect(try Self.stored("image", of: context) == ["renamed": replacement])

        photo.setValue(Data([5]), forKey: "image")
        try context.save()
        #expect(Self.files(of: context).isEmpty)
        #expect(try Self.imageColumns(of: context) == ["renamed": Data([1, 5])])
    }

    @Test func deleteRemovesTheFile() throws {
        let context = try TestStack.context(Self.model(), .sqlite)
        let gone = TestStack.insert("Photo", into: context, ["name": "gone", "image": Self.bytes(Self.large, seed: 1)])
        _ = TestStack.insert("Photo", into: context, ["name": "kept", "image": Self.bytes(Self.large, seed: 2)])
        try context.save()
        #expect(Self.files(of: context).count == 2)
        context.delete(gone)
        try context.save()
        #expect(Self.files(of: context).count == 1)
        #expect(try Self.stored("image", of: context) == ["kept": Self.bytes(Self.large, seed: 2)])
    }

    /// A save that fails after it wrote files (an insert with a large value,
    /// then an update the store cannot write) removes them and keeps the old
    /// rows and files.
    @Test func failedSaveLeavesNoNewFilesAndTheOldDataIntact() throws {
        let context = try TestStack.context(Self.model(), .sqlite)
        let old = Self.bytes(Self.large, seed: 1)
        let photo = TestStack.insert("Photo", into: context, ["name": "old", "image": old])
        let bad = TestStack.insert("Photo", into: context, ["name": "bad"])
        try context.save()
        let before = Self.files(of: context)

        _ = TestStack.insert("Photo", into: context, ["name": "new", "image": Self.bytes(Self.large, seed: 2)])
        photo.setValue(Self.bytes(Self.large, seed: 3), forKey: "image")
        bad.setValue(NSObject(), forKey: "other")
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.code == NSPersistentStoreSaveError)
        #expect(Self.files(of: context) == before)
        #expect(try Self.stored("image", of: context) == ["old": old, "bad": Data()])
    }

    /// A file that cannot be written fails the save with 134030 and the file
    /// system's error underneath; no row is written.
    @Test func unwritableFolderFailsTheSave() throws {
        let context = try TestStack.context(Self.model(), .sqlite)
        // A plain file where the support folder should be.
        let support = Self.folder(of: context).deletingLastPathComponent()
        #expect(FileManager.default.createFile(atPath: support.path, contents: Data()))
        _ = TestStack.insert("Photo", into: context, ["name": "big", "image": Self.bytes(Self.large)])
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.domain == NSCocoaErrorDomain && error.code == NSPersistentStoreSaveError)
        #expect(error.userInfo[NSUnderlyingErrorKey] is NSError)
        #expect((error.userInfo[NSFilePathErrorKey] as? String)?.hasPrefix(Self.folder(of: context).path + "/") == true)
        #expect(try Self.stored("image", of: context).isEmpty)
    }

    /// A reference as Core Data writes it (tag 2, an uppercase UUID, a NUL),
    /// with its file, reads as the file's bytes; a missing file reads as no value.
    @Test func readsAReferenceCoreDataWrote() throws {
        let context = try TestStack.context(Self.model(), .sqlite)
        _ = TestStack.insert("Photo", into: context, ["name": "apple"])
        _ = TestStack.insert("Photo", into: context, ["name": "lost"])
        try context.save()
        let name = UUID().uuidString, content = Self.bytes(300_000, seed: 9)
        try FileManager.default.createDirectory(at: Self.folder(of: context), withIntermediateDirectories: true)
        try content.write(to: Self.folder(of: context).appendingPathComponent(name))
        try DatabaseQueue(path: SQLiteStoreTests.url(of: context).path).write { db in
            let reference = Data([2]) + Data(name.utf8) + Data([0])
            try db.execute(sql: "UPDATE ZPHOTO SET ZIMAGE = ? WHERE ZNAME = 'apple'", arguments: [reference])
            try db.execute(sql: "UPDATE ZPHOTO SET ZIMAGE = ? WHERE ZNAME = 'lost'", arguments: [Data([2]) + Data(UUID().uuidString.utf8) + Data([0])])
        }
        #expect(try Self.stored("image", of: context) == ["apple": content, "lost": Data()])
    }

    @Test func inMemoryStoreKeepsLargeValuesAsTheyAre() throws {
        let context = try TestStack.context(Self.model(), .inMemory)
        let image = Self.bytes(Self.large * 2)
        _ = TestStack.insert("Photo", into: context, ["name": "big", "image": image])
        try context.save()
        let sibling = TestStack.sibling(of: context)
        let photos = try sibling.fetch(NSFetchRequest<NSManagedObject>(entityName: "Photo"))
        #expect(photos.map { $0.value(forKey: "image") as? Data } == [image])
    }
}
