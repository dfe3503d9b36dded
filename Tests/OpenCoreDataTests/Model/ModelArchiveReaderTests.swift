import Foundation
import Testing
@testable import OpenCoreDataCore

/// Keyed archives of models written here by hand, good and hostile: a store
/// file is untrusted input, so a damaged Z_MODELCACHE throws, never traps or
/// hangs. (Real archives: SQLiteModelCacheTests.)
@Suite struct ModelArchiveReaderTests {
    /// A reference to `$objects[index]`, as a keyed archive spells it in a property list.
    static func ref(_ index: Int) -> [String: Any] { ["CF$UID": index] }

    /// An archive of entity Thing (attribute `name`, to-many `parts` to Part, inverse `thing`) and
    /// Gadget, a sub-entity of Thing; `edit` changes the objects before encoding.
    static func archive(_ edit: (inout [Any]) -> Void = { _ in }) throws -> Data {
        func entity(_ name: Int, properties: Int, superentity: Int) -> [String: Any] {
            ["$class": ref(2), "NSEntityName": ref(name), "NSProperties": ref(properties),
             "NSSuperentity": ref(superentity)]
        }
        var objects: [Any] = [
            "$null",                                                                  // 0
            ["$class": ref(3), "NSEntities": ref(4), "NSVersionIdentifiers": ref(0)], // 1 model
            ["$classname": "NSEntityDescription"], ["$classname": "NSManagedObjectModel"],
            ["$class": ref(5), "NS.keys": [ref(6), ref(7), ref(8)], "NS.objects": [ref(9), ref(10), ref(11)]], // 4
            ["$classname": "NSDictionary"], "Thing", "Gadget", "Part",                 // 5-8
            entity(6, properties: 12, superentity: 0),                                // 9 Thing
            entity(7, properties: 12, superentity: 9),                                // 10 Gadget (inherits all)
            entity(8, properties: 13, superentity: 0),                                // 11 Part
            ["$class": ref(5), "NS.keys": [ref(14), ref(15)], "NS.objects": [ref(16), ref(17)]], // 12
            ["$class": ref(5), "NS.keys": [ref(18)], "NS.objects": [ref(19)]],          // 13
            "name", "parts",                                                           // 14, 15
            ["$class": ref(20), "NSPropertyName": ref(14), "NSAttributeType": 700, "NSIsOptional": true], // 16
            ["$class": ref(21), "NSPropertyName": ref(15), "_NSDestinationEntityName": ref(8),
             "_NSInverseRelationshipName": ref(18), "NSMaxCount": 0, "NSMinCount": 0, "NSDeleteRule": 2,
             "NSIsOptional": true],                                                    // 17
            "thing",                                                                   // 18
            ["$class": ref(21), "NSPropertyName": ref(18), "_NSDestinationEntityName": ref(6),
             "_NSInverseRelationshipName": ref(15), "NSMaxCount": 1, "NSMinCount": 0, "NSDeleteRule": 1,
             "NSIsOptional": true],                                                    // 19
            ["$classname": "NSAttributeDescription"], ["$classname": "NSRelationshipDescription"], // 20, 21
        ]
        edit(&objects)
        let plist: [String: Any] = ["$archiver": "NSKeyedArchiver", "$version": 100000, "$top": ["root": ref(1)],
                                    "$objects": objects]
        return try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
    }

    @Test func aHandWrittenArchiveGivesItsModel() throws {
        let model = try ModelArchiveReader.model(fromKeyedArchive: Self.archive())
        #expect(model.entities.compactMap(\.name) == ["Gadget", "Part", "Thing"])
        let thing = try #require(model.entitiesByName["Thing"]), gadget = try #require(model.entitiesByName["Gadget"])
        #expect(gadget.superentity === thing && gadget.ownProperties.isEmpty)
        #expect(thing.attributesByName["name"]?.attributeType == .stringAttributeType)
        let parts = try #require(thing.relationshipsByName["parts"])
        #expect(parts.isToMany && parts.deleteRule == .cascadeDeleteRule)
        #expect(parts.destinationEntity?.name == "Part" && parts.inverseRelationship?.name == "thing")
        #expect(model.entitiesByName["Part"]?.relationshipsByName["thing"]?.isToMany == false)
    }

    @Test func hostileArchivesThrowOrDegradeWithoutTrapping() throws {
        // Bad values degrade: a negative attribute type is undefined, a negative delete rule Nullify.
        let odd = try ModelArchiveReader.model(fromKeyedArchive: Self.archive { objects in
            var name = objects[16] as! [String: Any], parts = objects[17] as! [String: Any]
            (name["NSAttributeType"], parts["NSDeleteRule"], parts["_NSDestinationEntityName"]) = (-5, -1, Self.ref(99))
            (objects[16], objects[17]) = (name, parts)
        })
        let thing = try #require(odd.entitiesByName["Thing"])
        #expect(thing.attributesByName["name"]?.attributeType == .undefinedAttributeType)
        #expect(thing.relationshipsByName["parts"]?.deleteRule == .nullifyDeleteRule)
        #expect(thing.relationshipsByName["parts"]?.destinationEntity == nil)

        let broken: [(String, (inout [Any]) -> Void)] = [
            ("a superentity loop", { objects in
                var thing = objects[9] as! [String: Any]
                thing["NSSuperentity"] = Self.ref(10)
                objects[9] = thing
            }),
            ("a root that is not a model", { objects in objects[1] = "model" }),
            ("no objects but the root's reference", { objects in objects = ["$null"] }),
        ]
        for (what, edit) in broken {
            #expect(throws: ModelFileError.self, "\(what)") {
                try ModelArchiveReader.model(fromKeyedArchive: Self.archive(edit))
            }
        }
        #expect(throws: ModelFileError.self) { try ModelArchiveReader.model(fromKeyedArchive: Data("bplist".utf8)) }
    }
}
