import Testing
@testable import OpenCoreDataCore

/// Validation predicates of a property (NSPropertyDescription.h
/// `setValidationPredicates:withValidationWarnings:`; Core Data Programming
/// Guide, "Object Validation"): evaluated with the value as SELF at save; a
/// failure is NSManagedObjectValidationError (1550) whose message is the warning.
@Suite struct ValidationPredicateTests {
    static func context() throws -> NSManagedObjectContext {
        let model = TestStack.albumsModel()
        let name = model.entitiesByName["Album"]!.attributesByName["name"]!
        name.setValidationPredicates([NSPredicate(format: "length >= 3"), NSPredicate(format: "NOT SELF BEGINSWITH 'tmp'")],
                                     withValidationWarnings: ["Album names need three letters.", "Temporary names can't be saved."])
        return try TestStack.context(model)
    }

    @Test func failingPredicateBlocksTheSave() throws {
        let context = try Self.context()
        context.performAndWait {
            let album = TestStack.insert("Album", into: context, ["name": "ab"])
            do {
                try context.save()
                Issue.record("saved an invalid name")
            } catch let error as NSError {
                #expect(error.code == NSManagedObjectValidationError)
                #expect(error.localizedDescription == "Album names need three letters.")
                #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "name")
                #expect((error.userInfo[NSValidationPredicateErrorKey] as? NSPredicate)?.predicateFormat == "length >= 3")
                #expect(error.userInfo[NSValidationObjectErrorKey] as? NSManagedObject === album)
            }
            album.setValue("tmp-holiday", forKey: "name")
            #expect((try? context.save()) == nil)
            album.setValue("Holiday", forKey: "name")
            #expect((try? context.save()) != nil)
        }
    }

    @Test func predicatesAreReadBackTyped() throws {
        let model = TestStack.albumsModel()
        let name = model.entitiesByName["Album"]!.attributesByName["name"]!
        name.setValidationPredicates([NSPredicate(format: "length >= 3")], withValidationWarnings: ["short"])
        #expect(name.validationPredicates.map(\.predicateFormat) == ["length >= 3"])
        #expect(name.validationWarnings as? [String] == ["short"])
    }
}
