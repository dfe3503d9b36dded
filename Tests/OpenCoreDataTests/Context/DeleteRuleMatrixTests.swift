import Testing
@testable import OpenCoreDataCore

/// Every delete rule × every cardinality pair (reference §2.1 rule semantics,
/// §2.2 timing: rules run in processPendingChanges and at save, Deny is
/// checked at save with 1600). Source.forward has the rule under test; its
/// inverse Target.back is Nullify.
@Suite struct DeleteRuleMatrixTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case toOne, toMany, ordered
        var testDescription: String { rawValue }
        var isToMany: Bool { self != .toOne }
    }

    struct Case: CustomTestStringConvertible {
        var rule: NSDeleteRule
        var forward: Kind
        var back: Kind
        var testDescription: String { "\(rule.modelFileName) \(forward)→\(back)" }
    }

    static let cases: [Case] = NSDeleteRule.allCases.flatMap { rule in
        Kind.allCases.flatMap { forward in Kind.allCases.map { Case(rule: rule, forward: forward, back: $0) } }
    }

    static func model(_ c: Case) -> NSManagedObjectModel {
        let source = NSEntityDescription(name: "Source"), target = NSEntityDescription(name: "Target")
        let forward = TestStack.relationship("forward", to: target, toMany: c.forward.isToMany, rule: c.rule,
                                             ordered: c.forward == .ordered)
        let back = TestStack.relationship("back", to: source, toMany: c.back.isToMany, ordered: c.back == .ordered)
        TestStack.pair(forward, back)
        source.properties = [TestStack.attribute("name", .stringAttributeType), forward]
        target.properties = [TestStack.attribute("name", .stringAttributeType), back]
        let model = NSManagedObjectModel()
        model.entities = [source, target]
        return model
    }

    /// The graph as names: every object's name → the names it links to.
    static func graph(_ objects: [NSManagedObject]) -> [String: Set<String>] {
        Dictionary(uniqueKeysWithValues: objects.map { object in
            let key = object.entity.name == "Source" ? "forward" : "back"
            let value = object.value(forKey: key)
            let linked: [Any] = (value as? NSSet)?.allObjects ?? (value as? NSOrderedSet)?.array ?? (value.map { [$0] } ?? [])
            return (object.value(forKey: "name") as! String,
                    Set(linked.map { ($0 as! NSManagedObject).value(forKey: "name") as? String ?? "<gone>" }))
        })
    }

    /// s1 → t1 (and t2 when forward is to-many); s2 → t1 as well when both sides allow it.
    static func build(_ c: Case, in context: NSManagedObjectContext) -> (s1: NSManagedObject, s2: NSManagedObject, targets: [NSManagedObject]) {
        let s1 = TestStack.insert("Source", into: context, ["name": "s1"])
        let s2 = TestStack.insert("Source", into: context, ["name": "s2"])
        let t1 = TestStack.insert("Target", into: context, ["name": "t1"])
        var targets = [t1]
        if c.forward.isToMany {
            let t2 = TestStack.insert("Target", into: context, ["name": "t2"])
            targets.append(t2)
            s1.mutableSetValue(forKey: "forward").addObjects(from: targets)
            if c.back.isToMany { s2.mutableSetValue(forKey: "forward").add(t1) }
        } else {
            s1.setValue(t1, forKey: "forward")
            if c.back.isToMany { s2.setValue(t1, forKey: "forward") }
        }
        return (s1, s2, targets)
    }

    @Test(arguments: cases, TestStack.StoreKind.allCases)
    func deleteSource(_ c: Case, kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(Self.model(c), kind)
        let (s1, s2, targets) = Self.build(c, in: context)
        try context.save()
        let everyone = [s1, s2] + targets
        let saved = Self.graph(everyone)
        // Inverses were maintained when the graph was built.
        for t in targets { #expect(saved[t.value(forKey: "name") as! String]!.contains("s1")) }

        // 1. Right after delete nothing propagates yet (deletes are deferred).
        context.delete(s1)
        #expect(s1.isDeleted && targets.allSatisfy { !$0.isDeleted })
        #expect(Self.graph(everyone) == saved)

        // 2. processPendingChanges runs the rule.
        context.processPendingChanges()
        try checkPropagated(c, s1: s1, s2: s2, targets: targets, saved: saved)

        // 3. rollback restores the saved graph exactly.
        context.rollback()
        #expect(!s1.isDeleted && everyone.allSatisfy { !$0.hasChanges })
        #expect(Self.graph(everyone) == saved)

        // 4. Delete again and save.
        context.delete(s1)
        if c.rule == .denyDeleteRule {
            let error = try #require(throws: NSError.self) { try context.save() }
            #expect(error.code == NSValidationRelationshipDeniedDeleteError)
            #expect(error.userInfo[NSValidationObjectErrorKey] as? NSManagedObject === s1)
            #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "forward")
            #expect(s1.isDeleted && Self.graph(everyone) == saved) // the failed save changed nothing
            context.rollback()
            #expect(!s1.isDeleted && Self.graph(everyone) == saved)
            return
        }
        try context.save()
        #expect(s1.managedObjectContext == nil)
        let reader = try TestStack.reader(of: context)
        let stored = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Source"))
            + reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Target"))
        let storedNames = Set(stored.map { $0.value(forKey: "name") as! String })
        switch c.rule {
        case .cascadeDeleteRule:
            #expect(storedNames == ["s2"])
            #expect(Self.graph(stored) == ["s2": []])
        case .nullifyDeleteRule:
            var expected = saved
            expected["s1"] = nil
            for key in expected.keys { expected[key]!.remove("s1") }
            #expect(Self.graph(stored) == expected)
        case .noActionDeleteRule:
            // Targets still name s1's record, which no longer exists (reference §2.1).
            // In SQLite a to-many is read from the other side's row or join rows,
            // which go with s1's row; only a target's own to-one key dangles.
            #expect(!storedNames.contains("s1"))
            let dangles = kind == .inMemory || c.back == .toOne
            for t in stored where t.entity.name == "Target" {
                let links = Self.linked(t, "back")
                let dangling = links.filter { $0.objectID == s1.objectID }
                #expect(dangling.count == (dangles ? 1 : 0))
                // Firing the fault finds no record: shouldDeleteInaccessibleFaults (default true)
                // makes it read as deleted with nil values (reference §3.1).
                #expect(dangling.allSatisfy { $0.value(forKey: "name") == nil && $0.isDeleted })
            }
        case .denyDeleteRule:
            break
        }
    }

    static func linked(_ object: NSManagedObject, _ key: String) -> [NSManagedObject] {
        let value = object.value(forKey: key)
        let items: [Any] = (value as? NSSet)?.allObjects ?? (value as? NSOrderedSet)?.array ?? (value.map { [$0] } ?? [])
        return items.map { $0 as! NSManagedObject }
    }

    private func checkPropagated(_ c: Case, s1: NSManagedObject, s2: NSManagedObject, targets: [NSManagedObject],
                                 saved: [String: Set<String>]) throws {
        let now = Self.graph([s1, s2] + targets)
        switch c.rule {
        case .nullifyDeleteRule:
            #expect(now["s1"] == [])
            for t in targets { #expect(!now[t.value(forKey: "name") as! String]!.contains("s1")) }
            #expect(now["s2"] == saved["s2"]) // others keep their links
            #expect(targets.allSatisfy { !$0.isDeleted })
        case .cascadeDeleteRule:
            #expect(targets.allSatisfy { $0.isDeleted })
            // The targets' own Nullify rule detached them from every source.
            #expect(now["s2"] == [] && now["s1"] == [])
        case .denyDeleteRule, .noActionDeleteRule:
            #expect(now == saved)
            #expect(targets.allSatisfy { !$0.isDeleted })
        }
    }
}
