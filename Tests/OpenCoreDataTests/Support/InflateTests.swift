import Foundation
import GRDB
import Testing
@testable import OpenCoreDataCore

/// Raw DEFLATE (RFC 1951): streams made by zlib (Python's `zlib.compressobj`
/// with wbits -15) of each block type, bad input, and every corpus store's
/// Z_MODELCACHE.
@Suite struct InflateTests {
    /// A dynamic-Huffman block: 20 × "the store keeps its model; " and 30 × "entity attribute relationship ".
    static let dynamicStream =
        "7cmxDYAwDATAVX4PpgnipViEOLKfgu2Zggpfe+pEyoM4yZUwJS4/ODao6t/FKdODJoXtt4jgaDKf2W3V1tZ+vi8="

    static func inflate(_ base64: String) throws -> String {
        String(decoding: try Inflate.decompress(Array(Data(base64Encoded: base64)!)), as: UTF8.self)
    }

    @Test func storedFixedAndDynamicBlocksInflate() throws {
        #expect(try Self.inflate("AQMA/P9hYmM=") == "abc")
        #expect(try Self.inflate("y0jNyclXyECQAA==") == "hello hello hello")
        let text = String(repeating: "the store keeps its model; ", count: 20)
            + String(repeating: "entity attribute relationship ", count: 30)
        #expect(try Self.inflate(Self.dynamicStream) == text)
    }

    @Test func badStreamsThrow() {
        let dynamic = Array(Data(base64Encoded: Self.dynamicStream)!)
        for bad: [UInt8] in [[], [0x07], Array(dynamic.prefix(20)), [0x01, 0x03, 0x00, 0x00, 0x00]] {
            #expect(throws: Inflate.Failure.self) { try Inflate.decompress(bad) }
        }
        // The output cap holds against a stream that expands.
        #expect(throws: Inflate.Failure.self) { try Inflate.decompress(dynamic, limit: 100) }
    }

    /// Random bytes and real streams with random bytes changed: each throws or inflates, never traps.
    @Test func randomAndDamagedStreamsNeverTrap() throws {
        var random = SeededGenerator(seed: 15)
        let valid = Array(Data(base64Encoded: Self.dynamicStream)!)
        var inflated = 0
        for round in 0..<5_000 {
            var input: [UInt8]
            if round.isMultiple(of: 2) {
                let count = Int.random(in: 0...64, using: &random)
                input = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            } else {
                input = valid
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    input[Int.random(in: 0..<input.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
            }
            if (try? Inflate.decompress(input, limit: 1 << 16)) != nil { inflated += 1 }
        }
        #expect(inflated < 5_000)
    }
}
