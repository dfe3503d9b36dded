import Foundation
@testable import OpenCoreDataCore

/// Versions of one small model for migration tests, built in code: Folder
/// (name; notes ⟷ Note.folder), Note (title, body, count; tags ⟷ Tag.notes,
/// many-to-many) and Tag (name). Each test changes one thing in version 2.
struct MigrationModels {
    var folder = NSEntityDescription(name: "Folder")
    var note = NSEntityDescription(name: "Note")
    var tag = NSEntityDescription(name: "Tag")
    var notes: NSRelationshipDescription
    var noteFolder: NSRelationshipDescription
    var tags: NSRelationshipDescription
    var tagNotes: NSRelationshipDescription

    init(notesOrdered: Bool = false) {
        notes = TestStack.relationship("notes", to: note, toMany: true, ordered: notesOrdered)
        noteFolder = TestStack.relationship("folder", to: folder)
        tags = TestStack.relationship("tags", to: tag, toMany: true)
        tagNotes = TestStack.relationship("notes", to: note, toMany: true)
        TestStack.pair(notes, noteFolder)
        TestStack.pair(tags, tagNotes)
        folder.properties = [NSAttributeDescription(name: "name", type: .stringAttributeType), notes]
        note.properties = [NSAttributeDescription(name: "title", type: .stringAttributeType),
                           NSAttributeDescription(name: "body", type: .stringAttributeType),
                           NSAttributeDescription(name: "count", type: .integer64AttributeType), noteFolder, tags]
        tag.properties = [NSAttributeDescription(name: "name", type: .stringAttributeType), tagNotes]
    }

    /// The model of these entities (and `extra` ones).
    func model(_ extra: [NSEntityDescription] = []) -> NSManagedObjectModel {
        let model = NSManagedObjectModel()
        model.entities = [folder, note, tag] + extra
        return model
    }

    /// The property `name` of `entity`.
    func property(_ entity: NSEntityDescription, _ name: String) -> NSPropertyDescription {
        entity.ownProperties.first { $0.name == name }!
    }

    /// `models` written as versions V1, V2… of a new `.xcdatamodeld` (the
    /// last one current) and read back from it, as an app's model versions are.
    static func versions(_ models: NSManagedObjectModel...) throws -> [NSManagedObjectModel] {
        let bundle = TestStack.temporaryStoreURL("Model.xcdatamodeld")
        for (index, model) in models.enumerated() {
            try ModelXMLWriter.write(model, to: bundle.appendingPathComponent("V\(index + 1).xcdatamodel"))
        }
        let plist = ["_XCCurrentVersionName": "V\(models.count).xcdatamodel"]
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
            .write(to: bundle.appendingPathComponent(".xccurrentversion"))
        let loaded = try ModelVersionBundle(url: bundle)
        return try models.indices.map { try loaded.model(named: "V\($0 + 1)") }
    }

    /// Version 1 written to a new file: folders f0, f1; notes n0…n5 (title
    /// "n<i>", body "b<i>" on even ones only, count i*10) in folder f(i%2);
    /// tags t0, t1, t0 on every note and t1 on notes 0 and 3.
    static func writeVersion1(to url: URL, model: NSManagedObjectModel = MigrationModels().model()) throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait { () throws in
            let folders = (0..<2).map { TestStack.insert("Folder", into: context, ["name": "f\($0)"]) }
            let tags = (0..<2).map { TestStack.insert("Tag", into: context, ["name": "t\($0)"]) }
            for i in 0..<6 {
                var values: [String: Any] = ["title": "n\(i)", "count": Int64(i * 10), "folder": folders[i % 2]]
                if i % 2 == 0 { values["body"] = "b\(i)" }
                let note = TestStack.insert("Note", into: context, values)
                note.setValue(NSSet(array: i == 0 || i == 3 ? tags : [tags[0]]), forKey: "tags")
            }
            try context.save()
        }
        for store in coordinator.persistentStores { try coordinator.remove(store) }
    }

    /// A context on the file at `url` opened with `model` and `options`
    /// (both migration options by default).
    static func open(_ url: URL, _ model: NSManagedObjectModel,
                     options: [AnyHashable: Any]? = [NSMigratePersistentStoresAutomaticallyOption: true,
                                                     NSInferMappingModelAutomaticallyOption: true])
        throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: options)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// Every object of `entity` as its values for `keys` (to-one: the
    /// destination's `name` or `title`; to-many: those sorted), sorted.
    static func rows(_ context: NSManagedObjectContext, _ entity: String, _ keys: [String]) throws -> [[String]] {
        try context.performAndWait { () throws in
            let objects = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: entity))
            return objects.map { object in
                keys.map { key in describe(object.value(forKey: key)) }
            }.sorted { $0.lexicographicallyPrecedes($1) }
        }
    }

    private static func describe(_ value: Any?) -> String {
        switch value {
        case nil: return "nil"
        case let object as NSManagedObject: return label(object)
        case let set as NSSet:
            return set.allObjects.map { label($0 as! NSManagedObject) }.sorted().joined(separator: ",")
        case let set as NSOrderedSet: return set.array.map { label($0 as! NSManagedObject) }.joined(separator: ",")
        default: return "\(value!)"
        }
    }

    private static func label(_ object: NSManagedObject) -> String {
        let keys = object.entity.attributesByName
        let key = ["name", "title", "heading"].first { keys[$0] != nil } ?? ""
        return key.isEmpty ? "?" : (object.value(forKey: key) as? String ?? "nil")
    }
}
