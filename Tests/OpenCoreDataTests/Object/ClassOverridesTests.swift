import Testing
@testable import OpenCoreDataCore

/// Which classes customise validation or deletion (`ClassOverrides`): those
/// overriding one of the methods involved. A save validates the others
/// (Xcode's generated classes) as plain objects, by the model's rules alone;
/// the cases below show both kinds of class still get every rule Core Data
/// applies (CDPG-VAL: a subclass customises validation by implementing
/// `validate<Key>` or overriding `validateForInsert`/`validateForUpdate`/
/// `validateForDelete`, calling super). Deleting as faults is in
/// `ToManyFaultTests`.
@Suite struct ClassOverridesTests {
    @Test func classesOverridingNoneOfTheMethodsCustomizeNothing() {
        for type in [NSManagedObject.self, GeneratedNote.self, AwakeningNote.self, GenericNote<Int>.self,
                     GenericNote<String>.self] as [NSManagedObject.Type] {
            #expect(!ClassOverrides.customizeValidation(type), "\(type)")
            #expect(!ClassOverrides.customizeValueValidation(type), "\(type)")
            #expect(!ClassOverrides.customizeDeletion(type), "\(type)")
        }
    }

    @Test func classesOverridingAValidationMethodCustomizeValidationAndDeletion() {
        // InheritedCheckNote inherits its override from a class in between.
        for type in [KeyCheckedNote.self, InsertCheckedNote.self, UpdateCheckedNote.self, DeleteCheckedNote.self,
                     InheritedCheckNote.self] as [NSManagedObject.Type] {
            #expect(ClassOverrides.customizeValidation(type), "\(type)")
            #expect(ClassOverrides.customizeDeletion(type), "\(type)")
            // Only an override of validateValue(_:forKey:) is asked about each property.
            #expect(ClassOverrides.customizeValueValidation(type) == (type == KeyCheckedNote.self), "\(type)")
        }
    }

    @Test func classesOverridingWhatADeleteCallsCustomizeDeletionOnly() {
        for type in [PreparingNote.self, FetchAwareNote.self, WillSaveNote.self, DidSaveNote.self]
            as [NSManagedObject.Type] {
            #expect(!ClassOverrides.customizeValidation(type), "\(type)")
            #expect(!ClassOverrides.customizeValueValidation(type), "\(type)")
            #expect(ClassOverrides.customizeDeletion(type), "\(type)")
        }
    }

    static func model(className: String) -> NSManagedObjectModel {
        let note = NSEntityDescription(name: "Note", className: className)
        note.properties = [
            TestStack.attribute("title", .stringAttributeType, optional: false),
            TestStack.attribute("words", .integer32AttributeType, rules: .init(minValueString: "0")),
        ]
        let model = NSManagedObjectModel()
        model.entities = [note]
        return model
    }

    /// A class overriding nothing still gets the model's rules, on insert and on update.
    @Test(arguments: TestStack.StoreKind.allCases)
    func generatedClassesGetTheModelsRules(kind: TestStack.StoreKind) throws {
        NSManagedObject.register(GeneratedNote.self)
        let context = try TestStack.context(Self.model(className: "GeneratedNote"), kind)
        let note = TestStack.insert("Note", into: context, ["words": Int32(3)])
        #expect(note is GeneratedNote)
        let missing = try #require(throws: NSError.self) { try context.save() }
        #expect(missing.code == NSValidationMissingMandatoryPropertyError)
        #expect(missing.userInfo[NSValidationKeyErrorKey] as? String == "title")
        note.setValue("Groceries", forKey: "title")
        try context.save()
        note.setValue(Int32(-1), forKey: "words")
        let tooSmall = try #require(throws: NSError.self) { try context.save() }
        #expect(tooSmall.code == NSValidationNumberTooSmallError)
        #expect(tooSmall.userInfo[NSValidationKeyErrorKey] as? String == "words")
    }

    /// Each validation method a class overrides is called by the save, and
    /// the override of `validateValue(_:forKey:)` is asked about every
    /// property, rules or not.
    @Test(arguments: TestStack.StoreKind.allCases)
    func overridesAreCalled(kind: TestStack.StoreKind) throws {
        let expected: [(NSManagedObject.Type, [String])] = [
            (KeyCheckedNote.self, ["title", "words", "title", "words"]),
            (InsertCheckedNote.self, ["insert"]), (UpdateCheckedNote.self, ["update"]),
            (DeleteCheckedNote.self, ["delete"]), (InheritedCheckNote.self, ["insert"]),
        ]
        for (type, calls) in expected {
            NSManagedObject.register(type)
            let context = try TestStack.context(Self.model(className: String(describing: type)), kind)
            let note = TestStack.insert("Note", into: context, ["title": "A", "words": Int32(1)])
            #expect(Swift.type(of: note) == type)
            try context.save()
            note.setValue("B", forKey: "title")
            try context.save()
            context.delete(note)
            try context.save()
            #expect((note as? RecordsValidation)?.calls == calls, "\(type)")
        }
    }

    /// A class overriding `validateForInsert()` gets the model's rules from
    /// `super`; a correction an override of `validateValue(_:forKey:)` makes
    /// is what the save stores.
    @Test func overridesKeepTheRulesAndStoreCorrections() throws {
        NSManagedObject.register(InsertCheckedNote.self)
        let context = try TestStack.context(Self.model(className: "InsertCheckedNote"))
        let note = TestStack.insert("Note", into: context, ["title": "A", "words": Int32(-5)])
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.code == NSValidationNumberTooSmallError)
        NSManagedObject.register(KeyCheckedNote.self)
        let corrected = try TestStack.context(Self.model(className: "KeyCheckedNote"))
        let other = TestStack.insert("Note", into: corrected, ["title": "A", "words": Int32(-5)])
        try corrected.save()
        #expect(other.value(forKey: "words") as? Int32 == 0)
        #expect(note.value(forKey: "words") as? Int32 == -5)
    }

    /// A save asks each object's class whether it overrides validation, and
    /// remembers the answer for the class it asked about last. With no rule
    /// in the model, only that answer makes the save call an override:
    /// objects of a class overriding `validateForInsert()` between objects
    /// of one that does not, in either order, are each validated once.
    @Test func objectsOfClassesThatDoAndDoNotOverrideValidateInOneSave() throws {
        NSManagedObject.register(InsertCheckedNote.self)
        let note = NSEntityDescription(name: "Note", className: "InsertCheckedNote")
        let plain = NSEntityDescription(name: "Plain")
        for entity in [note, plain] { entity.properties = [TestStack.attribute("title", .stringAttributeType)] }
        let model = NSManagedObjectModel()
        model.entities = [note, plain]
        let context = try TestStack.context(model)
        var notes: [InsertCheckedNote] = []
        for index in 0..<6 {
            if index % 3 != 1 { TestStack.insert("Plain", into: context, ["title": "p\(index)"]) }
            let note = TestStack.insert("Note", into: context, ["title": "n\(index)"])
            notes.append(try #require(note as? InsertCheckedNote))
        }
        try context.save()
        #expect(notes.map(\.calls) == Array(repeating: ["insert"], count: 6))
    }
}

/// A class whose validation overrides note what they were called for.
protocol RecordsValidation { var calls: [String] { get } }

/// As Xcode generates a class: no methods of its own.
final class GeneratedNote: NSManagedObject {}

final class AwakeningNote: NSManagedObject {
    override func awakeFromInsert() { super.awakeFromInsert() }
}

final class GenericNote<Tag>: NSManagedObject {}

final class PreparingNote: NSManagedObject {
    override func prepareForDeletion() { super.prepareForDeletion() }
}

final class FetchAwareNote: NSManagedObject {
    override func awakeFromFetch() { super.awakeFromFetch() }
}

final class WillSaveNote: NSManagedObject {
    override func willSave() { super.willSave() }
}

final class DidSaveNote: NSManagedObject {
    override func didSave() { super.didSave() }
}

/// Checks every key; corrects a negative word count to 0.
final class KeyCheckedNote: NSManagedObject, RecordsValidation {
    var calls: [String] = []
    override func validateValue(_ value: inout Any?, forKey key: String) throws {
        calls.append(key)
        if key == "words", let words = value as? Int32, words < 0 { value = Int32(0) }
        try super.validateValue(&value, forKey: key)
    }
}

class InsertCheckedNote: NSManagedObject, RecordsValidation {
    var calls: [String] = []
    override func validateForInsert() throws {
        calls.append("insert")
        try super.validateForInsert()
    }
}

final class InheritedCheckNote: InsertCheckedNote {}

final class UpdateCheckedNote: NSManagedObject, RecordsValidation {
    var calls: [String] = []
    override func validateForUpdate() throws {
        calls.append("update")
        try super.validateForUpdate()
    }
}

final class DeleteCheckedNote: NSManagedObject, RecordsValidation {
    var calls: [String] = []
    override func validateForDelete() throws {
        calls.append("delete")
        try super.validateForDelete()
    }
}
