import Testing
import GRDB
@testable import OpenCoreDataCore

/// Stores [Int] as the UTF-8 of "ints:1,2,3": readable bytes, so the test can
/// see which direction the store ran it in.
final class IntListTransformer: ValueTransformer {
    override class func transformedValueClass() -> AnyClass { NSData.self }
    override class func allowsReverseTransformation() -> Bool { true }

    override func transformedValue(_ value: Any?) -> Any? {
        (value as? [Int]).map { Data(("ints:" + $0.map(String.init).joined(separator: ",")).utf8) }
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data, let text = String(data: data, encoding: .utf8), text.hasPrefix("ints:") else { return nil }
        return text.dropFirst(5).split(separator: ",").compactMap { Int($0) }
    }
}

/// Transformable attributes whose transformer is looked up by name in OpenCoreData's `ValueTransformer` registry.
@Suite struct SQLiteValueTransformerTests {
    static func model(transformer: String) -> NSManagedObjectModel {
        let note = NSEntityDescription(name: "Note")
        let payload = TestStack.attribute("payload", .transformableAttributeType)
        payload.valueTransformerName = transformer
        note.properties = [TestStack.attribute("name", .stringAttributeType), payload]
        let model = NSManagedObjectModel()
        model.entities = [note]
        return model
    }

    @Test func registryFindsWhatWasRegisteredAndTheBuiltInUnarchivers() {
        let name = NSValueTransformerName("RegistryTest-\(UUID().uuidString)")
        #expect(ValueTransformer.valueTransformer(forName: name) == nil)
        let transformer = IntListTransformer()
        ValueTransformer.setValueTransformer(transformer, forName: name)
        #expect(ValueTransformer.valueTransformer(forName: name) === transformer)
        #expect(ValueTransformer.valueTransformerNames().contains(name))
        #expect(ValueTransformer.valueTransformer(forName: .secureUnarchiveFromDataTransformerName) is NSSecureUnarchiveFromDataTransformer)
        #expect(ValueTransformer.valueTransformer(forName: .keyedUnarchiveFromDataTransformerName) != nil)
        ValueTransformer.setValueTransformer(nil, forName: name)
        #expect(ValueTransformer.valueTransformer(forName: name) == nil)
    }

    /// Apple: the transformer "must output an NSData object from
    /// transformedValue: and must allow reverse transformations"
    /// (developer.apple.com/documentation/coredata/nsattributedescription/valuetransformername),
    /// so saving stores transformedValue's Data and reading runs reverseTransformedValue.
    @Test func customTransformerRoundTripsThroughTheStore() throws {
        let name = "IntList-\(UUID().uuidString)"
        ValueTransformer.setValueTransformer(IntListTransformer(), forName: NSValueTransformerName(name))
        let context = try TestStack.context(Self.model(transformer: name), .sqlite)
        _ = TestStack.insert("Note", into: context, ["name": "n", "payload": [3, 1, 4]])
        try context.save()
        let url = context.persistentStoreCoordinator!.persistentStores[0].url!
        let stored = try SQLiteStoreTests.raw(url).read { db in try Data.fetchOne(db, sql: "SELECT ZPAYLOAD FROM ZNOTE") }
        #expect(stored == Data("ints:3,1,4".utf8))

        let reader = try TestStack.reader(of: context)
        let note = try #require(try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note")).first)
        #expect(note.value(forKey: "payload") as? [Int] == [3, 1, 4])
    }

    /// A subclass of NSSecureUnarchiveFromDataTransformer under its own name
    /// runs reversed, as Core Data runs it: archive on save, unarchive on read.
    @Test func secureUnarchiverSubclassArchives() throws {
        final class Strings: NSSecureUnarchiveFromDataTransformer {
            override class var allowedTopLevelClasses: [AnyClass] { [NSArray.self, NSString.self] }
        }
        let name = "Strings-\(UUID().uuidString)"
        ValueTransformer.setValueTransformer(Strings(), forName: NSValueTransformerName(name))
        let context = try TestStack.context(Self.model(transformer: name), .sqlite)
        _ = TestStack.insert("Note", into: context, ["name": "n", "payload": ["a", "b"]])
        try context.save()
        let reader = try TestStack.reader(of: context)
        let note = try #require(try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note")).first)
        #expect(note.value(forKey: "payload") as? [String] == ["a", "b"])
    }

    /// A name nobody registered: saving a value fails with 134030 naming the
    /// transformer; Data is stored as is and reads back as Data.
    @Test func unregisteredTransformerFailsTheSave() throws {
        let context = try TestStack.context(Self.model(transformer: "NobodyRegisteredThis"), .sqlite)
        _ = TestStack.insert("Note", into: context, ["name": "n", "payload": [1, 2]])
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.code == NSPersistentStoreSaveError)
        #expect(error.localizedDescription.contains("NobodyRegisteredThis"), "\(error)")

        context.rollback()
        _ = TestStack.insert("Note", into: context, ["name": "d", "payload": Data([7, 7])])
        try context.save()
        let reader = try TestStack.reader(of: context)
        let note = try #require(try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note")).first)
        #expect(note.value(forKey: "payload") as? Data == Data([7, 7]))
    }
}
