import Foundation
import Testing
@testable import OpenCoreDataCore

/// The `compare:` collation the SQLite store sorts strings with gives the
/// order `ValueComparison.compareStrings` (the in-memory sort) gives, for
/// random strings built to share prefixes and to mix ASCII, non-ASCII and
/// combining characters where the bytes alone would mislead.
@Suite struct SQLiteCompareCollationTests {
    private static let pieces = ["a", "b", "B", "z", "0", " ", "-", "é", "e\u{301}", "\u{301}", "ß", "Ω", "日本",
                                 "😀", "\u{FFFD}", "ab", "aé"]

    private static func randomString(_ generator: inout SeededGenerator, prefix: String) -> String {
        prefix + (0..<Int.random(in: 0...4, using: &generator)).map { _ in
            pieces.randomElement(using: &generator)!
        }.joined()
    }

    private static func collate(_ x: String, _ y: String) -> Int32 {
        Array(x.utf8).withUnsafeBytes { a in
            Array(y.utf8).withUnsafeBytes { b in SQLiteCompareCollation.compare(a, b) }
        }
    }

    @Test func ordersAsTheInMemoryComparison() {
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<20_000 {
            let prefix = Self.randomString(&generator, prefix: "")
            let x = Self.randomString(&generator, prefix: prefix), y = Self.randomString(&generator, prefix: prefix)
            let expected = Int32(ValueComparison.compareStrings(x, y).rawValue)
            #expect(Self.collate(x, y) == expected, "\(x.debugDescription) vs \(y.debugDescription)")
        }
    }

    /// Strings long enough for the eight-byte steps: an ASCII prefix of 0 to 24
    /// bytes puts the first difference, and the first non-ASCII byte, on each
    /// side of every word boundary.
    @Test func ordersLongStringsAsTheInMemoryComparison() {
        var generator = SeededGenerator(seed: 7)
        let ascii = Array("abcXYZ019 -_")
        for _ in 0..<20_000 {
            let prefix = String((0..<Int.random(in: 0...24, using: &generator)).map { _ in
                ascii.randomElement(using: &generator)!
            })
            let x = Self.randomString(&generator, prefix: prefix), y = Self.randomString(&generator, prefix: prefix)
            let expected = Int32(ValueComparison.compareStrings(x, y).rawValue)
            #expect(Self.collate(x, y) == expected, "\(x.debugDescription) vs \(y.debugDescription)")
        }
    }

    /// The eight-byte helpers against byte-by-byte answers, at every offset.
    @Test func wordStepsAgreeWithBytes() {
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<5_000 {
            let count = Int.random(in: 0...40, using: &generator)
            let x = (0..<count).map { _ in UInt8.random(in: 0x61...0x63, using: &generator) }
            var y = x
            if count > 0, Bool.random(using: &generator) {
                y[Int.random(in: 0..<count, using: &generator)] = UInt8.random(in: 0x61...0xE3, using: &generator)
            }
            if Bool.random(using: &generator) { y.append(0x61) }
            x.withUnsafeBytes { a in
                y.withUnsafeBytes { b in
                    let common = zip(x, y).prefix { $0 == $1 }.count
                    #expect(SQLiteCompareCollation.commonPrefixLength(a, b) == common)
                    for start in 0...y.count {
                        #expect(ASCIIStringMatching.isASCII(b, from: start) == y[start...].allSatisfy { $0 < 0x80 })
                    }
                }
            }
        }
    }

    @Test func combiningMarksAfterTheFirstDifferenceDecide() {
        // "a" + U+0301 composes to "á", which sorts after "b"; the bytes alone say "a…" < "b".
        #expect(Self.collate("a\u{301}", "b") == Int32(ValueComparison.compareStrings("a\u{301}", "b").rawValue))
        #expect(Self.collate("xa", "xa") == 0 && Self.collate("x", "xa") == -1 && Self.collate("xb", "xa") == 1)
        #expect(Self.collate("", "") == 0 && Self.collate("", "a") == -1)
    }
}
