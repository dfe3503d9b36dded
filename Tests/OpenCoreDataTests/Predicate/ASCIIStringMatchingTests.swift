import Testing
@testable import OpenCoreDataCore

/// `ASCIIStringMatching` gives `StringMatching`'s answer whenever it gives
/// one, and gives one exactly for ASCII strings without a carriage return:
/// random strings over letters of both cases, spaces, line breaks (CR LF is
/// one character, CR alone another), LIKE's wildcards and escape, and
/// non-ASCII letters, every operator it takes and every folding option. Its
/// folding is `ValueComparison.fold`'s for every ASCII string.
@Suite struct ASCIIStringMatchingTests {
    typealias Operator = OpenCoreDataCore.NSComparisonPredicate.Operator
    typealias Options = OpenCoreDataCore.NSComparisonPredicate.Options

    private static let pieces = ["a", "A", "b", "B", "z", "Z", " ", "-", "*", "?", "\\",
                                 "\n", "\r", "\r\n", "é", "E\u{301}", "ß"]

    private static func randomString(_ random: inout SeededGenerator) -> String {
        (0..<Int.random(in: 0...11, using: &random)).map { _ in
            // Mostly plain ASCII, so that most pairs take the byte path.
            Int.random(in: 0..<10, using: &random) < 8 ? pieces[Int.random(in: 0..<11, using: &random)]
                : pieces.randomElement(using: &random)!
        }.joined()
    }

    @Test func agreesWithStringMatching() throws {
        var random = SeededGenerator(seed: 31)
        var decided = 0
        for round in 0..<20_000 {
            let text = Self.randomString(&random)
            // A pattern often taken from the text, so that matches are common.
            let pattern = Bool.random(using: &random) || text.isEmpty ? Self.randomString(&random)
                : String(text.dropFirst(Int.random(in: 0...text.count, using: &random)).prefix(3))
            let type: Operator = [.beginsWith, .endsWith, .contains, .like].randomElement(using: &random)!
            let options: Options = [[], [.caseInsensitive], [.diacriticInsensitive],
                                    [.caseInsensitive, .diacriticInsensitive]].randomElement(using: &random)!
            let answer = Array(text.utf8).withUnsafeBytes { textBytes in
                Array(pattern.utf8).withUnsafeBytes { patternBytes in
                    ASCIIStringMatching.match(type, textBytes, patternBytes,
                                              caseInsensitive: options.contains(.caseInsensitive))
                }
            }
            let plain = (text + pattern).utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D }
            #expect((answer != nil) == plain, "round \(round): \(text.debugDescription) \(pattern.debugDescription)")
            guard let answer else { continue }
            decided += 1
            let expected = type == .contains ? StringMatching.contains(text, pattern, options: options)
                : try StringMatching.match(type, text, pattern, options: options)
            #expect(answer == expected,
                    "round \(round): \(text.debugDescription) \(type) \(pattern.debugDescription) \(options)")
        }
        #expect(decided > 5_000)
    }

    @Test func foldsAsValueComparison() {
        var random = SeededGenerator(seed: 37)
        for round in 0..<5_000 {
            let text = Self.randomString(&random)
            let options: Options = [[], [.caseInsensitive], [.diacriticInsensitive],
                                    [.caseInsensitive, .diacriticInsensitive]].randomElement(using: &random)!
            let folded = Array(text.utf8).withUnsafeBytes { bytes in
                ASCIIStringMatching.withFolded(bytes, caseInsensitive: options.contains(.caseInsensitive)) {
                    $0.map { String(decoding: $0, as: UTF8.self) }
                }
            }
            #expect((folded != nil) == text.utf8.allSatisfy { $0 < 0x80 }, "round \(round): \(text.debugDescription)")
            if let folded {
                #expect(folded == ValueComparison.fold(text, options), "round \(round): \(text.debugDescription)")
            }
        }
    }

    /// MATCHES and the comparisons are left to `StringMatching`.
    @Test func otherOperatorsAreNotDecided() {
        for type: Operator in [.matches, .equalTo, .lessThan] {
            let answer = Array("abc".utf8).withUnsafeBytes { text in
                Array("a*".utf8).withUnsafeBytes { ASCIIStringMatching.match(type, text, $0, caseInsensitive: false) }
            }
            #expect(answer == nil, "\(type)")
        }
    }
}
