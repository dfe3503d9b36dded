import Foundation
import Testing
@testable import OpenCoreDataCore

/// Key paths read from managed objects (the path sort keys, section names
/// and in-memory predicates take): a key is one of the entity's properties,
/// an unknown one an evaluation error rather than a stopped program, and a
/// path crosses to-one and to-many relationships.
struct KeyPathValueTests {
    @Test func managedObjectsAnswerTheirEntitysKeys() throws {
        let context = try TestStack.context(TestStack.albumsModel())
        let album = TestStack.insert("Album", into: context, ["name": "trip", "sheets": 3])
        let photos = (0..<2).map { TestStack.insert("Photo", into: context, ["name": "p\($0)", "album": album]) }
        #expect(try KeyPathValue.value(of: album, keyPath: "name") as? String == "trip")
        #expect(try KeyPathValue.value(of: album, keyPath: "sheets") as? Int32 == 3)
        #expect(try KeyPathValue.value(of: photos[0], keyPath: "album.name") as? String == "trip")
        #expect(try KeyPathValue.value(of: photos[1], keyPath: "album") as? NSManagedObject === album)
        #expect(Set(try KeyPathValue.value(of: album, keyPath: "photos.name") as? [String] ?? []) == ["p0", "p1"])
        #expect(try KeyPathValue.value(of: album, keyPath: "photos.@count") as? Int == 2)
        #expect(try KeyPathValue.value(of: album, keyPath: "SELF") as? NSManagedObject === album)
        let error = #expect(throws: PredicateEvaluationError.self) {
            try KeyPathValue.value(of: album, keyPath: "color")
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains("Album"))
        #expect(throws: PredicateEvaluationError.self) { try KeyPathValue.value(of: photos[0], keyPath: "album.color") }
    }

    /// Objects of a subclass read as plain ones.
    @Test func subclassObjectsAnswerTheSame() throws {
        let model = TestStack.albumsModel(photoClass: "Photo")
        let context = try TestStack.context(model)
        let photo = TestStack.insert("Photo", into: context, ["name": "p"])
        #expect(photo is Photo)
        #expect(try KeyPathValue.value(of: photo, keyPath: "name") as? String == "p")
        #expect(throws: PredicateEvaluationError.self) { try KeyPathValue.value(of: photo, keyPath: "size") }
    }
}
