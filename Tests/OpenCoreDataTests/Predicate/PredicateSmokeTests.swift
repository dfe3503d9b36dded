import Testing
@testable import OpenCoreData

@Suite struct PredicateSmokeTests {
    @Test func basics() throws {
        let p = try NSPredicate.parse("age > 30 AND firstName BEGINSWITH[c] 'ad'")
        #expect(p.predicateFormat == "age > 30 AND firstName BEGINSWITH[c] \"ad\"")
        #expect(try p.evaluateThrowing(with: Fixtures.adam))
        let q = NSPredicate(format: "ANY employees.age < %d", 20)
        #expect(q.evaluate(with: Fixtures.adam))
        #expect(NSPredicate(format: "employees.@avg.salary == 4000").evaluate(with: Fixtures.adam))
    }
}
