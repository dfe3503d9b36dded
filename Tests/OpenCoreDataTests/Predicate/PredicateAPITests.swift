import Testing
@testable import OpenCoreDataCore

/// Apple's API surface: constructors, raw values, substitution, equality, copying.
@Suite struct PredicateAPITests {
    @Test func rawValuesAreApples() {
        // Raw values from reference §5.2 (Foundation constant lists) and H-EXPR.
        let operators: [(NSComparisonPredicate.Operator, UInt)] = [
            (.lessThan, 0), (.lessThanOrEqualTo, 1), (.greaterThan, 2), (.greaterThanOrEqualTo, 3), (.equalTo, 4),
            (.notEqualTo, 5), (.matches, 6), (.like, 7), (.beginsWith, 8), (.endsWith, 9), (.in, 10),
            (.customSelector, 11), (.contains, 99), (.between, 100),
        ]
        for (op, raw) in operators { #expect(op.rawValue == raw) }
        #expect(NSComparisonPredicate.Modifier.direct.rawValue == 0)
        #expect(NSComparisonPredicate.Modifier.all.rawValue == 1)
        #expect(NSComparisonPredicate.Modifier.any.rawValue == 2)
        #expect(NSComparisonPredicate.Options.caseInsensitive.rawValue == 1)
        #expect(NSComparisonPredicate.Options.diacriticInsensitive.rawValue == 2)
        #expect(NSComparisonPredicate.Options.normalized.rawValue == 4)
        #expect(NSCompoundPredicate.LogicalType.not.rawValue == 0)
        #expect(NSCompoundPredicate.LogicalType.and.rawValue == 1)
        #expect(NSCompoundPredicate.LogicalType.or.rawValue == 2)
        let types: [(NSExpression.ExpressionType, UInt)] = [
            (.constantValue, 0), (.evaluatedObject, 1), (.variable, 2), (.keyPath, 3), (.function, 4), (.unionSet, 5),
            (.intersectSet, 6), (.minusSet, 7), (.subquery, 13), (.aggregate, 14), (.anyKey, 15), (.block, 19),
            (.conditional, 20),
        ]
        for (type, raw) in types { #expect(type.rawValue == raw) }
    }

    @Test func parsedPredicatesHaveTheirParts() throws {
        let p = try #require(NSPredicate(format: "ANY tags.name BEGINSWITH[cd] %@", "sw") as? NSComparisonPredicate)
        #expect(p.comparisonPredicateModifier == .any)
        #expect(p.predicateOperatorType == .beginsWith)
        #expect(p.options == [.caseInsensitive, .diacriticInsensitive])
        #expect(p.leftExpression.expressionType == .keyPath)
        #expect(p.leftExpression.keyPath == "tags.name")
        #expect(p.rightExpression.constantValue as? String == "sw")
        let c = try #require(NSPredicate(format: "a == 1 OR NOT b == 2") as? NSCompoundPredicate)
        #expect(c.compoundPredicateType == .or)
        #expect(c.subpredicates.count == 2)
        #expect((c.subpredicates[1] as? NSCompoundPredicate)?.compoundPredicateType == .not)
        // NONE x is NOT (ANY x): PPG-SYN, "Aggregate Operations".
        let none = try #require(NSPredicate(format: "NONE scores > 3") as? NSCompoundPredicate)
        #expect(none.compoundPredicateType == .not)
        #expect((none.subpredicates[0] as? NSComparisonPredicate)?.comparisonPredicateModifier == .any)
    }

    @Test func handBuiltPredicatesPrintAndEvaluate() {
        let left = NSExpression(forKeyPath: "age"), right = NSExpression(forConstantValue: 18)
        let p = NSComparisonPredicate(leftExpression: left, rightExpression: right, modifier: .direct, type: .greaterThanOrEqualTo)
        #expect(p.predicateFormat == "age >= 18")
        #expect(p.evaluate(with: ["age": 18]))
        let name = NSComparisonPredicate(leftExpression: NSExpression(forKeyPath: "name"),
                                         rightExpression: NSExpression(forConstantValue: "É*"),
                                         modifier: .direct, type: .like, options: [.caseInsensitive, .diacriticInsensitive])
        #expect(name.predicateFormat == #"name LIKE[cd] "É*""#)
        #expect(name.evaluate(with: ["name": "eve"]))
        let both = NSCompoundPredicate(andPredicateWithSubpredicates: [p, NSCompoundPredicate(orPredicateWithSubpredicates: [name, p])])
        #expect(both.predicateFormat == #"age >= 18 AND (name LIKE[cd] "É*" OR age >= 18)"#)
        #expect(NSCompoundPredicate(notPredicateWithSubpredicate: p).predicateFormat == "NOT age >= 18")
    }

    @Test func emptyCompoundsFollowApple() {
        // NSCompoundPredicate overview: an AND of no subpredicates is true, an OR of none is false.
        #expect(NSCompoundPredicate(andPredicateWithSubpredicates: []).evaluate(with: nil))
        #expect(!NSCompoundPredicate(orPredicateWithSubpredicates: []).evaluate(with: nil))
    }

    @Test func valueAndBlockPredicates() {
        #expect(NSPredicate(value: true).evaluate(with: nil))
        #expect(NSPredicate(value: true).predicateFormat == "TRUEPREDICATE")
        #expect(NSPredicate(value: false).predicateFormat == "FALSEPREDICATE")
        #expect(NSPredicate(value: true) == NSPredicate(format: "TRUEPREDICATE"))
        let block = NSPredicate { object, bindings in (object as? Int ?? 0) > (bindings?["min"] as? Int ?? 0) }
        #expect(block.evaluate(with: 5, substitutionVariables: ["min": 3]))
        #expect(!block.evaluate(with: 2, substitutionVariables: ["min": 3]))
        #expect(block.predicateFormat.hasPrefix("BLOCKPREDICATE("))
        #expect(block == block)
        #expect(block != NSPredicate { _, _ in true })
    }

    @Test func substitutionVariables() throws {
        let template = NSPredicate(format: "age > $MIN AND SUBQUERY(kids, $k, $k.age < $MIN).@count == 0")
        let filled = template.withSubstitutionVariables(["MIN": 10, "k": "must not replace the iteration variable"])
        #expect(filled.predicateFormat == "age > 10 AND SUBQUERY(kids, $k, $k.age < 10).@count == 0")
        #expect(template.predicateFormat.contains("$MIN"))  // the template is unchanged
        let object: [String: Any] = ["age": 12, "kids": [["age": 11]]]
        #expect(filled.evaluate(with: object))
        #expect(template.evaluate(with: object, substitutionVariables: ["MIN": 10]))
        #expect(!template.evaluate(with: object, substitutionVariables: ["MIN": 12]))
        // A missing variable is reported when evaluating, as Apple raises.
        #expect(throws: PredicateEvaluationError.self) { try template.evaluateThrowing(with: object) }
        let typed: NSComparisonPredicate = NSComparisonPredicate(format: "a == $X").withSubstitutionVariables(["X": 1])
        #expect(typed.rightExpression.constantValue as? Int == 1)
    }

    @Test func equalityHashingAndCopying() {
        let a = NSPredicate(format: "age == 1 AND name == 'x'"), b = NSPredicate(format: "age = 1.0 && name == \"x\"")
        #expect(a == b)
        #expect(a.hash == b.hash)
        #expect(Set([a, b]).count == 1)
        #expect(a != NSPredicate(format: "age == 1 AND name == 'y'"))
        #expect(NSPredicate(format: "age == 1") != NSPredicate(format: "age == '1'"))
        #expect(NSPredicate(format: "name ==[c] 'x'") != NSPredicate(format: "name == 'x'"))
        #expect(NSPredicate(format: "ANY a == 1") != NSPredicate(format: "ALL a == 1"))
        #expect((a.copy() as? NSPredicate) == a)
        #expect(NSExpression(format: "a + 1") == NSExpression(format: "a+1"))
        #expect((NSExpression(format: "a").copy() as? NSExpression) == NSExpression(forKeyPath: "a"))
        a.allowEvaluation()
    }

    /// Apple's printing as observed and posted at https://cnblogs.com/feng9exe/p/7091143.html
    /// (NSLog of predicates): `=` prints as `==`, strings in double quotes, numbers bare.
    @Test func printsAsAppleDoes() {
        #expect(NSPredicate(format: "%K = %@", "a", "ddd").predicateFormat == #"a == "ddd""#)
        #expect(NSPredicate(format: "eee = %@", "ddd").predicateFormat == #"eee == "ddd""#)
        #expect(NSPredicate(format: "h = 'hhh'").predicateFormat == #"h == "hhh""#)
        #expect(NSPredicate(format: "%K = %@", "c", NSNumber(value: 7)).predicateFormat == "c == 7")
        #expect(NSPredicate(format: "%K = %d", "e", 7).predicateFormat == "e == 7")
        // PPG-SYN: `%K like %@` with firstName/Adam "evaluates to firstName like "Adam"" (Apple prints operators in capitals).
        #expect(NSPredicate(format: "%K like %@", "firstName", "Adam").predicateFormat == #"firstName LIKE "Adam""#)
    }

    /// In-memory evaluation: NULL != "x" is true, as observed on Apple platforms
    /// (https://douglashill.co/nspredicate-null-inequality: filtering with
    /// `author != %@` keeps objects whose author is nil). Core Data's SQLite
    /// store differs (SQL's NULL comparison), which the store layer must handle.
    @Test func nullIsNotEqualToAValue() {
        let authors: [[String: Any]] = [["author": "Douglas Hill"], ["author": "Someone else"], ["author": NSNull()]]
        let kept = authors.filter { NSPredicate(format: "author != %@", "Douglas Hill").evaluate(with: $0) }
        #expect(kept.count == 2)
    }

    @Test func formatArgumentsOfEveryKind() {
        #expect(NSPredicate(format: "%K == %@", "name", "Adam").predicateFormat == #"name == "Adam""#)
        #expect(NSPredicate(format: "a == %d AND b == %f AND c == %s", 1, 2.5, "x").predicateFormat == #"a == 1 AND b == 2.5 AND c == "x""#)
        #expect(NSPredicate(format: "a == %@", NSNull()).predicateFormat == "a == nil")
        #expect(NSPredicate(format: "a == '%@' OR b == '$x'").predicateFormat == #"a == "%@" OR b == "$x""#)
        #expect(NSPredicate(format: "%K == 1", "in").predicateFormat == "#in == 1")  // reserved words get '#'
        #expect(NSPredicate(format: "a IN %@", [1, 2]).predicateFormat == "a IN {1, 2}")
        #expect(NSPredicate(format: "a == $NAME").predicateFormat == "a == $NAME")
        #expect(NSPredicate(format: "d == %@", Date(timeIntervalSinceReferenceDate: 1.5)).predicateFormat == #"d == CAST(1.500000, "NSDate")"#)
        #expect(NSPredicate(format: "s == %@", "quote \" and \\ and\nnewline").predicateFormat == #"s == "quote \" and \\ and\nnewline""#)
        #expect(NSPredicate(format: "a == %@", argumentArray: [3]).predicateFormat == "a == 3")
    }

    @Test func expressions() throws {
        #expect(NSExpression(format: "1 + 2 * 3").expressionValue(with: nil, context: nil) as? Int == 7)
        #expect(NSExpression(forFunction: "sum:", arguments: [NSExpression(forConstantValue: [1, 2, 3])]).expressionValue(with: nil, context: nil) as? Int == 6)
        #expect(NSExpression(forFunction: "sqrt:", arguments: [NSExpression(forConstantValue: 9)]).description == "sqrt:(9)")
        #expect(NSExpression(forFunction: "now", arguments: []).expressionValue(with: nil, context: nil) is Date)
        #expect(NSExpression.expressionForEvaluatedObject().expressionValue(with: 5, context: nil) as? Int == 5)
        #expect(NSExpression(forKeyPath: "a.b").expressionValue(with: ["a": ["b": 2]], context: nil) as? Int == 2)
        let variable = NSExpression(forVariable: "x")
        let context = NSMutableDictionary()
        context["x"] = 4
        #expect(variable.expressionValue(with: nil, context: context) as? Int == 4)
        let assign = try NSExpression.parse("$y := 2 + 3")
        #expect(assign.expressionValue(with: nil, context: context) as? Int == 5)
        #expect(context["y"] as? Int == 5)
        let union = NSExpression(forUnionSet: NSExpression(format: "{1, 2}"), with: NSExpression(format: "{2, 3}"))
        #expect((union.expressionValue(with: nil, context: nil) as? [Int]) == [1, 2, 3])
        #expect(union.expressionType == .unionSet)
        let minus = NSExpression(forMinusSet: NSExpression(format: "{1, 2}"), with: NSExpression(format: "{2}"))
        #expect((minus.expressionValue(with: nil, context: nil) as? [Int]) == [1])
        let intersect = NSExpression(forIntersectSet: NSExpression(format: "{1, 2}"), with: NSExpression(format: "{2}"))
        #expect((intersect.expressionValue(with: nil, context: nil) as? [Int]) == [2])
        let ternary = NSExpression(forConditional: NSPredicate(format: "SELF > 1"), trueExpression: NSExpression(format: "'big'"),
                                   falseExpression: NSExpression(format: "'small'"))
        #expect(ternary.expressionValue(with: 2, context: nil) as? String == "big")
        #expect(ternary.description == #"TERNARY(SELF > 1, "big", "small")"#)
        let block = NSExpression(block: { object, _, _ in (object as? Int ?? 0) * 2 }, arguments: nil)
        #expect(block.expressionValue(with: 21, context: nil) as? Int == 42)
        #expect(block.expressionType == .block)
        let subquery = NSExpression(forSubquery: NSExpression(forKeyPath: "xs"), usingIteratorVariable: "x",
                                    predicate: NSPredicate(format: "$x > 1"))
        #expect((subquery.expressionValue(with: ["xs": [1, 2, 3]], context: nil) as? [Int]) == [2, 3])
        #expect(subquery.description == "SUBQUERY(xs, $x, $x > 1)")
        let anyKey = NSExpression.expressionForAnyKey()
        #expect(anyKey.expressionType == .anyKey)
        #expect(NSPredicate(format: "ANYKEY == 'red'").evaluate(with: ["color": "red"]) == false)  // ANYKEY yields all values
        #expect(NSPredicate(format: "ANY ANYKEY == 'red'").evaluate(with: ["color": "red"]))
        #expect(NSExpression(format: "FUNCTION(SELF, 'uppercaseString')").expressionValue(with: "abc", context: nil) as? String == "ABC")
        #expect(NSExpression(format: "aggregate").expressionType == .keyPath)
        #expect(NSExpression(format: "{1, $x}").expressionType == .aggregate)
        #expect((NSExpression(format: "{1, 2}").collection as? [NSExpression])?.count == 2)
    }

    @Test func customFunctionsCanBeRegistered() throws {
        NSExpression.registerFunction("timesTen:") { receiver, arguments in
            ((receiver as? Int) ?? 0) * 10 + ((arguments.first ?? nil) as? Int ?? 0)
        }
        #expect(NSPredicate(format: "FUNCTION(n, 'timesTen:', 2) == 42").evaluate(with: ["n": 4]))
        // Unknown selectors throw (Linux cannot send them) and name the selector.
        let unknown = NSPredicate(format: "FUNCTION(n, 'frobnicate:', 1) == 1")
        let error = try #require(throws: PredicateEvaluationError.self) { try unknown.evaluateThrowing(with: ["n": 1]) }
        #expect(error.message.contains("frobnicate:"))
    }
}

@Suite struct OptionalArgumentTests {
    @Test func optionalArgumentsMeanNull() {
        let missing: String? = nil
        let present: String? = "x"
        #expect(NSPredicate(format: "a == %@", missing as Any).predicateFormat == "a == nil")
        #expect(NSPredicate(format: "a == %@", present as Any).predicateFormat == #"a == "x""#)
        #expect(NSPredicate(format: "%K == 1", present as Any).predicateFormat == "x == 1")
    }
}
