import Testing
@testable import OpenCoreDataCore

/// Every model file of the corpus (real `.xcdatamodel/contents` written by
/// Xcode in public projects, shared/corpus/models) loads and round-trips.
@Suite(.enabled(if: Corpus.models != nil, "shared/corpus/models is absent"))
struct CorpusModelTests {
    static let files = Corpus.files(in: Corpus.models, suffix: ".xml")

    @Test func everyCorpusModelLoadsAndRoundTrips() throws {
        var failures: [String] = []
        var entities = 0, properties = 0, warnings = 0
        for file in Self.files {
            do {
                let model = try NSManagedObjectModel.load(contentsOf: file)
                entities += model.entities.count
                properties += model.entities.reduce(0) { $0 + $1.ownProperties.count }
                warnings += model.validationWarnings.count
                let written = model.modelFileXML
                let reread = try ModelXMLReader.read(data: Data(written.utf8), file: file)
                if !reread.isEqual(model) { failures.append("\(file.lastPathComponent): reread model differs") }
                if reread.modelFileXML != written { failures.append("\(file.lastPathComponent): second write differs") }
                if reread.entityVersionHashesByName != model.entityVersionHashesByName {
                    failures.append("\(file.lastPathComponent): version hashes differ after round trip")
                }
            } catch {
                failures.append("\(error)")
            }
        }
        print("corpus models: \(Self.files.count - failures.count) of \(Self.files.count) loaded and round-tripped; \(entities) entities, \(properties) properties, \(warnings) Xcode-level warnings")
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(Self.files.count > 300)
    }

    @Test func writtenFilesLookLikeXcodes() throws {
        for file in Self.files.prefix(40) {
            let xml = try NSManagedObjectModel.load(contentsOf: file).modelFileXML
            #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<model "))
            #expect(xml.hasSuffix("</model>"))
            #expect(!xml.contains("\t"))
        }
    }

    /// The corpus's `.xccurrentversion` plists name a version, or are an empty
    /// dictionary (FORMAT.md §1: five files are `<dict/>`).
    @Test func everyCurrentVersionPlistParses() throws {
        let plists = Corpus.files(in: Corpus.models, suffix: "xccurrentversion.plist")
        var named = 0
        for plist in plists {
            let data = try #require(FileManager.default.contents(atPath: plist.path))
            if let name = try ModelVersionBundle.currentVersionName(plist: data, file: plist) {
                #expect(!name.hasSuffix(".xcdatamodel") && !name.isEmpty)
                named += 1
            } else {
                let dictionary = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
                #expect(dictionary?["_XCCurrentVersionName"] == nil, "\(plist.lastPathComponent) names a version that was not read")
            }
        }
        print("corpus .xccurrentversion plists: \(plists.count), \(named) name a version")
        #expect(plists.count > 100 && named * 10 > plists.count * 9)
    }

    /// Inheritance in the corpus: sub-entities see their superentity's properties.
    @Test func inheritedPropertiesAppearInSubentities() throws {
        var checked = 0
        for file in Self.files {
            let model = try NSManagedObjectModel.load(contentsOf: file)
            for entity in model.entities {
                guard let parent = entity.superentity else { continue }
                for property in parent.properties {
                    #expect(entity.propertiesByName[property.name] === property)
                }
                #expect(entity.isKindOf(entity: parent) && !parent.isKindOf(entity: entity))
                checked += 1
            }
        }
        #expect(checked > 50)
    }
}
