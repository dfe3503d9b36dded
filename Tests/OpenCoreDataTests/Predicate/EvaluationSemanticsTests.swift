import Testing
@testable import OpenCoreDataCore

/// Evaluation rules from issue 4 ("Evaluation semantics to get right"), against
/// KeyValueCoding objects, dictionaries and plain values.
@Suite struct EvaluationSemanticsTests {
    private func holds(_ format: String, _ object: Any?, _ args: Any...) throws -> Bool {
        try NSPredicate.parse(format, arguments: args).evaluateThrowing(with: object)
    }

    @Test func plainValuesAsSelf() throws {
        #expect(try holds("SELF == 5", 5))
        #expect(try holds("SELF BEGINSWITH 'ab'", "abc"))
        #expect(try holds("SELF IN {1, 2, 3}", 2))
        #expect(try holds("SELF.length == 3", "abc"))
        #expect(try holds("SELF == nil", nil))
        #expect(try holds("SELF.@count == 3", [1, 2, 3]))
        #expect(try holds("ANY SELF > 2", [1, 2, 3]))
        #expect(["apple", "banana", "cherry"].filter { NSPredicate(format: "SELF CONTAINS 'an'").evaluate(with: $0) } == ["banana"])
    }

    @Test func dictionariesOfEveryKind() throws {
        let swift: [String: Any] = ["name": "x", "nested": ["inner": 3]]
        let ns = NSDictionary(dictionary: ["name": "x", "nested": NSDictionary(dictionary: ["inner": 3])])
        for object in [swift as Any, ns as Any] {
            #expect(try holds("name == 'x' AND nested.inner == 3 AND missing == nil", object))
        }
    }

    @Test func numbersCompareByValueAcrossTypes() throws {
        let values: [Any] = [5, Int8(5), Int16(5), Int32(5), Int64(5), UInt(5), UInt8(5), UInt16(5), UInt32(5), UInt64(5),
                             Float(5), 5.0, CGFloat(5), Decimal(5), NSNumber(value: 5), NSDecimalNumber(value: 5)]
        for a in values {
            for b in values {
                #expect(try holds("SELF == %@", a, b), "\(type(of: a)) == \(type(of: b))")
                #expect(try !holds("SELF < %@", a, b))
            }
            #expect(try holds("SELF > 4.5", a))
        }
        #expect(try holds("SELF == 1", true))
        #expect(try holds("SELF == YES", 1))
        #expect(try holds("SELF == NO", 0.0))
        #expect(try !holds("SELF == 2", true))
        #expect(try holds("SELF == 9007199254740993", 9_007_199_254_740_993))  // integers stay exact
        #expect(try !holds("SELF == 9007199254740992", 9_007_199_254_740_993))
    }

    @Test func nullComparisons() throws {
        let object: [String: Any] = ["a": NSNull()]
        #expect(try holds("a == nil", object))
        #expect(try holds("b == nil", object))
        #expect(try !holds("a != nil", object))
        for op in ["<", "<=", ">", ">="] {
            #expect(try !holds("a \(op) 1", object))
            #expect(try !holds("1 \(op) a", object))
        }
        #expect(try holds("a != 1", object))
        #expect(try holds("NOT a BEGINSWITH 'x'", object))
        #expect(try holds("a == %@", object, NSNull()))
    }

    @Test func datesCompare() throws {
        let early = Date(timeIntervalSinceReferenceDate: 100), late = Date(timeIntervalSinceReferenceDate: 200)
        let object: [String: Any] = ["d": early, "n": NSDate(timeIntervalSinceReferenceDate: 100)]
        #expect(try holds("d < %@", object, late))
        #expect(try holds("d == n", object))
        #expect(try holds("d BETWEEN %@", object, [early, late]))
        #expect(try holds("d == CAST(100, 'NSDate')", object))
        #expect(try holds("d < now()", object))
        #expect(throws: PredicateEvaluationError.self) { try holds("d < 'yesterday'", object) }
    }

    @Test func stringOptionsFoldUnicode() throws {
        #expect(try holds("SELF ==[c] 'STRASSE'", "straße"))
        #expect(try holds("SELF ==[d] 'resume'", "résumé"))
        #expect(try !holds("SELF ==[d] 'RESUME'", "résumé"))
        #expect(try holds("SELF ==[cd] 'RESUME'", "résumé"))
        #expect(try holds("SELF BEGINSWITH[cd] 'ÉL'", "elodie"))
        #expect(try holds("SELF ==[c] 'ΣΊΣΥΦΟΣ'", "σίσυφος"))
        #expect(try holds("SELF == %@", "e\u{301}", "\u{E9}"))  // canonically equivalent
        #expect(try holds("SELF ==[n] 'abc'", "abc"))
        #expect(try holds("SELF CONTAINS[c] 'İ'", "i̇"))
    }

    @Test func likeAndMatchesAreAnchored() throws {
        #expect(try holds("SELF LIKE 'a*c'", "abbbc"))
        #expect(try !holds("SELF LIKE 'a*c'", "abbbcd"))
        #expect(try holds("SELF LIKE '?b?'", "abc"))
        #expect(try !holds("SELF LIKE '?'", ""))
        #expect(try holds("SELF LIKE '*'", ""))
        #expect(try holds("SELF LIKE '**a**'", "bab"))
        #expect(try holds(#"SELF LIKE 'a\\*'"#, "a*"))
        #expect(try !holds(#"SELF LIKE 'a\\*'"#, "ab"))
        #expect(try holds("SELF LIKE[c] 'A.B'", "a.b"))  // '.' is not special in LIKE
        #expect(try !holds("SELF LIKE 'a.b'", "axb"))
        #expect(try holds("SELF MATCHES 'a.b'", "axb"))
        #expect(try !holds("SELF MATCHES 'b'", "abc"))
        #expect(try !holds("SELF MATCHES 'a|abc'", "abcd"))
        #expect(try holds("SELF MATCHES 'a|abc'", "abc"))
        #expect(try holds("SELF MATCHES[c] '[A-C]+'", "abcCBA"))
        #expect(throws: PredicateEvaluationError.self) { try holds("SELF MATCHES '('", "x") }
        // A long LIKE pattern against a long string stays fast (no exponential backtracking).
        let long = String(repeating: "a", count: 2_000)
        #expect(try !holds("SELF LIKE %@", long, String(repeating: "*a", count: 100) + "b"))
    }

    @Test func betweenIsInclusive() throws {
        #expect(try holds("SELF BETWEEN {1, 10}", 1))
        #expect(try holds("SELF BETWEEN {1, 10}", 10))
        #expect(try !holds("SELF BETWEEN {1, 10}", 10.5))
        #expect(try holds("SELF BETWEEN {'a', 'c'}", "b"))
        #expect(throws: PredicateEvaluationError.self) { try holds("SELF BETWEEN 3", 1) }
    }

    @Test func toManyKeyPathsYieldCollections() throws {
        let kids: [[String: Any]] = [["name": "a", "toys": ["x", "y"]], ["name": "b", "toys": ["z"]]]
        let sets: [String: Any] = ["kids": NSSet(array: kids.map { NSDictionary(dictionary: $0) })]
        let ordered: [String: Any] = ["kids": NSOrderedSet(array: kids)]
        let array: [String: Any] = ["kids": NSArray(array: kids)]
        for object in [["kids": kids] as [String: Any], sets, ordered, array] {
            #expect(try holds("kids.name CONTAINS 'a'", object))
            #expect(try holds("ANY kids.name == 'b'", object))
            #expect(try !holds("ALL kids.name == 'b'", object))
            #expect(try holds("kids.toys.@count == 3", object))  // flattened across two to-many steps
            #expect(try holds("ANY kids.toys == 'z'", object))
            #expect(try holds("kids.@count == 2", object))
            #expect(try !holds("kids.name == 'a'", object))  // a collection is not equal to one of its elements
        }
        let swiftSet: [String: Any] = ["tags": Set(["a", "b"])]
        #expect(try holds("ANY tags == 'a' AND tags.@count == 2 AND 'b' IN tags", swiftSet))
    }

    @Test func anyAllNoneOnEmptyAndNil() throws {
        let object: [String: Any] = ["empty": [Int](), "nothing": NSNull()]
        #expect(try holds("ALL empty > 5", object))  // vacuously true
        #expect(try !holds("ANY empty > 5", object))
        #expect(try holds("NONE empty > 5", object))
        #expect(try holds("ALL nothing > 5", object))
        #expect(try !holds("ANY nothing > 5", object))
        #expect(throws: PredicateEvaluationError.self) { try holds("ANY x > 5", ["x": 3]) }
    }

    @Test func inAndContainsOnEveryContainer() throws {
        #expect(try holds("SELF IN %@", 2, [1, 2]))
        #expect(try holds("SELF IN %@", 2, Set([1, 2])))
        #expect(try holds("SELF IN %@", 2, NSSet(array: [1, 2])))
        #expect(try holds("SELF IN %@", "v", ["k": "v"]))
        #expect(try !holds("SELF IN %@", "k", ["k": "v"]))
        #expect(try holds("SELF IN %@", "ell", "hello"))
        #expect(try holds("SELF IN[c] {'A', 'B'}", "a"))
        #expect(try holds("SELF CONTAINS 2", [1, 2]))
        #expect(try holds("SELF CONTAINS 'ell'", "hello"))
        #expect(throws: PredicateEvaluationError.self) { try holds("SELF CONTAINS 1", 5) }
        #expect(throws: PredicateEvaluationError.self) { try holds("SELF IN 5", 5) }
    }

    @Test func impossibleEvaluationsThrow() throws {
        #expect(throws: PredicateEvaluationError.self) { try holds("SELF < 'a'", 1) }
        #expect(throws: PredicateEvaluationError.self) { try holds("SELF BEGINSWITH 'a'", 1) }
        #expect(throws: PredicateEvaluationError.self) { try holds("$missing == 1", 1) }
        #expect(throws: PredicateEvaluationError.self) { try holds("SELF.name == 1", 1) }
        #expect(throws: PredicateEvaluationError.self) { try holds("SELF + 1 == 2", "a") }
        #expect(throws: PredicateEvaluationError.self) { try holds("modulus:by:(1, 0) == 1", nil) }
        #expect(throws: PredicateEvaluationError.self) { try holds("SELF[5] == 1", [1]) }
        #expect(throws: PredicateEvaluationError.self) { try holds("CAST(1, 'NSURL') == 1", nil) }
        #expect(throws: PredicateEvaluationError.self) { try holds("distanceToLocation:fromLocation:(1, 2) == 1", nil) }
        #expect(throws: PredicateEvaluationError.self) { try holds("SELF.@frobnicate == 1", [1]) }
        #expect(throws: PredicateEvaluationError.self) { try holds("SELF UTI-CONFORMS-TO 'public.image'", "public.jpeg") }
        #expect(try holds("SELF UTI-CONFORMS-TO 'public.data'", "public.jpeg"))
        #expect(try holds("SELF UTI-EQUALS 'public.JPEG'", "public.jpeg"))
        #expect(try holds("1 + 9223372036854775807 > 0", nil))  // overflow moves to Double instead of trapping
        #expect(try holds("FUNCTION(1e300, 'intValue') > 0", nil))  // too large for Int: stays a Double
    }

    @Test func appleCompatibleEvaluateStopsOnImpossibleEvaluation() async {
        await #expect(processExitsWith: .failure) {
            _ = NSPredicate(format: "SELF < 'a'").evaluate(with: 1)
        }
    }

    @Test func keyValueCodingObjects() throws {
        #expect(try holds("department.manager.firstName == 'Eve'", Fixtures.adam))
        #expect(try holds("friends.@avg.age == 48", Fixtures.adam))
        #expect(try holds("ANY department.employees.tags == 'c'", Fixtures.adam))
        #expect(try holds("SUBQUERY(friends, $f, $f.age > 50)[FIRST].name == 'Eve'", Fixtures.adam))
        let people: [Record] = [Fixtures.matthew, Fixtures.jane, Fixtures.ben, Fixtures.eve]
        let filtered = people.filter { NSPredicate(format: "age > %d AND ANY tags == %@", 20, "a").evaluate(with: $0) }
        #expect(filtered.map(\.description) == ["Record(Matthew Jones)", "Record(Eve)"])
    }
}

@Suite struct CollectionOperatorScaleTests {
    /// Distinct unions and set expressions hash their values, so large
    /// collections stay fast; equal numbers of different types count once.
    @Test func distinctAndSetOperationsScale() throws {
        let many: [Any] = (0..<50_000).map { $0 % 1_000 } + [Int16(3), 3.0, true]
        let object: [String: Any] = ["xs": many, "ys": Array(500..<2_000)]
        #expect(try NSExpression.parse("xs.@distinctUnionOfObjects").evaluate(with: object).map { ($0 as? [Any])?.count } == 1_000)
        #expect(try NSExpression.parse("xs INTERSECT ys").evaluate(with: object).map { ($0 as? [Any])?.count } == 500)
        #expect(try NSExpression.parse("xs MINUS ys").evaluate(with: object).map { ($0 as? [Any])?.count } == 500)
        #expect(try NSExpression.parse("xs UNION ys").evaluate(with: object).map { ($0 as? [Any])?.count } == 2_000)
    }
}
