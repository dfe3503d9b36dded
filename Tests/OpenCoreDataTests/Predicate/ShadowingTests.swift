// This file imports Foundation and OpenCoreData side by side, as app code does.
// Foundation on Linux declares its own NSPredicate, NSExpression,
// NSComparisonPredicate, NSCompoundPredicate and NSSortDescriptor; the
// unqualified names below must resolve to OpenCoreData's, because a module's
// declarations shadow those of the modules it imports (OpenCoreData imports
// Foundation). If they did not, these lines would be ambiguous or bind to
// Foundation's stubs and fail to compile (Foundation's have no format parser).
import Foundation
import OpenCoreData
import Testing

@Suite struct ShadowingTests {
    @Test func unqualifiedNamesAreOpenCoreDatas() {
        let predicate = NSPredicate(format: "age > %d", 18)
        let typed: OpenCoreData.NSPredicate = predicate
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
