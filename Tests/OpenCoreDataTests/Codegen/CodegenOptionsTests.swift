import Testing
@testable import OpenCoreDataCore
import OpenCoreDataCodegen

/// How the generator follows the model's settings and its own options, on a
/// model built in code that has one of everything.
@Suite struct CodegenOptionsTests {
    static func attribute(_ name: String, _ type: NSAttributeType, scalar: Bool? = nil, className: String? = nil) -> NSAttributeDescription {
        let attribute = NSAttributeDescription(name: name, type: type)
        attribute.usesScalarValueType = scalar
        if let className { attribute.attributeValueClassName = className }
        return attribute
    }

    static func entity(_ name: String, codegen: String?, className: String? = nil, _ properties: [NSPropertyDescription]) -> NSEntityDescription {
        let entity = NSEntityDescription(name: name, className: className ?? name, properties: properties)
        entity.codeGenerationType = codegen
        return entity
    }

    /// Animal ⊃ Dog; Shelf ⟷>> Book (ordered); Note is a category, Draft manual.
    static func model(language: String? = nil) -> NSManagedObjectModel {
        let animal = entity("Animal", codegen: "class", [attribute("count", .integer32AttributeType),
                                                           attribute("isTame", .booleanAttributeType, scalar: false)])
        let dog = entity("Dog", codegen: "class", className: "$(PRODUCT_MODULE_NAME).Dog", [
            attribute("price", .decimalAttributeType), attribute("tags", .transformableAttributeType, className: "[String]"),
            attribute("color", .transformableAttributeType, className: "Color"), attribute("id", .UUIDAttributeType),
            attribute("class", .stringAttributeType), attribute("link", .URIAttributeType), attribute("blob", .binaryDataAttributeType),
        ])
        animal.subentities = [dog]
        let shelf = entity("Shelf", codegen: "class", [])
        let book = entity("Book", codegen: "category", [attribute("title", .stringAttributeType)])
        let books = NSRelationshipDescription(name: "books", destination: book, toMany: true, isOrdered: true)
        let shelfOf = NSRelationshipDescription(name: "shelf", destination: shelf)
        books.inverseRelationship = shelfOf
        shelfOf.inverseRelationship = books
        shelf.properties = [books]
        book.properties = book.properties + [shelfOf]
        let draft = entity("Draft", codegen: nil, [attribute("text", .stringAttributeType)])
        let model = NSManagedObjectModel()
        model.entities = [animal, dog, shelf, book, draft]
        if let language { model.modelFileAttributes["sourceLanguage"] = language }
        return model
    }

    static func files(_ options: CodeGenerationOptions = .init(), language: String? = nil) -> [String: String] {
        let model = model(language: language)
        let files = CodeGenerator(options: options).files(for: model, modelName: "Zoo")
        return Dictionary(uniqueKeysWithValues: files.map { ($0.name, $0.contents) })
    }

    @Test func codegenSettingChoosesTheFiles() {
        #expect(Self.files().keys.sorted() == [
            "Animal+CoreDataClass.swift", "Animal+CoreDataProperties.swift", "Book+CoreDataProperties.swift",
            "Dog+CoreDataClass.swift", "Dog+CoreDataProperties.swift", "Shelf+CoreDataClass.swift",
            "Shelf+CoreDataProperties.swift", "Zoo+CoreDataPlaceholders.swift", "Zoo+CoreDataRegistration.swift",
        ])
        let all = Self.files(.init(scope: .allEntities))
        #expect(all["Book+CoreDataClass.swift"] != nil && all["Draft+CoreDataClass.swift"] != nil)
        #expect(all["Draft+CoreDataProperties.swift"]?.contains("public var text: String?") == true)
    }

    @Test func inheritanceMapsToClassesAndPropertiesStayWithTheirEntity() throws {
        let files = Self.files()
        #expect(files["Dog+CoreDataClass.swift"]?.contains("public class Dog: Animal {") == true)
        let dog = try #require(files["Dog+CoreDataProperties.swift"])
        #expect(!dog.contains("var count") && dog.contains("NSFetchRequest<Dog>(entityName: \"Dog\")"))
        // Only the root conforms: a second conformance would be redundant.
        #expect(!dog.contains("Identifiable") && files["Animal+CoreDataProperties.swift"]?.contains("extension Animal : Identifiable") == true)
    }

    @Test func attributeTypesFollowXcode() throws {
        let dog = try #require(Self.files()["Dog+CoreDataProperties.swift"])
        for declaration in ["var price: NSDecimalNumber?", "var tags: [String]?", "var color: Color?", "var id: UUID?",
                            "var `class`: String?", "var link: URL?", "var blob: Data?"] {
            #expect(dog.contains("public \(declaration) {"), "\(declaration)")
        }
        #expect(dog.contains("self.value(forKey: \"class\", as: String?.self)"))
        let animal = try #require(Self.files()["Animal+CoreDataProperties.swift"])
        #expect(animal.contains("public var count: Int32 {") && animal.contains("public var isTame: NSNumber? {"))
        // Objective-C models predate Xcode's scalar default.
        let objc = try #require(Self.files(language: "Objective-C")["Animal+CoreDataProperties.swift"])
        #expect(objc.contains("public var count: NSNumber? {"))
    }

    @Test func unknownCustomClassesGetPlaceholdersUnlessDefined() throws {
        let placeholders = try #require(Self.files()["Zoo+CoreDataPlaceholders.swift"])
        #expect(placeholders.contains("public typealias Color = Any\n") && placeholders.contains("can't see"))
        #expect(Self.files(.init(definedTypeNames: ["Color"]))["Zoo+CoreDataPlaceholders.swift"] == nil)
    }

    @Test func orderedToManyGetsXcodesAccessors() throws {
        let shelf = try #require(Self.files()["Shelf+CoreDataProperties.swift"])
        #expect(shelf.contains("public var books: NSOrderedSet? {"))
        for signature in ["insertIntoBooks(_ value: Book, at idx: Int)", "removeFromBooks(at idx: Int)",
                          "insertIntoBooks(_ values: [Book], at indexes: NSIndexSet)", "removeFromBooks(at indexes: NSIndexSet)",
                          "replaceBooks(at idx: Int, with value: Book)", "replaceBooks(at indexes: NSIndexSet, with values: [Book])",
                          "addToBooks(_ value: Book)", "removeFromBooks(_ value: Book)",
                          "addToBooks(_ values: NSOrderedSet)", "removeFromBooks(_ values: NSOrderedSet)"] {
            #expect(shelf.contains("public func \(signature) {"), "\(signature)")
        }
        #expect(shelf.contains("self.mutableOrderedSetValue(forKey: \"books\").insert(value, at: idx)"))
    }

    @Test func swiftCollectionsOption() throws {
        let shelf = try #require(Self.files(.init(toManyStyle: .swift))["Shelf+CoreDataProperties.swift"])
        #expect(shelf.contains("public var books: [Book] {"))
        let book = try #require(Self.files(.init(toManyStyle: .swift))["Book+CoreDataProperties.swift"])
        #expect(book.contains("public var shelf: Shelf? {"))
    }

    @Test func moduleNameComesFromTheModelFile() {
        #expect(CodeGenerator.modelName(of: URL(fileURLWithPath: "/a/My Model.xcdatamodeld")) == "My_Model")
        #expect(CodeGenerator.modelName(of: URL(fileURLWithPath: "/a/V2.xcdatamodel/contents")) == "V2")
    }
}
