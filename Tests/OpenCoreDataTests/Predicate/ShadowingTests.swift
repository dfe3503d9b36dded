// This file imports Foundation and OpenCoreData side by side, as app code does.
// Foundation on Linux declares its own NSPredicate, NSExpression,
// NSComparisonPredicate, NSCompoundPredicate and NSSortDescriptor; the
// unqualified names below must resolve to OpenCoreData's, as values and as
// types: the OpenCoreData module re-exports those classes by name (see
// Sources/OpenCoreDataExports). If they did not, these lines would be
// ambiguous or bind to Foundation's stubs and fail to compile (Foundation's
// have no format parser).
import Foundation
import OpenCoreData
import Testing

@Suite struct ShadowingTests {
    @Test func unqualifiedNamesAreOpenCoreDatas() {
        let predicate: NSPredicate = NSPredicate(format: "age > %d", 18)
        let typed: OpenCoreData.NSPredicate = predicate
        let _: [NSSortDescriptor] = [], _: NSExpression? = nil, _: NSCompoundPredicate? = nil
        #expect(typed is OpenCoreData.NSComparisonPredicate)
        #expect(predicate.evaluate(with: ["age": 30]))

        let comparison = NSComparisonPredicate(leftExpression: NSExpression(forKeyPath: "a"),
                                               rightExpression: NSExpression(forConstantValue: 1),
                                               modifier: .direct, type: .equalTo, options: [])
        let _: OpenCoreData.NSComparisonPredicate = comparison
        let compound = NSCompoundPredicate(andPredicateWithSubpredicates: [comparison, predicate])
        let _: OpenCoreData.NSCompoundPredicate = compound
        let expression = NSExpression(format: "1 + 2")
        let _: OpenCoreData.NSExpression = expression
        let sort = NSSortDescriptor(key: "age", ascending: true)
        let _: OpenCoreData.NSSortDescriptor = sort
        #expect(compound.predicateFormat == "a == 1 AND age > 18")
    }

    @Test func appleSpellingsCompile() {
        // Apple's `Selector("…")` spelling; Linux Foundation has no Selector, OpenCoreData
        // provides one. (`#selector(...)` needs the Objective-C runtime and does not exist on Linux.)
        let byName = NSSortDescriptor(key: "name", ascending: true, selector: Selector("caseInsensitiveCompare:"))
        let byLiteral = NSSortDescriptor(key: "name", ascending: true, selector: "localizedStandardCompare:")
        #expect(byLiteral.selector?.name == "localizedStandardCompare:")
        #expect(byName.selector == Selector("caseInsensitiveCompare:"))
        let sorted = [["name": "b"], ["name": "A"]].sorted(using: [byName])
        #expect(sorted.map { $0["name"] } == ["A", "b"])
        let array = NSArray(array: [["n": 2], ["n": 1]])
        #expect((array.sortedArray(using: [NSSortDescriptor(key: "n", ascending: true)]) as? [[String: Int]])?.first?["n"] == 1)
        let template = NSPredicate(format: "name BEGINSWITH $letter")
        #expect(template.withSubstitutionVariables(["letter": "r"]).evaluate(with: ["name": "rose"]))
    }
}

@Suite struct FilteringTests {
    @Test func foundationCollectionsFilterWithOurPredicates() {
        let predicate = NSPredicate(format: "SELF > 1")
        #expect((NSArray(array: [1, 2, 3]).filtered(using: predicate) as? [Int]) == [2, 3])
        let mutable = NSMutableArray(array: [1, 2, 3])
        mutable.filter(using: predicate)
        #expect(mutable.count == 2)
        #expect(NSSet(array: [1, 2, 3]).filtered(using: predicate).count == 2)
        #expect(NSOrderedSet(array: [3, 1, 2]).filtered(using: predicate).array.compactMap { $0 as? Int } == [3, 2])
    }

    /// Predicates and sort descriptors are immutable after construction, so
    /// they may be evaluated from many threads at once (the MATCHES cache is locked).
    @Test func concurrentEvaluation() async {
        let predicate = NSPredicate(format: "name MATCHES %@ AND age > 30", "[A-Z][a-z]+")
        @Sendable func objects() -> [[String: Any]] { (0..<200).map { ["name": $0 % 2 == 0 ? "Adam" : "adam", "age": $0] } }
        let expected = objects().filter { predicate.evaluate(with: $0) }.count
        let counts = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask { objects().filter { predicate.evaluate(with: $0) }.count }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(counts == Array(repeating: expected, count: 8))
        #expect(expected == 84)  // even ages 32...198
    }
}
