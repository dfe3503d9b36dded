import Testing
@testable import OpenCoreDataCore

/// Malformed format strings: each throws a PredicateSyntaxError whose UTF-16
/// offset points at the token where parsing stopped (or, for an unterminated
/// string, at its opening quote). Apple's parser only says "Unable to parse the
/// format string"; the offsets are OpenCoreData's addition (DESIGN.md, "Parse
/// errors name the position in the input").
@Suite struct MalformedFormatTests {
    struct Case: @unchecked Sendable {  // immutable test data
        let format: String
        let args: [Any]
        let offset: Int
        init(_ format: String, _ offset: Int, _ args: Any...) {
            self.format = format
            self.offset = offset
            self.args = args
        }
    }

    static let cases: [Case] = [
        Case("", 0), Case("age ==", 6), Case("== 5", 0), Case("age 5", 4), Case("age == 5 AND", 12),
        Case("age == 5 OR OR b == 1", 12), Case("(age == 5", 9), Case("age == 5)", 8), Case("age == (5", 9),
        Case("name == 'abc", 8), Case("name == \"abc", 8), Case("'unterminated", 0), Case("age == $", 8),
        Case("age == %", 8), Case("age == %y", 8),
        // PPG-SYN: "%@*" is a parse error ("Unable to parse the format string "SELF like[c] %@*"").
        Case("SELF like[c] %@*", 16, "x"),
        Case("age ==[x] 5", 7), Case("name LIKE[c 'a'", 12), Case("ANY", 3), Case("ANY == 5", 4), Case("NOT", 3),
        Case("NONE", 4), Case("age BETWEEN {1}", 4), Case("age BETWEEN {1, 2, 3}", 4),
        Case("SUBQUERY(employees, e, e.age > 1).@count == 0", 20), Case("SUBQUERY(employees, $e)", 22),
        Case("SUBQUERY(employees, $e, $e.age).@count == 1", 30), Case("FUNCTION(name)", 0),
        Case("FUNCTION(name, uppercaseString)", 0), Case("TERNARY(age, 1, 2) == 1", 0), Case("unknownFunction(1) == 1", 0),
        Case("sum(1, 2", 8), Case("sqrt(1, 2) == 1", 0), Case("modulus:by:(1) == 1", 0), Case("CAST(1) == 1", 0),
        Case("CAST('1', 'NSDate', 3) == 1", 0), Case("age == 0x", 9), Case("age == 0b102", 7), Case("age == 12abc", 9),
        Case("age == 1.2.3", 10), Case("age == {1, 2", 12), Case("age == {1,, 2}", 10), Case("age IN {,}", 8),
        Case("a.b. == 1", 5), Case("a..b == 1", 2), Case(".a == 1", 0), Case("a[ == 1", 3), Case("a[1 == 1", 4),
        Case("a[FIRST", 7), Case("a == b == c", 7), Case("a & b", 2), Case("a | b", 2), Case("a := 1", 2),
        Case("$x := ", 6), Case("#", 1), Case("# == 1", 1), Case("@ == 1", 1), Case("a.@ == 1", 3),
        Case("age == 5 5", 9), Case("name == 'a' 'b'", 12), Case("age ==== 5", 6), Case("age => => 5", 7),
        Case("(", 1), Case(")", 0), Case("()", 1), Case("age == ()", 8), Case("TRUEPREDICATE == 1", 14),
        Case("NOT age", 7), Case("age == 1 AND NOT", 16), Case("ANY ANY a == 1", 4), Case("age == NOT 1", 7),
        Case("age < > 1", 6), Case("age == 1 &&& b == 2", 11), Case("name == \"bad \\u12\"", 15),
        Case("%K == 1", 0), Case("%K == 1", 0, 5), Case("%K == 1", 0, ""), Case("a.%K == 1", 2, "b..c"), Case("age == %d", 7, "x"), Case("age == %@", 7, NSPredicate(value: true)),
        Case("age == %p", 7, 1), Case("a == 1 AND (b == 2", 18), Case("a == 1 OR", 9), Case("age IN", 6),
        Case("age BEGINSWITH", 14), Case("{1, 2}", 6), Case("1 + ", 4), Case("a ** ", 5), Case("a == 1 ; b == 2", 7),
        // PPG-SYN: "? is not a valid parser token".
        Case("a == ?", 5),
        Case("a == 'x' UNION", 14), Case("a == %%", 5), Case("a == b AND c", 12), Case("a == \"\\x4\"", 8),
        Case("a == 1e", 6), Case("FETCH(a, b, c) == 1", 0), Case("a == %@ AND b == %@", 17, Optional<Int>.none as Any), Case("a == 1 AND b", 12), Case("a[SIZE] == 1 OR", 15),
        Case("a == SIZE", 5), Case("né == 1 AND ?", 12), Case("\"é\" == ", 7),
    ]

    @Test func atLeastSixtyCases() {
        #expect(Self.cases.count >= 60)
    }

    @Test func eachThrowsWithItsOffset() {
        for c in Self.cases {
            do {
                let parsed = try NSPredicate.parse(c.format, arguments: c.args)
                Issue.record("\"\(c.format)\" parsed as \(parsed)")
            } catch {
                #expect(error.utf16Offset == c.offset, "\"\(c.format)\": \(error.message)")
                #expect(error.format == c.format)
                #expect(error.message.hasPrefix("Unable to parse the format string \"\(c.format)\""))
                #expect(error.message.contains("at offset \(c.offset)"))
                #expect(!error.expected.isEmpty && !error.found.isEmpty)
            }
        }
    }

    @Test func errorIsAnNSErrorInTheCocoaDomain() throws {
        let error = try #require(throws: PredicateSyntaxError.self) { try NSPredicate.parse("age == ") }
        let nsError = error as NSError
        #expect(nsError.domain == NSCocoaErrorDomain)
        #expect(nsError.code == 2048)  // NSFormattingError
        #expect(nsError.localizedDescription == error.message)
        #expect(error.expected == "an expression")
        #expect(error.found == "end of input")
    }

    @Test func offsetsCountUTF16AndCharactersSeparately() throws {
        // "😀" is two UTF-16 units but one character.
        let error = try #require(throws: PredicateSyntaxError.self) { try NSPredicate.parse("\"😀\" == ") }
        #expect(error.utf16Offset == 8)
        #expect(error.characterOffset == 7)
    }

    @Test func expressionParsingThrowsToo() throws {
        let error = try #require(throws: PredicateSyntaxError.self) { try NSExpression.parse("1 +") }
        #expect(error.utf16Offset == 3)
        #expect(throws: PredicateSyntaxError.self) { try NSExpression.parse("a == 1") }
    }

    @Test func appleCompatibleInitialiserStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            _ = NSPredicate(format: "age ==")
        }
    }
}
