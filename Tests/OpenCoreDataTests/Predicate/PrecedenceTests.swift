import Testing
@testable import OpenCoreDataCore

/// Operator precedence. Apple's BNF (Predicate Programming Guide, "BNF Definition
/// of Cocoa Predicates") does not state precedence; reference §5.4 and §10 item 5
/// record that Apple's parser binds NOT tighter than AND and AND tighter than
/// OR (as C's `!`, `&&`, `||`), unlike GNUstep's parser. The brief for issue 4
/// gives Apple's printing of mixed compounds: `a == 1 AND (b == 2 OR c == 3)` —
/// compound subpredicates are parenthesised, comparisons are not.
@Suite struct PrecedenceTests {
    private func format(_ s: String) throws -> String { try NSPredicate.parse(s).predicateFormat }

    @Test func andBindsTighterThanOr() throws {
        let p = try #require(try NSPredicate.parse("a == 1 OR b == 2 AND c == 3") as? NSCompoundPredicate)
        #expect(p.compoundPredicateType == .or)
        #expect((p.subpredicates[1] as? NSCompoundPredicate)?.compoundPredicateType == .and)
        #expect(p.predicateFormat == "a == 1 OR (b == 2 AND c == 3)")
        #expect(try format("a == 1 AND b == 2 OR c == 3") == "(a == 1 AND b == 2) OR c == 3")
    }

    @Test func notBindsTighterThanAnd() throws {
        let p = try #require(try NSPredicate.parse("NOT a == 1 AND b == 2") as? NSCompoundPredicate)
        #expect(p.compoundPredicateType == .and)
        #expect((p.subpredicates[0] as? NSCompoundPredicate)?.compoundPredicateType == .not)
        #expect(p.predicateFormat == "NOT a == 1 AND b == 2")
        #expect(try format("NOT (a == 1 AND b == 2)") == "NOT (a == 1 AND b == 2)")
        #expect(try format("! a == 1 || b == 2") == "NOT a == 1 OR b == 2")
    }

    @Test func parenthesesAreKeptWhereTheyMatter() throws {
        #expect(try format("a == 1 AND (b == 2 OR c == 3)") == "a == 1 AND (b == 2 OR c == 3)")
        #expect(try format("(a == 1 AND b == 2) AND c == 3") == "(a == 1 AND b == 2) AND c == 3")
        #expect(try format("a == 1 AND b == 2 AND c == 3") == "a == 1 AND b == 2 AND c == 3")
        #expect(try format("((a == 1))") == "a == 1")
    }

    @Test func sameOperatorChainsAreOneCompound() throws {
        let p = try #require(try NSPredicate.parse("a == 1 OR b == 2 OR c == 3") as? NSCompoundPredicate)
        #expect(p.subpredicates.count == 3)
    }

    @Test func arithmeticPrecedence() throws {
        // Multiplication before addition; `**` right-associative; `-` and `/` left-associative.
        #expect(try format("x == a + b * c") == "x == a + b * c")
        #expect(try format("x == (a + b) * c") == "x == (a + b) * c")
        #expect(try format("x == a - (b - c)") == "x == a - (b - c)")
        #expect(try format("x == a - b - c") == "x == a - b - c")
        #expect(try format("x == 2 ** 3 ** 2") == "x == 2 ** 3 ** 2")
        #expect(try format("x == (2 ** 3) ** 2") == "x == (2 ** 3) ** 2")
        #expect(try NSExpression.parse("1 + 2 * 3").evaluate(with: nil) as? Int == 7)
        #expect(try NSExpression.parse("2 ** 3 ** 2").evaluate(with: nil) as? Double == 512)
        #expect(try NSExpression.parse("10 - 4 - 3").evaluate(with: nil) as? Int == 3)
        #expect(try NSExpression.parse("12 / 2 / 3").evaluate(with: nil) as? Double == 2)
    }

    @Test func unaryMinusBindsTighterThanPower() throws {
        // [Inf] Apple does not document this (reference §5.4 lists `-2 ** 2` as a
        // case to check on a Mac); OpenCoreData reads `-2` as one number, so 4.
        #expect(try NSExpression.parse("-2 ** 2").evaluate(with: nil) as? Double == 4)
        #expect(try NSExpression.parse("-(2 ** 2)").evaluate(with: nil) as? Double == -4)
    }

    @Test func comparisonBindsLooserThanArithmetic() throws {
        let p = try #require(try NSPredicate.parse("a + 1 > b * 2") as? NSComparisonPredicate)
        #expect(p.leftExpression.function == "add:to:")
        #expect(p.rightExpression.function == "multiply:by:")
    }
}

/// Expressions built through the API print to format strings that parse back
/// to equal expressions, parentheses included where precedence needs them.
@Suite struct ExpressionRoundTripTests {
    @Test func everyPrintableKindRoundTrips() throws {
        let a = NSExpression(forKeyPath: "a"), b = NSExpression(forKeyPath: "b"), one = NSExpression(forConstantValue: 1)
        func f(_ name: String, _ args: NSExpression...) -> NSExpression { NSExpression(forFunction: name, arguments: args) }
        let expressions: [NSExpression] = [
            one, NSExpression(forConstantValue: nil), NSExpression(forConstantValue: "q\"uote\\"), NSExpression(forConstantValue: -2.5),
            NSExpression(forConstantValue: Date(timeIntervalSinceReferenceDate: -1.25)), NSExpression(forConstantValue: [1, "x"]),
            NSExpression(forConstantValue: true), NSExpression(forConstantValue: Double.infinity),
            .expressionForEvaluatedObject(), NSExpression(forVariable: "V"), NSExpression(forKeyPath: "a.@count"),
            NSExpression(forKeyPath: "size.in.first"),
            f("add:to:", a, f("multiply:by:", b, one)), f("multiply:by:", f("add:to:", a, b), one),
            f("from:subtract:", a, f("from:subtract:", b, one)), f("raise:toPower:", f("raise:toPower:", a, b), one),
            f("raise:toPower:", NSExpression(forConstantValue: -2), NSExpression(forConstantValue: 2)),
            f("divide:by:", a, f("divide:by:", b, one)), f("sum:", NSExpression(forAggregate: [a, b])), f("now"),
            f("modulus:by:", a, b), f("objectFrom:withIndex:", a, one), f("castObject:toType:", a, NSExpression(forConstantValue: "NSString")),
            NSExpression(forFunction: a, selectorName: "hasPrefix:", arguments: [NSExpression(forConstantValue: "x")]),
            NSExpression(forUnionSet: a, with: NSExpression(forIntersectSet: b, with: NSExpression(forMinusSet: a, with: b))),
            NSExpression(forSubquery: a, usingIteratorVariable: "x", predicate: NSPredicate(format: "$x.y > 1 OR $x.z == nil")),
            NSExpression(forConditional: NSPredicate(format: "a > 1"), trueExpression: a, falseExpression: b),
            NSExpression(forAggregate: []), .expressionForAnyKey(),
            NSExpression(format: "$v.name"), NSExpression(format: "(a + 1).b"), NSExpression(format: "a[LAST].b[0]"),
            NSExpression(format: "-a"), NSExpression(format: "2 * -a"), NSExpression(format: "$x := a + 1"),
        ]
        for e in expressions {
            let printed = e.description
            let reparsed = try NSExpression.parse(printed)
            #expect(reparsed == e, "\(printed)")
            #expect(reparsed.description == printed)
        }
    }
}
