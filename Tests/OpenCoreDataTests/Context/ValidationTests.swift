import Testing
@testable import OpenCoreDataCore

/// Validation at save (reference §2.3 codes, §2.4 userInfo keys and 1560
/// wrapping; CDPG-VAL: "applied by Core Data only during a save operation or
/// upon request").
@Suite struct ValidationTests {
    static func model(personClass: String? = nil) -> NSManagedObjectModel {
        let person = NSEntityDescription(name: "Person", className: personClass)
        let tag = NSEntityDescription(name: "Tag")
        let team = NSEntityDescription(name: "Team")
        let tags = TestStack.relationship("tags", to: tag, toMany: true, min: 2, max: 3)
        let tagged = TestStack.relationship("people", to: person, toMany: true)
        TestStack.pair(tags, tagged)
        let teamOf = TestStack.relationship("team", to: team, optional: false)
        let members = TestStack.relationship("members", to: person, toMany: true, optional: false)
        TestStack.pair(teamOf, members)
        let leader = TestStack.relationship("leaders", to: person, toMany: true, optional: false, min: 1)
        let leads = TestStack.relationship("leads", to: team)
        TestStack.pair(leader, leads)
        person.properties = [
            TestStack.attribute("name", .stringAttributeType, optional: false,
                                rules: .init(minValueString: "2", maxValueString: "5", regularExpressionString: "[A-Z][a-z]*")),
            TestStack.attribute("age", .integer16AttributeType, rules: .init(minValueString: "0", maxValueString: "150")),
            TestStack.attribute("height", .doubleAttributeType, rules: .init(minValueString: "0.5", maxValueString: "2.5")),
            TestStack.attribute("born", .dateAttributeType, rules: .init(minDateTimeInterval: 0, maxDateTimeInterval: 1_000_000)),
            tags, teamOf, leads,
        ]
        tag.properties = [TestStack.attribute("label", .stringAttributeType), tagged]
        team.properties = [TestStack.attribute("name", .stringAttributeType), members, leader]
        let model = NSManagedObjectModel()
        model.entities = [person, tag, team]
        return model
    }

    /// A saved, valid team with a valid person who leads it, and a second member
    /// (so that taking the person out keeps the team's required members).
    static func validGraph() throws -> (NSManagedObjectContext, NSManagedObject, NSManagedObject) {
        let context = try TestStack.context(model())
        let team = TestStack.insert("Team", into: context, ["name": "A"])
        let person = TestStack.insert("Person", into: context, ["name": "Ada", "age": 36, "team": team, "leads": team])
        _ = TestStack.insert("Person", into: context, ["name": "Bea", "team": team])
        try context.save()
        return (context, person, team)
    }

    struct Breakage: CustomTestStringConvertible, Sendable {
        var code: Int
        var key: String
        var value: @Sendable () -> Any?
        var testDescription: String { "\(code) \(key)" }
    }

    static let breakages: [Breakage] = [
        Breakage(code: NSValidationMissingMandatoryPropertyError, key: "name", value: { nil }),
        Breakage(code: NSValidationStringTooShortError, key: "name", value: { "A" }),
        Breakage(code: NSValidationStringTooLongError, key: "name", value: { "Adelaide" }),
        Breakage(code: NSValidationStringPatternMatchingError, key: "name", value: { "ada" }),
        Breakage(code: NSValidationNumberTooSmallError, key: "age", value: { -1 }),
        Breakage(code: NSValidationNumberTooLargeError, key: "age", value: { 151 }),
        Breakage(code: NSValidationNumberTooSmallError, key: "height", value: { 0.25 }),
        Breakage(code: NSValidationNumberTooLargeError, key: "height", value: { 3.0 }),
        Breakage(code: NSValidationDateTooSoonError, key: "born", value: { Date(timeIntervalSinceReferenceDate: -1) }),
        Breakage(code: NSValidationDateTooLateError, key: "born", value: { Date(timeIntervalSinceReferenceDate: 1_000_001) }),
        Breakage(code: NSValidationMissingMandatoryPropertyError, key: "team", value: { nil }),
    ]

    @Test(arguments: breakages)
    func singleFailure(_ breakage: Breakage) throws {
        let (context, person, _) = try Self.validGraph()
        person.setValue(breakage.value(), forKey: breakage.key)
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == breakage.code)
        #expect(error.userInfo[NSValidationObjectErrorKey] as? NSManagedObject === person)
        #expect(error.userInfo[NSValidationKeyErrorKey] as? String == breakage.key)
        if let value = breakage.value() {
            #expect(ValueEquality.equal(error.userInfo[NSValidationValueErrorKey], ValueCoercion.coerce(value, for: person.entity.attributesByName[breakage.key]!)))
        } else {
            #expect(error.userInfo[NSValidationValueErrorKey] == nil)
        }
        // A failed save changes nothing: the store still has the valid value, the context keeps the change.
        #expect(person.isUpdated)
        let reader = TestStack.sibling(of: context)
        let stored = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person"))
        #expect(TestStack.names(stored) == ["Ada", "Bea"])
        context.rollback()
        try context.save()
    }

    @Test func toManyCounts() throws {
        let (context, person, team) = try Self.validGraph()
        let tags = (0..<4).map { TestStack.insert("Tag", into: context, ["label": "t\($0)"]) }
        // Optional to-many: empty is fine, 1 is below minCount 2, 4 above maxCount 3 (reference §2.3).
        person.setValue(NSSet(array: [tags[0]]), forKey: "tags")
        var error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.code == NSValidationRelationshipLacksMinimumCountError)
        #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "tags")
        #expect((error.userInfo[NSValidationValueErrorKey] as? NSSet)?.count == 1)
        person.setValue(NSSet(array: tags), forKey: "tags")
        error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.code == NSValidationRelationshipExceedsMaximumCountError)
        person.setValue(NSSet(array: Array(tags[0..<3])), forKey: "tags")
        try context.save()

        // Required to-many emptied: minCount 0 → 1570, minCount 1 → 1580 [Inf: reference §2.3 row meanings].
        person.setValue(nil, forKey: "leads")
        error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.code == NSValidationRelationshipLacksMinimumCountError)
        #expect(error.userInfo[NSValidationObjectErrorKey] as? NSManagedObject === team)
        #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "leaders")
        context.rollback()
        let bea = try #require(TestStack.set(team, "members").first { $0 !== person })
        // Bea leads B; making Ada lead B would move her away from leading A (leads is to-one).
        let other = TestStack.insert("Team", into: context, ["name": "B", "leaders": NSSet(array: [bea])])
        for member in TestStack.set(team, "members") { member.setValue(other, forKey: "team") } // empties team A's required members
        error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.code == NSValidationMissingMandatoryPropertyError)
        #expect(error.userInfo[NSValidationObjectErrorKey] as? NSManagedObject === team)
        #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "members")
    }

    @Test(arguments: TestStack.StoreKind.allCases)
    func denyDelete(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(TestStack.shoppingModel(unitRule: .denyDeleteRule), kind)
        let unit = TestStack.insert("Unit", into: context, ["name": "Kg"])
        _ = TestStack.insert("Item", into: context, ["name": "corn", "unit": unit])
        try context.save()
        context.delete(unit)
        #expect(throws: NSError.self) { try unit.validateForDelete() } // "or upon request" (CDPG-VAL)
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.code == NSValidationRelationshipDeniedDeleteError)
    }

    /// A save checks each deleted object's Deny rules whatever was deleted before it: here an
    /// object of an entity without one first (the save skips validating those), then the unit.
    @Test(arguments: TestStack.StoreKind.allCases)
    func denyDeleteAfterAnotherEntitysDelete(kind: TestStack.StoreKind) throws {
        let context = try TestStack.context(TestStack.shoppingModel(unitRule: .denyDeleteRule), kind)
        let unit = TestStack.insert("Unit", into: context, ["name": "Kg"])
        let corn = TestStack.insert("Item", into: context, ["name": "corn", "unit": unit])
        _ = TestStack.insert("Item", into: context, ["name": "rice", "unit": unit])
        try context.save()
        context.delete(corn)
        context.delete(unit)
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.code == NSValidationRelationshipDeniedDeleteError)
        #expect(error.userInfo[NSValidationObjectErrorKey] as? NSManagedObject === unit)
    }

    /// Several failures come back as 1560 with each one in NSDetailedErrorsKey
    /// (reference §2.4), across keys of one object and across objects.
    @Test func multipleFailures() throws {
        let (context, person, _) = try Self.validGraph()
        person.setValue("a", forKey: "name")      // too short and not matching the pattern
        person.setValue(200, forKey: "age")       // too large
        let stranger = TestStack.insert("Person", into: context, ["born": Date(timeIntervalSinceReferenceDate: -5)])
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.code == NSValidationMultipleErrorsError)
        let details = try #require(error.userInfo[NSDetailedErrorsKey] as? [NSError])
        let found = Set(details.map { "\(($0.userInfo[NSValidationObjectErrorKey] as! NSManagedObject) === person ? "p" : "s").\($0.userInfo[NSValidationKeyErrorKey] as! String).\($0.code)" })
        #expect(found == [
            "p.name.\(NSValidationStringTooShortError)", "p.name.\(NSValidationStringPatternMatchingError)",
            "p.age.\(NSValidationNumberTooLargeError)",
            "s.name.\(NSValidationMissingMandatoryPropertyError)", "s.team.\(NSValidationMissingMandatoryPropertyError)",
            "s.born.\(NSValidationDateTooSoonError)",
        ])
        #expect(stranger.isInserted && context.hasChanges)
    }

    /// A subclass's own rules: Core Data's validate<Key> hook is an override
    /// of validateValue(_:forKey:) here (docs/Differences.md); a corrected
    /// value is stored.
    @Test(arguments: TestStack.StoreKind.allCases)
    func customValidationHook(kind: TestStack.StoreKind) throws {
        NSManagedObject.register(CheckedPerson.self)
        let context = try TestStack.context(Self.model(personClass: "CheckedPerson"), kind)
        let team = TestStack.insert("Team", into: context, ["name": "A"])
        let person = TestStack.insert("Person", into: context, ["name": "Bob", "team": team, "leads": team])
        #expect(person is CheckedPerson)
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.code == NSManagedObjectValidationError)
        #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "name")
        person.setValue("Al", forKey: "name")
        person.setValue(-3, forKey: "age") // corrected to 0 by the hook
        try context.save()
        #expect(person.value(forKey: "age") as? Int16 == 0)
    }
}

final class CheckedPerson: NSManagedObject {
    override func validateValue(_ value: inout Any?, forKey key: String) throws {
        if key == "age", let age = value as? Int16, age < 0 { value = Int16(0) }
        try super.validateValue(&value, forKey: key)
        if key == "name", value as? String == "Bob" {
            throw NSError(domain: NSCocoaErrorDomain, code: NSManagedObjectValidationError,
                          userInfo: [NSValidationObjectErrorKey: self, NSValidationKeyErrorKey: key])
        }
    }
}
