import Foundation
import GRDB
import Testing
@testable import OpenCoreDataCore

/// `BinaryPropertyList` against Foundation's `PropertyListSerialization`:
/// the same values for every store's metadata in the corpus and for random
/// property lists, nil for what it leaves to Foundation, and an error, never
/// a crash or a hang, for damaged data.
@Suite struct BinaryPropertyListTests {
    /// Whether `native` (this reader's value) is `foundation` (Foundation's):
    /// the same type and value; nil when they are, else where they differ.
    static func difference(_ native: Any, _ foundation: Any, at path: String = "") -> String? {
        guard type(of: native) == type(of: foundation) else {
            return "\(path): \(type(of: native)) against \(type(of: foundation))"
        }
        switch native {
        case let dictionary as [String: Any]:
            guard let other = foundation as? [String: Any], Set(other.keys) == Set(dictionary.keys) else {
                return "\(path): dictionary keys"
            }
            return dictionary.keys.sorted().lazy
                .compactMap { difference(dictionary[$0]!, other[$0]!, at: path + "/" + $0) }.first
        case let array as [Any]:
            guard let other = foundation as? [Any], other.count == array.count else { return "\(path): array" }
            return array.indices.lazy.compactMap { difference(array[$0], other[$0], at: "\(path)[\($0)]") }.first
        case let bool as Bool: return foundation as? Bool == bool ? nil : "\(path): \(bool)"
        case let number as NSNumber:
            return (foundation as? NSNumber).map(number.isEqual) == true
                || (number.doubleValue.isNaN && (foundation as? NSNumber)?.doubleValue.isNaN == true)
                ? nil : "\(path): \(number)"
        case let string as String: return foundation as? String == string ? nil : "\(path): \(string)"
        case let data as Data: return foundation as? Data == data ? nil : "\(path): \(data)"
        case let date as Date: return foundation as? Date == date ? nil : "\(path): \(date)"
        default: return "\(path): \(type(of: native))"
        }
    }

    /// Every corpus store's Z_PLIST, as Core Data wrote it on Apple devices, with the store's URL.
    static func corpusMetadata() throws -> [(url: URL, plist: Data)] {
        try Corpus.files(in: Corpus.stores, suffix: ".sqlite").compactMap { url in
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: url.path, configuration: configuration)
            let blob = try queue.read { db in
                try db.tableExists("Z_METADATA")
                    ? Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1") : nil
            }
            return blob.map { (url, $0) }
        }
    }

    @Test func corpusMetadataReadsAsFoundationReadsIt() throws {
        var compared = 0
        for (url, blob) in try Self.corpusMetadata() {
            let native = try #require(try BinaryPropertyList.decode(blob), "\(url.lastPathComponent)")
            let foundation = try PropertyListSerialization.propertyList(from: blob, format: nil)
            #expect(Self.difference(native, foundation) == nil, "\(url.lastPathComponent)")
            let hashes = (native as? [String: Any])?["NSStoreModelVersionHashes"] as? [String: Data]
            #expect(hashes?.values.allSatisfy { $0.count == 32 } == true, "\(url.lastPathComponent)")
            compared += 1
        }
        if Corpus.root != nil { #expect(compared >= 40) }
    }

    static func randomValue(_ generator: inout SeededGenerator, depth: Int = 0) -> Any {
        let kind = Int.random(in: depth < 3 ? 0...9 : 0...7, using: &generator)
        func count(_ maximum: Int) -> Int { Int.random(in: 0...maximum, using: &generator) }
        switch kind {
        case 0: return Bool.random(using: &generator)
        case 1: return [0, 1, -1, 255, 256, 65_535, 65_536, Int(Int32.max), Int(UInt32.max), Int.max, Int.min,
                        Int.random(in: Int.min...Int.max, using: &generator)].randomElement(using: &generator)!
        case 2: return [0.0, -0.5, 1e300, .infinity, Double.random(in: -1e9...1e9, using: &generator)]
            .randomElement(using: &generator)!
        case 3: return String((0..<count(40)).map { _ in "aZ09 é€😀\u{301}".randomElement(using: &generator)! })
        case 4: return String(repeating: "ascii", count: count(8))
        case 5: return Data((0..<count(300)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        case 6: return Date(timeIntervalSinceReferenceDate: Double(Int.random(in: -1_000_000_000...1_000_000_000,
                                                                             using: &generator)))
        case 7: return "k\(count(1000))"
        case 8: return (0..<count(20)).map { _ in randomValue(&generator, depth: depth + 1) }
        default:
            var dictionary: [String: Any] = [:]
            for _ in 0..<count(20) { dictionary["key\(count(100))"] = randomValue(&generator, depth: depth + 1) }
            return dictionary
        }
    }

    @Test func randomPropertyListsReadAsFoundationReadsThem() throws {
        var generator = SeededGenerator(seed: 12)
        for round in 0..<300 {
            let value: [String: Any] = ["root": Self.randomValue(&generator), "n": round]
            let data = try PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)
            let native = try #require(try BinaryPropertyList.decode(data), "round \(round)")
            let foundation = try PropertyListSerialization.propertyList(from: data, format: nil)
            #expect(Self.difference(native, foundation) == nil, "round \(round)")
        }
    }

    @Test func whatFoundationReadsIsLeftToIt() throws {
        let xml = try PropertyListSerialization.data(fromPropertyList: ["a": 1], format: .xml, options: 0)
        #expect(try BinaryPropertyList.decode(xml) == nil)
        let archive = try NSKeyedArchiver.archivedData(withRootObject: ["a": "b"] as NSDictionary,
                                                       requiringSecureCoding: false)
        #expect(try BinaryPropertyList.decode(archive) == nil) // UIDs
        #expect(try BinaryPropertyList.decode(UntrustedPropertyListTests.archiveWithASet) == nil)
    }

    /// `bplist00`, objects, offset table and trailer for `objects` (one-byte offsets and references).
    static func list(_ objects: [[UInt8]], top: UInt8 = 0) -> Data {
        var bytes = Array("bplist00".utf8), offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(bytes.count))
            bytes += object
        }
        let table = bytes.count
        bytes += offsets
        bytes += [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, UInt8(objects.count)]
        bytes += [0, 0, 0, 0, 0, 0, 0, top] + [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        return Data(bytes)
    }

    @Test func damagedListsThrow() throws {
        // Object 0 is an array holding itself; object 1 a dictionary whose value is the dictionary.
        let cycles = [Self.list([[0xA1, 0]]), Self.list([[0x51, 0x6B], [0xD1, 0, 1]], top: 1)]
        for data in cycles {
            #expect(throws: CocoaError(.propertyListReadCorrupt)) { try BinaryPropertyList.decode(data) }
        }
        let outside = [Self.list([[0xA1, 9]]), Self.list([[0x5F, 0x10, 200]]), Self.list([[0x4F, 0x13, 0xFF]]),
                       Data("bplist00".utf8), Self.list([[0x09]], top: 5)]
        for data in outside {
            #expect(throws: CocoaError(.propertyListReadCorrupt)) { try BinaryPropertyList.decode(data) }
        }
        #expect(try BinaryPropertyList.decode(Self.list([[0x09]])) as? Bool == true)
        // Found by randomDamageAgreesWithFoundation: Foundation reads a reference size of 100 in a
        // list without references, and a count stored in 16 bytes.
        var emptyArray = [UInt8](Self.list([[0xA0]]))
        emptyArray[emptyArray.count - 25] = 100
        #expect(try BinaryPropertyList.decode(Data(emptyArray)) as? [Any] != nil)
        #expect(try BinaryPropertyList.decode(Self.list([[0x5F, 0x14] + [UInt8](repeating: 0, count: 15) + [1, 0x61]]))
                == nil)
    }

    /// 5,000 random damages (one to four bytes set at random, or the end cut
    /// off) of random property lists: the same checks as for byte flips.
    @Test func randomDamageAgreesWithFoundation() throws {
        var generator = SeededGenerator(seed: 1913)
        var read = 0
        for round in 0..<5_000 {
            let value: [String: Any] = ["root": Self.randomValue(&generator), "n": round]
            var damaged = try PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)
            if Bool.random(using: &generator) {
                for _ in 0...Int.random(in: 0...3, using: &generator) {
                    damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(in: 0...255,
                                                                                                 using: &generator)
                }
            } else {
                damaged = damaged.prefix(Int.random(in: 0..<damaged.count, using: &generator))
            }
            let native: Any?
            do {
                native = try BinaryPropertyList.decode(damaged)
            } catch {
                let hex = damaged.map { String(format: "%02x", $0) }.joined()
                #expect(throws: (any Error).self, "round \(round): \(hex)") {
                    try UntrustedPropertyList.propertyList(from: damaged)
                }
                continue
            }
            guard let native, !UntrustedPropertyList.holdsSetsOrIsDamaged(damaged),
                  let foundation = try? PropertyListSerialization.propertyList(from: damaged, format: nil)
            else { continue }
            #expect(Self.difference(native, foundation) == nil, "round \(round)")
            read += 1
        }
        #expect(read > 100)
    }

    /// An object referenced from many places is read once: 60 arrays, each
    /// holding the next one twice, would take 2^60 reads otherwise.
    @Test func sharedObjectsAreReadOnce() throws {
        let levels = 60
        var objects = (0..<levels).map { level -> [UInt8] in [0xA2, UInt8(level + 1), UInt8(level + 1)] }
        objects.append([0x09])
        var nested = try #require(try BinaryPropertyList.decode(Self.list(objects)))
        for _ in 0..<levels {
            let pair = try #require(nested as? [Any])
            #expect(pair.count == 2)
            nested = pair[1]
        }
        #expect(nested as? Bool == true)
    }

    /// Every single-byte change of a real metadata plist: no crash, no hang;
    /// when both readers read it, they agree.
    @Test func everyByteFlipOfAStoresMetadataIsHandled() throws {
        let metadata: [String: Any] = [
            "NSStoreType": "SQLite", "NSStoreModelVersionHashesVersion": 3, "_NSAutoVacuumLevel": "2",
            "NSStoreModelVersionHashes": ["Photo": Data(repeating: 7, count: 32),
                                          "Album": Data(repeating: 9, count: 32)],
            "NSStoreModelVersionIdentifiers": [""], "NSPersistenceFrameworkVersion": 1_338,
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: metadata, format: .binary, options: 0)
        var agreed = 0
        for index in data.indices {
            for flip: UInt8 in [0x01, 0x10, 0x80, 0xFF] {
                var damaged = data
                damaged[index] ^= flip
                let native: Any?
                do {
                    native = try BinaryPropertyList.decode(damaged)
                } catch {
                    // What this reader refuses as damaged, the reader before it refused too.
                    #expect(throws: (any Error).self, "byte \(index) ^ \(flip)") {
                        try UntrustedPropertyList.propertyList(from: damaged)
                    }
                    continue
                }
                guard let native, !UntrustedPropertyList.holdsSetsOrIsDamaged(damaged) else { continue }
                guard let foundation = try? PropertyListSerialization.propertyList(from: damaged, format: nil) else {
                    continue
                }
                #expect(Self.difference(native, foundation) == nil,
                        "byte \(index) ^ \(flip): \(native) vs \(foundation)")
                agreed += 1
            }
        }
        #expect(agreed > 100)
    }
}
