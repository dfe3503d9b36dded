import Testing
@testable import OpenCoreDataCore

/// Thousands of generated predicates and sorts, each fetched through SQL from
/// the SQLite store and evaluated in memory on the same objects: the results
/// must be the same, and failures (a predicate memory cannot evaluate) must
/// be failures in both.
@Suite struct SQLPredicateAgreementTests {
    /// Person (name, nick, age, score, active, born) → team (Team: title, rank),
    /// pets (Pet: name, legs; one-to-many), tags ⟷ people (Tag: label; many-to-many).
    static func model() -> NSManagedObjectModel {
        let person = NSEntityDescription(name: "Person"), team = NSEntityDescription(name: "Team")
        let pet = NSEntityDescription(name: "Pet"), tag = NSEntityDescription(name: "Tag")
        let teamOf = TestStack.relationship("team", to: team), members = TestStack.relationship("members", to: person, toMany: true)
        TestStack.pair(teamOf, members)
        let pets = TestStack.relationship("pets", to: pet, toMany: true), owner = TestStack.relationship("owner", to: person)
        TestStack.pair(pets, owner)
        let tags = TestStack.relationship("tags", to: tag, toMany: true), people = TestStack.relationship("people", to: person, toMany: true)
        TestStack.pair(tags, people)
        person.properties = [TestStack.attribute("name", .stringAttributeType), TestStack.attribute("nick", .stringAttributeType),
                             TestStack.attribute("age", .integer32AttributeType), TestStack.attribute("score", .doubleAttributeType),
                             TestStack.attribute("active", .booleanAttributeType), TestStack.attribute("born", .dateAttributeType),
                             teamOf, pets, tags]
        team.properties = [TestStack.attribute("title", .stringAttributeType), TestStack.attribute("rank", .integer16AttributeType), members]
        pet.properties = [TestStack.attribute("name", .stringAttributeType), TestStack.attribute("legs", .integer16AttributeType), owner]
        tag.properties = [TestStack.attribute("label", .stringAttributeType), people]
        let model = NSManagedObjectModel()
        model.entities = [person, team, pet, tag]
        return model
    }

    static let words = ["ann", "Ann", "anna", "bob", "Bób", "bo", "zoë", "Zoe", "zoe", "émile", "Emile", "carl", "", "b", "ANN", "éa"]

    struct Generator {
        var random: SeededGenerator
        let teams: [NSManagedObject], tags: [NSManagedObject]
        let dates: [Date]

        mutating func pick<T>(_ items: [T]) -> T { items.randomElement(using: &random)! }
        mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
        mutating func word() -> String { pick(SQLPredicateAgreementTests.words) }
        mutating func options() -> String { pick(["", "", "[c]", "[d]", "[cd]"]) }
        mutating func number(_ range: ClosedRange<Int>) -> Any {
            chance(10) ? NSNull() : (chance(70) ? Int.random(in: range, using: &random) as Any : Double.random(in: Double(range.lowerBound)...Double(range.upperBound), using: &random))
        }

        mutating func leaf(_ arguments: inout [Any], depth: Int) -> String {
            func arg(_ value: Any) -> String { arguments.append(value); return "%@" }
            switch Int.random(in: 0..<24, using: &random) {
            case 0, 1:
                let key = pick(["age", "team.rank"])
                return "\(key) \(pick(["<", "<=", ">", ">=", "==", "!="])) \(arg(number(0...60)))"
            case 2: return "score \(pick(["<", ">", "==", "!="])) \(arg(number(-5...5)))"
            case 3:
                let low = Int.random(in: 0...40, using: &random)
                return "age BETWEEN \(arg([low, low + Int.random(in: 0...30, using: &random)]))"
            case 4: return "age IN \(arg((0..<Int.random(in: 0...4, using: &random)).map { _ in Int.random(in: 0...60, using: &random) }))"
            case 5, 6, 7:
                let key = pick(["name", "nick", "team.title"])
                let op = pick(["==", "!=", "<", ">=", "BEGINSWITH", "ENDSWITH", "CONTAINS"])
                return "\(key) \(op)\(options()) \(arg(chance(8) ? NSNull() : word() as Any))"
            case 8: return "name LIKE\(options()) \(arg(pick(["a*", "*n", "?o*", "*", "b?", "*ë*", "Ann"])))"
            case 9: return "nick MATCHES\(options()) \(arg(pick(["a.*", "[a-c].+", "z.e", ".*", "b"])))"
            case 10: return "name IN\(options()) \(arg((0..<3).map { _ in word() }))"
            case 11: return "active == \(pick(["YES", "NO"]))"
            case 12: return "born \(pick(["<", ">", "<=", "==", "!="])) \(arg(pick(dates)))"
            case 13: return "\(pick(["nick", "team", "born", "score"])) \(pick(["==", "!="])) nil"
            case 14: return "team \(pick(["==", "!="])) \(arg(pick(teams)))"
            case 15: return "team IN \(arg([pick(teams), pick(teams)]))"
            case 16: return "ANY tags.label \(pick(["==", "BEGINSWITH[c]", "!="])) \(arg(word()))"
            case 17: return "\(pick(["ALL", "ANY", "NONE"])) pets.legs \(pick([">", "<=", "=="])) \(arg(Int.random(in: 0...4, using: &random)))"
            case 18: return "\(pick(["tags", "pets"])).@count \(pick(["==", ">", "<="])) \(arg(Int.random(in: 0...3, using: &random)))"
            case 19: return "SUBQUERY(pets, $p, $p.legs > \(arg(Int.random(in: 0...3, using: &random))) AND $p.name BEGINSWITH[c] \(arg(word()))).@count > 0"
            case 20: return chance(50) ? "tags CONTAINS \(arg(pick(tags)))" : "\(arg(pick(tags))) IN tags"
            case 21: return "\(pick(["age > team.rank", "name == nick", "name <[c] nick", "name BEGINSWITH nick", "ANY pets.name == name"]))"
            case 22: return "ANY members.age > \(arg(Int.random(in: 0...60, using: &random)))".replacingOccurrences(of: "ANY members", with: "ANY team.members")
            default: return pick(["TRUEPREDICATE", "FALSEPREDICATE", "team.title.length > 2", "name.length < 3"])
            }
        }

        mutating func predicate(_ arguments: inout [Any], depth: Int = 0) -> String {
            guard depth < 3, chance(45) else { return leaf(&arguments, depth: depth) }
            switch Int.random(in: 0..<3, using: &random) {
            case 0: return "(\(predicate(&arguments, depth: depth + 1)) AND \(predicate(&arguments, depth: depth + 1)))"
            case 1: return "(\(predicate(&arguments, depth: depth + 1)) OR \(predicate(&arguments, depth: depth + 1)))"
            default: return "NOT (\(predicate(&arguments, depth: depth + 1)))"
            }
        }

        mutating func sort() -> [NSSortDescriptor] {
            (0..<Int.random(in: 0...2, using: &random)).map { _ in
                let key = pick(["name", "nick", "age", "score", "born", "team.title", "team.rank", "active"])
                let selector = ["name", "nick", "team.title"].contains(key) && chance(40)
                    ? Selector(pick(["caseInsensitiveCompare:", "localizedStandardCompare:", "compare:"])) : nil
                return NSSortDescriptor(key: key, ascending: chance(50), selector: selector)
            }
        }
    }

    /// Saves a random population and returns a fresh reader on the reopened file.
    static func populate(_ random: inout SeededGenerator) throws -> NSManagedObjectContext {
        let context = try TestStack.context(model(), .sqlite)
        func word() -> String { words.randomElement(using: &random)! }
        let teams = (0..<8).map { i in TestStack.insert("Team", into: context, ["title": word(), "rank": Int16(i * 7)]) }
        let tags = (0..<10).map { _ in TestStack.insert("Tag", into: context, ["label": word()]) }
        for _ in 0..<160 {
            let person = TestStack.insert("Person", into: context)
            if Int.random(in: 0..<10, using: &random) > 0 { person.setValue(word(), forKey: "name") }
            if Bool.random(using: &random) { person.setValue(word(), forKey: "nick") }
            if Int.random(in: 0..<10, using: &random) > 0 { person.setValue(Int32.random(in: 0...60, using: &random), forKey: "age") }
            if Bool.random(using: &random) { person.setValue(Double(Int.random(in: -10...10, using: &random)) / 2, forKey: "score") }
            person.setValue(Bool.random(using: &random), forKey: "active")
            if Bool.random(using: &random) { person.setValue(Date(timeIntervalSinceReferenceDate: Double(Int.random(in: 0...20, using: &random)) * 86_400), forKey: "born") }
            if Int.random(in: 0..<5, using: &random) > 0 { person.setValue(teams.randomElement(using: &random), forKey: "team") }
            for _ in 0..<Int.random(in: 0...3, using: &random) { person.mutableSetValue(forKey: "tags").add(tags.randomElement(using: &random)!) }
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                let pet = TestStack.insert("Pet", into: context, ["legs": Int16.random(in: 0...4, using: &random)])
                if Bool.random(using: &random) { pet.setValue(word(), forKey: "name") }
                pet.setValue(person, forKey: "owner")
            }
        }
        try context.save()
        return try TestStack.reader(of: context)
    }

    @Test func sqlAgreesWithMemory() throws {
        var random = SeededGenerator(seed: 5_2026)
        let reader = try Self.populate(&random)
        let all = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person")) // Z_PK order
        let store = try #require(reader.persistentStoreCoordinator?.persistentStores.first as? SQLiteStore)
        var generator = Generator(random: random, teams: try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Team")),
                                  tags: try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Tag")),
                                  dates: (0...21).map { Date(timeIntervalSinceReferenceDate: Double($0) * 86_400) })
        var compiled = 0, failures = 0, checked = 0
        // A fixed count (not a time budget), so every run checks the same predicates: ~5 s on an idle 2-core machine.
        for _ in 0..<2000 {
            var arguments: [Any] = []
            let format = generator.predicate(&arguments)
            let predicate = NSPredicate(format: format, argumentArray: arguments)
            let request = NSFetchRequest<NSManagedObjectID>(entityName: "Person")
            request.resultType = .managedObjectIDResultType
            request.predicate = predicate
            request.sortDescriptors = generator.sort()
            if generator.chance(20) {
                request.fetchOffset = Int.random(in: 0...5, using: &generator.random)
                request.fetchLimit = Int.random(in: 0...20, using: &generator.random)
            }
            let query = SQLiteQuery(mapping: store.mapping)
            let scope = SQLiteQuery.Scope(query: query, alias: query.newAlias(), entity: store.mapping.entity(all[0].entity)!)
            if SQLitePredicateCompiler(query: query).condition(predicate, in: scope) != nil { compiled += 1 }

            let expected: [NSManagedObjectID]?
            do {
                let matching = try all.filter { try predicate.evaluateThrowing(with: $0) }
                let sorted = matching.sorted(using: request.sortDescriptors ?? [])
                expected = FetchEvaluation.window(sorted, offset: request.fetchOffset, limit: request.fetchLimit).map(\.objectID)
            } catch {
                expected = nil
            }
            let actual: [NSManagedObjectID]?
            do { actual = try reader.fetch(request) } catch { actual = nil }
            checked += 1
            if actual != expected {
                failures += 1
                Issue.record("\(format) \(arguments) sorted by \(request.sortDescriptors ?? []) window \(request.fetchOffset)/\(request.fetchLimit): SQL \(actual.map { "\($0.count) rows" } ?? "threw"), memory \(expected.map { "\($0.count) rows" } ?? "threw")")
                if failures > 10 { break }
            }
        }
        #expect(Double(compiled) / Double(checked) > 0.85, "\(compiled) of \(checked) predicates ran as SQL")
        print("SQLPredicateAgreementTests: \(checked) predicates, \(compiled) entirely in SQL")
    }

    /// Values that do not compare (a string and a number) fail in SQL as in
    /// memory: the comparison is left to memory, which reports it.
    @Test func illTypedComparisonsFailAsInMemory() throws {
        var random = SeededGenerator(seed: 7)
        let reader = try Self.populate(&random)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
        request.predicate = NSPredicate(format: "name < 3")
        let error = try #require(throws: NSError.self) { try reader.fetch(request) }
        #expect(error.domain == NSCocoaErrorDomain && error.code == NSCoreDataError)
    }
}
