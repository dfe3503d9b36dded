import Testing
@testable import OpenCoreDataCore

/// Issue 19, P1: `FUNCTION(SELF, 'nokey') == 1` stopped the program inside
/// the SQLite store's in-memory evaluation (StoreRow: "has no property named
/// 'nokey'") where `nokey == 1` throws 134060. The key check before a fetch
/// now reads the keys FUNCTION and SUBQUERY variables reach too.
@Suite struct FunctionKeyPathTests {
    static func context(_ kind: TestStack.StoreKind) throws -> NSManagedObjectContext {
        let context = try TestStack.context(TestStack.companyModel(rule: .nullifyDeleteRule), kind)
        let boss = TestStack.insert("Employee", into: context, ["name": "a"])
        TestStack.insert("Employee", into: context, ["name": "b"]).setValue(boss, forKey: "manager")
        try context.save()
        return try TestStack.reader(of: context)
    }

    static func fetch(_ format: String, _ context: NSManagedObjectContext) throws -> [String] {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Employee")
        request.predicate = try NSPredicate.parse(format)
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        return try context.fetch(request).compactMap { $0.value(forKey: "name") as? String }
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func unknownKeysReachedThroughFunctionsAndSubqueriesThrow(_ kind: TestStack.StoreKind) throws {
        let context = try Self.context(kind)
        let unknown = [
            "nokey == 1",
            "FUNCTION(SELF, 'nokey') == 1",
            "FUNCTION(manager, 'nokey') == 1",
            "FUNCTION(SELF.manager.manager, 'nokey') == 1",
            "SUBQUERY(reports, $r, FUNCTION($r, 'nokey') == 1).@count > 0",
            "SUBQUERY(reports, $r, $r.nokey == 1).@count > 0",
            "SUBQUERY(reports, $r, $r.manager.nokey == 1).@count > 0",
            "FUNCTION(name, 'hasPrefix:', nokey) == YES",
        ]
        for format in unknown {
            do {
                _ = try Self.fetch(format, context)
                Issue.record("\(kind) \(format): no error")
            } catch {
                let error = error as NSError
                #expect(error.domain == NSCocoaErrorDomain && error.code == NSCoreDataError, "\(kind) \(format): \(error)")
                #expect("\(error.userInfo[NSLocalizedDescriptionKey] ?? "")".contains("nokey"), "\(kind) \(format)")
            }
        }
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func knownKeysStillFetch(_ kind: TestStack.StoreKind) throws {
        let context = try Self.context(kind)
        #expect(try Self.fetch("FUNCTION(SELF, 'name') == 'b'", context) == ["b"])
        #expect(try Self.fetch("FUNCTION(manager, 'name') == 'a'", context) == ["b"])
        #expect(try Self.fetch("FUNCTION(name, 'uppercaseString') == 'A'", context) == ["a"])
        #expect(try Self.fetch("SUBQUERY(reports, $r, $r.name == 'b').@count > 0", context) == ["a"])
        #expect(try Self.fetch("SUBQUERY(reports, $r, FUNCTION($r, 'name') == 'b').@count == 1", context) == ["a"])
        // A registered function is the caller's to answer, whatever its name.
        NSExpression.registerFunction("functionKeyPathTestsAnswer") { _, _ in 42 }
        #expect(try Self.fetch("FUNCTION(SELF, 'functionKeyPathTestsAnswer') == 42", context) == ["a", "b"])
    }
}
