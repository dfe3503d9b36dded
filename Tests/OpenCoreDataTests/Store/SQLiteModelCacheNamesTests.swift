import Testing
import GRDB
@testable import OpenCoreDataCore

/// Raw DEFLATE decoding (`Inflate`) on zlib's own output, and the property
/// names read from the model cache Core Data keeps in its stores.
@Suite struct SQLiteModelCacheNamesTests {
    /// Vectors from zlib (`compressobj(level, DEFLATED, -15)`): a fixed-Huffman block with back references,
    /// a stored block.
    @Test func decodesZlibOutput() throws {
        let fixed = Data([203, 72, 205, 201, 201, 87, 200, 64, 39, 117, 20, 202, 243, 139, 114, 82, 0])
        #expect(Data(try Inflate.decompress(Array(fixed))) == Data("hello hello hello hello, world".utf8))
        #expect(Data(try Inflate.decompress([1, 3, 0, 252, 255, 97, 98, 99])) == Data("abc".utf8))
    }

    @Test func refusesMalformedInput() {
        #expect(throws: Inflate.Failure.self) { try Inflate.decompress([1, 3, 0, 0, 0, 97]) }
        #expect(throws: Inflate.Failure.self) { try Inflate.decompress([0xff, 0xff, 0xff]) }
        #expect(throws: Inflate.Failure.self) { try Inflate.decompress([]) }
        let fixed = Data([203, 72, 205, 201, 201, 87, 200, 64, 39, 117, 20, 202, 243, 139, 114, 82, 0])
        #expect(throws: Inflate.Failure.self) { try Inflate.decompress(Array(fixed), limit: 10) }
    }

    /// Every corpus store that keeps Z_MODELCACHE (dynamic-Huffman blocks, written by Apple) decodes to a
    /// keyed archive.
    @Test(.enabled(if: Corpus.stores != nil, "shared/corpus is absent"))
    func everyCorpusModelCacheDecodes() throws {
        var decoded = 0
        for store in Corpus.files(in: Corpus.stores, suffix: ".sqlite") {
            let copy = try SQLiteMetadataTests.copy(store)
            let blob = try DatabaseQueue(path: copy.path).read { db -> Data? in
                guard try db.tableExists("Z_MODELCACHE") else { return nil }
                return try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE")
            }
            guard let blob, !blob.isEmpty else { continue }
            let archive = Data(try Inflate.decompress(Array(blob)))
            #expect(archive.starts(with: Array("bplist00".utf8)), "\(store.lastPathComponent)")
            let plist = try PropertyListSerialization.propertyList(from: archive, format: nil) as? [String: Any]
            #expect(plist?["$objects"] is [Any], "\(store.lastPathComponent)")
            #expect(!SQLiteModelCacheNames(cache: blob).isEmpty)
            decoded += 1
        }
        #expect(decoded >= 36)
    }
}
