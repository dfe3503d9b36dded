import Foundation
import Testing
@testable import OpenCoreDataCore

/// The text and the arguments of a format string as the parser takes them:
/// keys in any script read as written (ASCII keys are copied byte for byte,
/// others decoded from UTF-16), and arguments boxed in optionals read as
/// what they hold.
struct FormatValuesTests {
    @Test func keysInAnyScriptReadAsWritten() throws {
        let keys = ["name", "_private9", "né", "Straße", "名前", "city.zip", "Ωmega"]
        for key in keys {
            let predicate = NSPredicate(format: "\(key) == 1")
            let comparison = try #require(predicate as? OpenCoreDataCore.NSComparisonPredicate, "\(key)")
            #expect(comparison.leftExpression.keyPath == key)
            #expect(predicate.evaluate(with: key.split(separator: ".").reversed()
                .reduce(1 as Any) { [String($1): $0] as [String: Any] }), "\(key)")
        }
        // Keywords are recognised in any case, as Foundation does.
        #expect(NSPredicate(format: "a in {1, 2}").evaluate(with: ["a": 2]))
        #expect(NSPredicate(format: "a BeginsWith 'x'").evaluate(with: ["a": "xy"]))
    }

    @Test func argumentsBoxedInOptionalsReadAsWhatTheyHold() throws {
        let five: Any = Optional(Optional(5)) as Any
        #expect(NSPredicate(format: "a == %@", argumentArray: [five]).evaluate(with: ["a": 5]))
        let none: Any = Optional<Int>.none as Any
        #expect(NSPredicate(format: "a == %@", argumentArray: [none]).evaluate(with: ["b": 1]))
        #expect(!NSPredicate(format: "a == %@", argumentArray: [none]).evaluate(with: ["a": 1]))
        #expect(NSPredicate(format: "a IN %@", argumentArray: [Optional([1, 2]) as Any]).evaluate(with: ["a": 2]))
        // An expression or a predicate in an optional is one all the same: the expression stands for
        // itself, the predicate is refused (an expression value was expected).
        let expression: Any = Optional(NSExpression(forKeyPath: "a")) as Any
        #expect(NSPredicate(format: "%@ == 5", argumentArray: [expression]).predicateFormat == "a == 5")
        let predicate: Any = Optional(NSPredicate(format: "TRUEPREDICATE")) as Any
        #expect(throws: PredicateSyntaxError.self) { try NSPredicate.parse("a == %@", arguments: [predicate]) }

        #expect(Values.isOptional(five) && Values.isOptional(none))
        #expect(!Values.isOptional(5) && !Values.isOptional([1, 2]) && !Values.isOptional(NSNull()))
        #expect(Values.normalized(five) as? Int == 5)
        #expect(Values.normalized(none) == nil && Values.normalized(NSNull()) == nil)
        #expect(Values.normalized(AnyHashable(Optional(3) as Int?)) as? Int == 3)
    }
}
