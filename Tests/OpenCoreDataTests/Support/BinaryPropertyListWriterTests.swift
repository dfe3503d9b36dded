import Foundation
import Testing
@testable import OpenCoreDataCore

/// `BinaryPropertyList.encode` against Foundation's `PropertyListSerialization`:
/// what it writes, Foundation's reader (CoreFoundation's, as on Apple's
/// systems) reads to the values Foundation's own writer's bytes read to;
/// what it leaves to Foundation, it returns nil for.
@Suite struct BinaryPropertyListWriterTests {
    typealias Lists = BinaryPropertyListTests

    /// Foundation's reading of `data`, which must be a dictionary.
    static func foundationRead(_ data: Data) throws -> [String: Any] {
        try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    }

    /// `value` written by this writer and by Foundation's: both read back the same, by Foundation and by
    /// this project's reader (whose dictionaries are `[AnyHashable: Any]`, as Foundation's are before a cast).
    static func expectWrittenAsFoundationWritesIt(_ value: [String: Any], _ comment: Comment) throws {
        let native = try #require(BinaryPropertyList.encode(value), comment)
        let foundation = try PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)
        let expected = try foundationRead(foundation)
        #expect(Lists.difference(try foundationRead(native), expected) == nil, comment)
        let readHere = try #require(try BinaryPropertyList.decode(native), comment)
        let expectedUncast = try PropertyListSerialization.propertyList(from: foundation, format: nil)
        #expect(Lists.difference(readHere, expectedUncast) == nil, comment)
    }

    @Test func randomPropertyListsWriteAsFoundationWritesThem() throws {
        var generator = SeededGenerator(seed: 77)
        for round in 0..<300 {
            let value: [String: Any] = ["root": Lists.randomValue(&generator), "n": round]
            try Self.expectWrittenAsFoundationWritesIt(value, "round \(round)")
            // The same values as Foundation's reader makes them (NSNumber, its Booleans): written alike.
            let foundationValues = try Self.foundationRead(
                PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0))
            try Self.expectWrittenAsFoundationWritesIt(foundationValues, "round \(round), Foundation's values")
        }
    }

    /// Every corpus store's metadata, as Core Data wrote it on Apple devices, written again.
    @Test func corpusMetadataWritesAsFoundationWritesIt() throws {
        var written = 0
        for (url, blob) in try Lists.corpusMetadata() {
            try Self.expectWrittenAsFoundationWritesIt(try Self.foundationRead(blob), "\(url.lastPathComponent)")
            let native = try #require(try BinaryPropertyList.decode(blob) as? [AnyHashable: Any])
            let rewritten = try #require(BinaryPropertyList.encode(native), "\(url.lastPathComponent)")
            #expect(Lists.difference(try Self.foundationRead(rewritten), try Self.foundationRead(blob)) == nil,
                    "\(url.lastPathComponent)")
            written += 1
        }
        if Corpus.root != nil { #expect(written >= 40) }
    }

    /// Sizes past each boundary of the format: counts from 15 (an integer after the marker) and past one,
    /// two and four bytes, references past one and two bytes, offsets past two bytes.
    @Test func sizesPastEveryBoundaryWriteAsFoundationWritesThem() throws {
        let counts = [14, 15, 16, 255, 256, 65_535, 65_536, 70_000]
        for count in counts {
            let value: [String: Any] = [
                "ascii": String(repeating: "a", count: count),
                "utf16": String(repeating: "é", count: count),
                "data": Data(repeating: 7, count: count),
            ]
            try Self.expectWrittenAsFoundationWritesIt(value, "count \(count)")
        }
        for count in [14, 15, 255, 256, 300] {
            let entries = (0..<count).map { ("k\($0)", $0) }
            let value: [String: Any] = ["array": (0..<count).map { $0 },
                                        "dictionary": Dictionary(uniqueKeysWithValues: entries)]
            try Self.expectWrittenAsFoundationWritesIt(value, "\(count) elements")
        }
        try Self.expectWrittenAsFoundationWritesIt(["array": (0..<70_000).map { $0 }], "70,000 elements")
        let integers: [Any] = [0, 1, 255, 256, 65_535, 65_536, Int(UInt32.max), Int(UInt32.max) + 1, Int.max, -1,
                               Int.min, Int32.min, Int16(-2), Int64(5)]
        try Self.expectWrittenAsFoundationWritesIt(["integers": integers], "integers")
    }

    @Test func numbersAreWrittenByTheirKind() throws {
        let numbers: [String: Any] = [
            "true": NSNumber(value: true), "false": NSNumber(value: false), "int8": NSNumber(value: Int8(-3)),
            "uint8": NSNumber(value: UInt8(200)), "uint32": NSNumber(value: UInt32.max),
            "uint64": NSNumber(value: UInt64(Int64.max)), "double": NSNumber(value: 2.5), "one": NSNumber(value: 1),
            "int64": NSNumber(value: Int64.min),
        ]
        try Self.expectWrittenAsFoundationWritesIt(numbers, "numbers")
        let read = try Self.foundationRead(try #require(BinaryPropertyList.encode(numbers)))
        #expect(read["true"] as? Bool == true)
        #expect(read["one"] is NSNumber && String(cString: (read["one"] as! NSNumber).objCType) != "c")
        #expect((read["int8"] as? NSNumber)?.int64Value == -3)
    }

    /// Equal dictionaries make equal bytes, whatever order their keys were added in.
    @Test func equalDictionariesWriteEqualBytes() throws {
        var forward: [String: Any] = [:], backward: [String: Any] = [:]
        for index in 0..<50 { forward["key\(index)"] = index }
        for index in (0..<50).reversed() { backward["key\(index)"] = index }
        #expect(BinaryPropertyList.encode(forward) == BinaryPropertyList.encode(backward))
    }

    /// What Foundation writes in a form of its own, or not at all, is left to it.
    @Test func whatFoundationWritesIsLeftToIt() throws {
        var deep: Any = "leaf"
        for _ in 0...BinaryPropertyList.maximumDepth { deep = [deep] }
        let leftToFoundation: [Any] = [
            Float(1.5), NSNumber(value: Float(1.5)), UInt64.max, NSNumber(value: UInt64.max),
            NSDecimalNumber(string: "1.25"), [1: "a"] as [AnyHashable: Any], NSNull(), URL(fileURLWithPath: "/tmp"),
            NSString(string: "text"), NSArray(array: [1]), UInt64(5), UInt(5), deep,
        ]
        for value in leftToFoundation {
            #expect(BinaryPropertyList.encode(["k": value]) == nil, "\(type(of: value))")
        }
        var shallow: Any = "leaf"
        for _ in 0..<(BinaryPropertyList.maximumDepth - 1) { shallow = [shallow] }
        #expect(BinaryPropertyList.encode(["k": shallow]) != nil)
    }

    /// A store's metadata holding values this writer leaves to Foundation is written by Foundation.
    @Test func storeMetadataWithFoundationsValuesIsKept() throws {
        let context = try TestStack.context(SQLiteStoreTests.model(), .sqlite)
        let coordinator = try #require(context.persistentStoreCoordinator)
        let store = coordinator.persistentStores[0]
        var metadata = coordinator.metadata(for: store)
        metadata["float"] = Float(1.5)
        metadata["huge"] = UInt64.max
        metadata["plain"] = "text"
        coordinator.setMetadata(metadata, for: store)
        _ = TestStack.insert("Box", into: context, ["name": "b"])
        try context.save()
        let read = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType,
                                                                                at: try #require(store.url))
        #expect((read["float"] as? NSNumber)?.floatValue == 1.5)
        #expect((read["huge"] as? NSNumber)?.uint64Value == UInt64.max)
        #expect(read["plain"] as? String == "text")
        #expect(read[NSStoreUUIDKey] as? String == store.identifier)
    }
}
