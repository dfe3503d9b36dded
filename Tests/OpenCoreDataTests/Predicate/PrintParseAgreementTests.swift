import Testing
@testable import OpenCoreDataCore

/// Issue 19, the predicate part: what the parser reads prints back to a
/// string it reads again, however deep the unary minuses; a set argument
/// prints and compares the same whatever order the set iterates in; and a
/// key path's cost is bounded.
@Suite struct PrintParseAgreementTests {
    static func roundTrips(_ format: String, arguments: [Any] = []) throws -> String {
        let predicate = try NSPredicate.parse(format, arguments: arguments)
        let printed = predicate.predicateFormat
        let reparsed = try NSPredicate.parse(printed)
        #expect(reparsed == predicate, "\(format) printed as \(printed)")
        #expect(reparsed.predicateFormat == printed)
        return printed
    }

    /// Every chain of unary minuses the parser accepts prints as a chain it
    /// accepts too: `-x` prints as `-x`, not `0 - x` (which nested three
    /// levels per minus where the parser counts one).
    @Test func unaryMinusChainsRoundTripUpToTheNestingLimit() throws {
        var longest = 0
        for n in 1...Parser.maximumDepth + 5 {
            for operand in ["a", "a.b", "$v", "sum(a)", "(a + 1)", "(2)", "{1, 2}", "a[0]"] {
                let format = "a == " + String(repeating: "-", count: n) + operand
                guard (try? NSPredicate.parse(format)) != nil else { continue }
                longest = max(longest, n)
                _ = try Self.roundTrips(format)
            }
        }
        #expect(longest >= Parser.maximumDepth - 5)
        // The same chains written with parentheses print as the short form.
        let nested = (0..<25).reduce("x") { inner, _ in "-(\(inner))" }
        #expect(try NSExpression.parse(nested).description == String(repeating: "-", count: 25) + "x")
    }

    @Test func unaryMinusPrintsAsItIsWritten() throws {
        #expect(try Self.roundTrips("-a == 1") == "-a == 1")
        #expect(try Self.roundTrips("- - a == 1") == "--a == 1")
        #expect(try Self.roundTrips("-(a + 1) == -2") == "-(a + 1) == -2")
        #expect(try Self.roundTrips("-(2) == -2") == "-(2) == -2")
        #expect(try Self.roundTrips("-a ** 2 == 4") == "-a ** 2 == 4")
        #expect(try Self.roundTrips("2 ** -a == 4") == "2 ** -a == 4")
        #expect(try Self.roundTrips("b - -a == 1") == "b - -a == 1")
        #expect(try Self.roundTrips("(-a).b == 1") == "(-a).b == 1")
        #expect(try Self.roundTrips("0 - a == 1") == "-a == 1")  // the same tree
        #expect(try NSExpression.parse("-a").evaluate(with: ["a": 3]) as? Int == -3)
    }

    /// The GoldenTableTests row `age IN %@` with a Set failed now and then: the
    /// set printed in one iteration order and was compared in another.
    @Test func setArgumentsPrintAndCompareWhateverTheirOrder() throws {
        var random = SeededGenerator(seed: 19)
        for _ in 0..<300 {
            let numbers = (0..<Int.random(in: 2...12, using: &random)).map { _ in Int.random(in: -50...50, using: &random) }
            let words = numbers.map { "w\($0)" }
            for value in [Set(numbers) as Any, Set(words) as Any, NSSet(array: numbers) as Any] {
                let printed = try Self.roundTrips("age IN %@", arguments: [value])
                // Copies of the set (other capacities, other iteration orders) print the same.
                let copy: Any = (value as? Set<Int>).map { var c = Set<Int>(minimumCapacity: 64); c.formUnion($0); return c as Any }
                    ?? (value as? Set<String>).map { Set($0.reversed()) as Any } ?? value
                #expect(try NSPredicate.parse("age IN %@", arguments: [copy]).predicateFormat == printed)
            }
        }
        let predicate = try NSPredicate.parse("age IN %@", arguments: [Set([34, 35])])
        #expect(predicate.predicateFormat == "age IN {34, 35}")
        #expect(try predicate == NSPredicate.parse("age IN {35, 34}") && predicate == NSPredicate.parse("age IN {34, 35}"))
        #expect(try predicate != NSPredicate.parse("age IN {34, 34}") && predicate != NSPredicate.parse("age IN {34}"))
    }

    /// A 100,000-key path is refused by the parser (it cost a join per key in
    /// SQL and a step per key and object in memory); 1,000 keys still read.
    @Test func keyPathsAreBounded() throws {
        let longest = Array(repeating: "a", count: Parser.maximumKeyPathKeys).joined(separator: ".")
        #expect(try NSPredicate.parse(longest + " == nil").evaluateThrowing(with: ["b": 1]))
        for keys in [Parser.maximumKeyPathKeys + 1, 100_000] {
            let path = Array(repeating: "a", count: keys).joined(separator: ".")
            let error = try #require(throws: PredicateSyntaxError.self) { try NSPredicate.parse(path + " == nil") }
            #expect(error.expected.contains("shorter key path"))
            let argument = try #require(throws: PredicateSyntaxError.self) { try NSPredicate.parse("%K == nil", arguments: [path]) }
            #expect(argument.expected.contains("at most \(Parser.maximumKeyPathKeys) keys"))
            #expect(throws: PredicateSyntaxError.self) { try NSPredicate.parse("%K.b == nil", arguments: [longest]) }
        }
    }

    /// Each step through a to-many relationship multiplies the values (four
    /// keys of a hundred each are 10^8): evaluation throws past
    /// `KeyPathValue.maximumValues` instead of exhausting memory.
    @Test func keyPathsThroughManyToManyStepsAreBounded() throws {
        // Five levels of a hundred shared children each: 10^2 … 10^10 values.
        var node: [String: Any] = ["n": 1]
        for _ in 0..<5 { node = ["a": Array(repeating: node, count: 100), "n": 1] }
        let top = node
        #expect(try NSPredicate.parse("a.a.n.@count == 10000").evaluateThrowing(with: top))
        #expect(throws: PredicateEvaluationError.self) { try NSPredicate.parse("ANY a.a.a.a.n == 1").evaluateThrowing(with: top) }
    }
}
