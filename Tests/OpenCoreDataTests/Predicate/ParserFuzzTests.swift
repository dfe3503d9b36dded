import Testing
@testable import OpenCoreDataCore

/// Feeds many random and mutated strings to the parser. Each must parse or
/// throw — never trap, hang or overflow the stack; whatever parses must print
/// to a string that parses back to an equal predicate, and must evaluate or
/// throw through the throwing API. Deterministic: a fixed-seed generator.
@Suite struct ParserFuzzTests {

    static let fragments = [
        "a", "b", "age", "name", "scores", "==", "=", "!=", "<", ">", "<=", ">=", "(", ")", "{", "}", "[", "]", ",", ".",
        "AND", "OR", "NOT", "ANY", "ALL", "NONE", "'x'", "\"y\"", "1", "2.5", "0x1F", "-", "+", "*", "/", "**", "$v",
        "%@", "%K", "%d", "SUBQUERY", "FUNCTION", "TERNARY", "CAST", "@count", "@sum", "BETWEEN", "IN", "CONTAINS",
        "LIKE", "MATCHES", "BEGINSWITH", "[c]", "[cd]", "FIRST", "LAST", "SIZE", ":=", "sum", "max", "modulus:by:", "#",
        "\\", "'", "\"", " ", "!", "&&", "||", "SELF", "nil", "TRUEPREDICATE", "FALSEPREDICATE", "UNION", "é", "😀",
        "\u{0}", "%%", "?", "1e5", "0b2", "NSDate", "now", "$", "@", ":", "YES",
    ]

    /// A dictionary, so unknown keys read as nil instead of stopping the program.
    nonisolated(unsafe) static let object: [String: Any] = ["a": 1, "b": "text", "age": 34, "name": "Adam", "scores": [1, 2, 3], "v": 2]
    nonisolated(unsafe) static let arguments: [Any] = ["x", "age", 1, "y", 2]

    static func check(_ input: String, _ stats: inout (parsed: Int, thrown: Int)) {
        do {
            let predicate = try NSPredicate.parse(input, arguments: arguments)
            stats.parsed += 1
            let printed = predicate.predicateFormat
            do {
                let reparsed = try NSPredicate.parse(printed)
                #expect(reparsed == predicate, "\(input) printed as \(printed)")
            } catch {
                Issue.record("\(input) printed as \(printed), which does not parse: \(error)")
            }
            _ = try? predicate.evaluateThrowing(with: object, substitutionVariables: ["v": 3])
        } catch {
            stats.thrown += 1
            #expect(error.utf16Offset >= 0 && error.utf16Offset <= input.utf16.count, "\(input)")
        }
    }

    @Test func randomTokenSequences() {
        var rng = SeededGenerator(seed: 4)
        var stats = (parsed: 0, thrown: 0)
        for _ in 0..<8_000 {
            let count = Int.random(in: 1...14, using: &rng)
            let input = (0..<count).map { _ in Self.fragments.randomElement(using: &rng)! }
                .joined(separator: Bool.random(using: &rng) ? " " : "")
            Self.check(input, &stats)
        }
        #expect(stats.parsed + stats.thrown == 8_000)
        #expect(stats.parsed > 20)  // random sequences do reach valid predicates; mutated rows reach many more
    }

    @Test func mutatedGoldenRows() {
        var rng = SeededGenerator(seed: 2026)
        var stats = (parsed: 0, thrown: 0)
        let seeds = GoldenTable.rows.map(\.format)
        for _ in 0..<8_000 {
            var units = Array(seeds.randomElement(using: &rng)!.unicodeScalars)
            for _ in 0..<Int.random(in: 1...3, using: &rng) where !units.isEmpty {
                let i = Int.random(in: 0..<units.count, using: &rng)
                switch Int.random(in: 0..<5, using: &rng) {
                case 0: units.remove(at: i)
                case 1: units.insert(contentsOf: Self.fragments.randomElement(using: &rng)!.unicodeScalars, at: i)
                case 2: units.swapAt(i, Int.random(in: 0..<units.count, using: &rng))
                case 3: units.removeSubrange(i...)
                default: units.insert(units[i], at: i)
                }
            }
            var input = ""
            input.unicodeScalars.append(contentsOf: units)
            Self.check(input, &stats)
        }
        #expect(stats.parsed > 500)
        #expect(stats.thrown > 500)
    }

    @Test func randomCharacters() {
        var rng = SeededGenerator(seed: 7)
        var stats = (parsed: 0, thrown: 0)
        let alphabet = Array("ab1 ()[]{}=<>!&|'\"$%@#.,:*+-/\\?ANDORNOTé\t\n")
        for _ in 0..<6_000 {
            let input = String((0..<Int.random(in: 0...24, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
            Self.check(input, &stats)
        }
        #expect(stats.parsed + stats.thrown == 6_000)
    }

    /// Deep nesting throws at the nesting limit instead of overflowing the stack.
    @Test func deepNestingThrows() {
        let n = 20_000
        let hostile = [
            String(repeating: "(", count: n) + "a == 1" + String(repeating: ")", count: n),
            String(repeating: "NOT ", count: n) + "a == 1",
            "a == " + String(repeating: "-", count: n) + "1",
            "a" + String(repeating: "[0]", count: n) + " == 1",
            "1" + String(repeating: " + 1", count: n) + " == 1",
            "a == " + String(repeating: "{", count: n),
            "a == " + String(repeating: "2 ** ", count: n) + "2",
            String(repeating: "SUBQUERY(a, $x, ", count: n),
            "a == " + String(repeating: "sum(", count: n),
            String(repeating: "(", count: n),
        ]
        for input in hostile {
            #expect(throws: PredicateSyntaxError.self) { try NSPredicate.parse(input) }
        }
        let error = try? #require(throws: PredicateSyntaxError.self) { try NSPredicate.parse(hostile[0]) }
        #expect(error?.expected.contains("nesting") == true)
    }

    /// Long flat inputs are fine: AND/OR chains and key paths do not nest.
    @Test func longFlatInputsParse() throws {
        let chain = Array(repeating: "age == 34", count: 5_000).joined(separator: " AND ")
        let predicate = try NSPredicate.parse(chain)
        #expect(try predicate.evaluateThrowing(with: Self.object))
        #expect(try NSPredicate.parse(predicate.predicateFormat) == predicate)
        // Key paths are flat up to the parser's bound on keys (PrintParseAgreementTests.keyPathsAreBounded).
        let path = "missing" + String(repeating: ".b", count: Parser.maximumKeyPathKeys - 1) + " == nil"
        #expect(try NSPredicate.parse(path).evaluateThrowing(with: Self.object))
        let nested = String(repeating: "(", count: 40) + "age == 34" + String(repeating: ")", count: 40)
        #expect(try NSPredicate.parse(nested).evaluateThrowing(with: Self.object))
    }
}
