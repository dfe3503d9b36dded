import Testing
import GRDB
@testable import OpenCoreDataCore

/// Inputs the fuzz targets (Fuzz/) found stopping the program, each now a
/// regression test holding the minimal input.
@Suite struct FuzzFindingsTests {
    /// FuzzPredicateParser: `distinct` over several nils stopped the program
    /// with "Duplicate elements of type 'AnyHashable' were found in a Set":
    /// nil's key was NSNull, whose hash differs from call to call in
    /// swift-corelibs-foundation.
    @Test func distinctOfSeveralNilsCountsOneNil() throws {
        let object: [String: Any] = ["a": 1]
        let crash = "distinct({Sequence1, 1, zzzzzzzzzzzzzzzzzzzzzze1, 1, zzzzzzzzzzzzzzzzzzz2}).@count == 2"
        #expect(try NSPredicate.parse(crash).evaluateThrowing(with: object))
        #expect(try NSPredicate.parse("distinct({x, y, z, w, v, u}).@count == 1").evaluateThrowing(with: object))
        #expect(try NSPredicate.parse("({x, y, z, 1} INTERSECT {w, v, u, 1}).@count == 2").evaluateThrowing(with: object))
    }

    /// FuzzPredicateParser: assignments after unary minuses printed in
    /// parentheses the input did not have (`-$x := a` as `-($x := a)`), so a
    /// chain of them printed deeper than the parser's nesting limit. An
    /// assignment is now parenthesised only where an operator follows it.
    @Test func assignmentsPrintWithoutParenthesesTheInputDidNotNeed() throws {
        let crash = "1 + 92220 + 92220520 + 925080879----------$x := a +--$x :=a  \u{0B}-778216096 + 9225080 +02253388910804821337780533772250880----------$x := a +--$x :=a  \u{0B}-778216096 + 9225080 +0225085391083880479----------$x := a +--$x :=a  \u{0B}-778216096 + 9225080 +02253388910804821337780533772250880----------$x := a +--$x :=a  \u{0B}-778216096 + 9225080 +0225080225081/80 +022508533889108048216096 + 9225081 +9225081/30225081/807 > 0"
        for format in [crash, "-$x := a == 1", "($x := a) + 1 == 2", "1 + $x := a + 2 == 3", "($x := a) UNION b == c", "b UNION $x := a == c",
                       "($x := a).b == 1", "($x := a)[0] == 1", "-($x := a) * 2 == 1", "-$x := a * 2 == 1", "2 ** ($x := 3) ** 2 == 1"] {
            let predicate = try NSPredicate.parse(format)
            let printed = predicate.predicateFormat
            let reparsed = try NSPredicate.parse(printed)
            #expect(reparsed == predicate, "\(format) printed as \(printed)")
            #expect(reparsed.predicateFormat == printed)
        }
        #expect(try NSPredicate.parse("-$x := a == 1").predicateFormat == "-$x := a == 1")
        #expect(try NSPredicate.parse("($x := a) + 1 == 2").predicateFormat == "($x := a) + 1 == 2")
        // The longest chain the parser reads prints as one it reads.
        var longest: NSPredicate?
        for n in stride(from: 1, through: 60, by: 1) {
            let chain = (0..<n).reduce("a") { inner, _ in "-$x := b + " + inner } + " == 1"
            guard let predicate = try? NSPredicate.parse(chain) else { break }
            longest = predicate
        }
        let predicate = try #require(longest)
        #expect(try NSPredicate.parse(predicate.predicateFormat) == predicate)
    }

    /// FuzzPredicateParser: a chain of unary minuses ending in a number
    /// literal (`- - -2`, the last minus folded into the constant -2) or in
    /// another constant (`- -NULL`) printed the constant in parentheses, one
    /// level too deep at the nesting limit.
    @Test func unaryMinusesBeforeANegativeNumberPrintWithoutParentheses() throws {
        let crash = "SE" + String(repeating: "-", count: 98) + "2"
        let expression = try NSExpression.parse(crash)
        #expect(try NSExpression.parse(expression.description) == expression)
        #expect(try NSExpression.parse("- - -2").description == "---2")
        #expect(try NSExpression.parse("-(2)").description == "-(2)")
        #expect(try NSExpression.parse("- -2.5").description == "--2.5")
        #expect(try NSExpression.parse("--2").evaluate(with: nil) as? Int == 2)
        // The same for the other constants: nil, strings, dates, collections.
        let nils = "SE--t----------------------------NUL-----NULL--------\t-------NULL------\t---------NULL--------"
            + "\t-------NULL--------\t----------------------------------------NULL-----------------------------"
            + "-------------------NULL-NULL----------------------------------------------NULL------L-NULL------"
            + "----------------------------------------NULL--------\t-------NULL------\t---------NULL--------\t"
            + "-------NULL--------\t----NULL--------\t-------NULL--------\t------------------------------------"
            + "----NULL------------------------------------------------NULL-NULL-------------------------------"
            + "---------------NULL------L-NULL----------------------------------------------NULL--------\t-----"
            + "-----------NULL------------------------------------------------NULL-NULL------------------------"
            + "----------------------NULL--------\t-------NULL------\t---------NULL--------\t-------NULL-------"
            + "-\t---------------------------------------------------------NULL--------------------------------"
            + "----------------NULL-NULL----------------------------------------------NULL--------\t-------NULL"
            + "------\t---------NULL--------\t-------NULL--------\t----------------------------------------NULL"
            + "--------\t-------NULL--------\t---------LF BETWEEN 4"
        let predicate = try NSPredicate.parse(nils)
        #expect(try NSPredicate.parse(predicate.predicateFormat) == predicate)
        let printedForms = [("-nil", "-nil"), ("-'a'", "-\"a\""), ("-{1, 2}", "-{1, 2}"), ("-(1.5)", "-(1.5)"),
                            ("-(.5)", "-(0.5)")]
        for (format, printed) in printedForms {
            #expect(try NSExpression.parse(format).description == printed)
        }
    }

    /// FuzzPredicateParser: an infinite date (`CAST(31e999000, "NSDate")`)
    /// printed as `CAST(inf, "NSDate")`, which reads back as the key `inf`.
    @Test func infiniteDatesPrintAsNumbers() throws {
        let predicate = try NSPredicate.parse(#"CAST(31e999000, "NSDate") == ercat"#)
        #expect(predicate.predicateFormat == #"CAST(1e999, "NSDate") == ercat"#)
        #expect(try NSPredicate.parse(predicate.predicateFormat) == predicate)
        let past = try NSPredicate.parse("born < %@", arguments: [Date(timeIntervalSinceReferenceDate: -.infinity)])
        #expect(past.predicateFormat == #"born < CAST(-1e999, "NSDate")"#)
        #expect(try NSPredicate.parse(past.predicateFormat) == past)
    }

    /// FuzzPredicateSQL: `pets.@sum.legs0 > 3` stopped the program in the
    /// SQLite store's in-memory evaluation (StoreRow: no property 'legs0'):
    /// the key check stopped at the collection operator. It now reads on
    /// through `@sum` to the elements' entity; and a key no check can see
    /// (read from an object a TERNARY or an index yields) is an evaluation
    /// error, 134060, instead of a stop.
    @Test(arguments: TestStack.StoreKind.allCases)
    func unknownKeysAfterCollectionOperatorsThrow(_ kind: TestStack.StoreKind) throws {
        var random = SeededGenerator(seed: 19)
        let context = try TestStack.context(SQLPredicateAgreementTests.model(), kind)
        let person = TestStack.insert("Person", into: context, ["name": "ann", "age": Int32(random.next() % 60)])
        TestStack.insert("Pet", into: context, ["legs": Int16(4)]).setValue(person, forKey: "owner")
        person.setValue(TestStack.insert("Team", into: context, ["title": "t"]), forKey: "team")
        try context.save()
        let reader = try TestStack.reader(of: context)
        let cases: [(String, [Any])] = [
            ("pets.@sum.legs0 > 3", []), ("pets.@max.nokey == 4", []), ("%K == 1", ["team.self.nokey"]),
            ("%K == 1", ["SELF.team.SELF.nokey"]), ("TERNARY(age > -1, team, team).nokey == 1", []),
            ("{team}[0].nokey == 1", []), ("FUNCTION(SELF, 'team').nokey == 1", []),
        ]
        for (format, arguments) in cases {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.predicate = try NSPredicate.parse(format, arguments: arguments)
            do {
                _ = try reader.fetch(request)
                Issue.record("\(kind) \(format): no error")
            } catch {
                let error = error as NSError
                #expect(error.domain == NSCocoaErrorDomain && error.code == NSCoreDataError,
                        "\(kind) \(format): \(error)")
            }
        }
        let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
        request.predicate = try NSPredicate.parse("pets.@sum.legs == 4 AND pets.@max.legs == 4 AND %K == 't'",
                                                  arguments: ["team.self.title"])
        #expect(try reader.fetch(request).count == 1)
    }

    /// `plist` as a binary property list.
    private func binary(_ plist: Any) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
    }

    /// The keyed archive of `root`, its first collection (the object holding `NS.objects`) changed by `edit`,
    /// which also gets the archive's objects and the root's reference.
    private func edited(_ root: NSObject,
                        _ edit: (inout [Any], inout [String: Any], Any) throws -> Void) throws -> Data {
        let archive = try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: true)
        let read = try PropertyListSerialization.propertyList(from: archive, format: nil)
        var plist = try #require(read as? [String: Any])
        var objects = try #require(plist["$objects"] as? [Any])
        let index = try #require(objects.firstIndex { ($0 as? [String: Any])?["NS.objects"] != nil })
        var collection = try #require(objects[index] as? [String: Any])
        try edit(&objects, &collection, try #require((plist["$top"] as? [String: Any])?["root"]))
        objects[index] = collection
        plist["$objects"] = objects
        return try binary(plist)
    }

    /// FuzzStoreOpen: a byte flipped inside a transformable attribute's keyed
    /// archive stopped the program on reading it ("the decoding failure policy
    /// is .raiseException": corelibs' `unarchiveTopLevelObjectWithData`), and
    /// an archive naming a class outside a secure transformer's allowed ones
    /// stopped it too ("Value was of unexpected class"). Both now read as the
    /// stored Data, as other bytes that do not decode do.
    @Test func damagedOrForeignArchivesInTransformablesReadAsData() throws {
        // The minimal damage: an archive of another version, then one that is no dictionary.
        let badVersion = try binary(["$archiver": "NSKeyedArchiver", "$version": 1, "$top": [String: Any](),
                                     "$objects": [Any]()])
        let notADictionary = try binary(["$archiver"])
        let dictionary = try NSKeyedArchiver.archivedData(withRootObject: ["k": 1] as NSDictionary,
                                                          requiringSecureCoding: true)
        let unarchivers: [NSValueTransformerName] = [.keyedUnarchiveFromDataTransformerName,
                                                     .secureUnarchiveFromDataTransformerName]
        for name in unarchivers {
            let transformer = try #require(ValueTransformer.valueTransformer(forName: name))
            #expect(transformer.transformedValue(badVersion) == nil)
            #expect(transformer.transformedValue(notADictionary) == nil)
            #expect(transformer.transformedValue(dictionary) != nil)
        }
        // FuzzStoreOpen: a dictionary with fewer objects than keys (NSDictionary(coder:) read past its buffer:
        // SEGV), a key that is itself a reference (the decoded key did not find its object again: a nil
        // unwrapped in SQLiteTransformableCoding), and an array holding itself.
        let fewerObjects = try edited(["a": 1, "b": 2] as NSDictionary) { _, dictionary, _ in
            dictionary["NS.objects"] = Array((dictionary["NS.objects"] as? [Any] ?? []).prefix(1))
        }
        let keyReference = try edited(["k": 5] as NSDictionary) { objects, dictionary, _ in
            let key = try #require(objects.firstIndex { $0 as? String == "k" })
            objects[key] = try #require((dictionary["NS.objects"] as? [Any])?.first)
        }
        let selfHolding = try edited(["a", "b"] as NSArray) { _, array, root in
            array["NS.objects"] = (array["NS.objects"] as? [Any] ?? []) + [root]
        }
        for damaged in [fewerObjects, keyReference, selfHolding] {
            for name in unarchivers {
                #expect(ValueTransformer.valueTransformer(forName: name)?.transformedValue(damaged) == nil)
            }
            let attribute = NSAttributeDescription(name: "blob", type: .transformableAttributeType)
            #expect(SQLiteTransformableCoding.value(damaged, for: attribute) as? Data == damaged)
        }

        final class StringsOnly: NSSecureUnarchiveFromDataTransformer {
            override class var allowedTopLevelClasses: [AnyClass] { [NSString.self] }
        }
        #expect(StringsOnly().transformedValue(dictionary) == nil)
        let string = try NSKeyedArchiver.archivedData(withRootObject: "s" as NSString, requiringSecureCoding: true)
        #expect(StringsOnly().transformedValue(string) as? NSString == "s")

        // Through a store: the row holds the damaged archive, the attribute reads as its bytes.
        let context = try TestStack.context(SQLiteValueTransformerTests.model(transformer: ""), .sqlite)
        _ = TestStack.insert("Note", into: context, ["name": "n", "payload": ["k": 1] as NSDictionary])
        try context.save()
        let url = try #require(context.persistentStoreCoordinator?.persistentStores.first?.url)
        try DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: "UPDATE ZNOTE SET ZPAYLOAD = ?", arguments: [badVersion])
        }
        let reader = try TestStack.reader(of: context)
        let note = try #require(try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note")).first)
        #expect(note.value(forKey: "payload") as? Data == badVersion)
    }
}
