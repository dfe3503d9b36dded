import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import OpenCoreDataTools
import TestScratch

/// `ocd model --format svg`: the drawing read back as XML. Every entity is
/// one box, no two boxes overlap, every relationship is drawn once with its
/// inverse on the same line and an arrowhead per end it leads to (two for
/// to-many), every subentity has a line to its parent.
@Suite struct ModelDiagramSVGTests {
    struct Drawing {
        var width = 0.0, height = 0.0
        var boxes: [String: (x: Double, y: Double, width: Double, height: Double)] = [:]
        var boxCount = 0
        /// (entity, name, destination, inverse, arrowheads) of each relationship group.
        var relationships: [(entity: String, name: String, destination: String, inverse: String, arrowheads: Int)] = []
        var inheritance: [(entity: String, parent: String)] = []
    }

    /// Collects the groups and shapes the tests check.
    final class Reader: NSObject, XMLParserDelegate {
        var drawing = Drawing()
        var group: [String: String] = [:]

        func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            func number(_ key: String) -> Double { Double(attributes[key] ?? "") ?? -1 }
            switch (element, attributes["class"]) {
            case ("svg", _): (drawing.width, drawing.height) = (number("width"), number("height"))
            case ("g", "entity"?), ("g", "inheritance"?): group = attributes
            case ("g", "relationship"?):
                group = attributes
                drawing.relationships.append((attributes["data-entity"] ?? "", attributes["data-name"] ?? "",
                                              attributes["data-destination"] ?? "",
                                              attributes["data-inverse"] ?? "", 0))
            case ("g", _): group = [:]
            case ("rect", _) where group["class"] == "entity":
                let rect = (number("x"), number("y"), number("width"), number("height"))
                drawing.boxes[group["data-entity"] ?? ""] = rect
                drawing.boxCount += 1
            case ("path", "arrowhead"?) where group["class"] == "relationship":
                drawing.relationships[drawing.relationships.count - 1].arrowheads += 1
            case ("path", _) where group["class"] == "inheritance" && attributes["stroke-dasharray"] != nil:
                drawing.inheritance.append((group["data-entity"] ?? "", group["data-parent"] ?? ""))
            default: break
            }
        }
    }

    static func read(_ svg: String) throws -> Drawing {
        let parser = XMLParser(data: Data(svg.utf8))
        let reader = Reader()
        parser.delegate = reader
        #expect(parser.parse(), "not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "")")
        return reader.drawing
    }

    /// The checks of this suite on `model`'s drawing.
    static func check(_ model: NSManagedObjectModel, _ name: String) throws {
        let drawing = try read(ModelDiagram.svg(model))
        let entities = model.entities.compactMap(\.name)
        #expect(drawing.boxCount == entities.count && Set(drawing.boxes.keys) == Set(entities), "\(name)")
        let boxes = Array(drawing.boxes)
        for (i, a) in boxes.enumerated() {
            #expect(a.value.x >= 0 && a.value.y >= 0 && a.value.x + a.value.width <= drawing.width
                        && a.value.y + a.value.height <= drawing.height, "\(name): \(a.key) leaves the canvas")
            for b in boxes[(i + 1)...] {
                let apart = a.value.x + a.value.width <= b.value.x || b.value.x + b.value.width <= a.value.x
                    || a.value.y + a.value.height <= b.value.y || b.value.y + b.value.height <= a.value.y
                #expect(apart, "\(name): \(a.key) and \(b.key) overlap")
            }
        }
        // Each relationship has at most one line of its own, and is drawn: on its own line or as the inverse
        // on its inverse's (models where two relationships name the same inverse draw it on both).
        var own: [String: Int] = [:], drawn = Set<String>()
        for group in drawing.relationships {
            own["\(group.entity).\(group.name)", default: 0] += 1
            drawn.insert("\(group.entity).\(group.name)")
            if !group.inverse.isEmpty { drawn.insert("\(group.destination).\(group.inverse)") }
            let relationship = try #require(model.entitiesByName[group.entity]?.relationshipsByName[group.name])
            #expect(relationship.destinationEntity?.name == group.destination)
            #expect((relationship.inverseRelationship?.name ?? "") == group.inverse, "\(name): \(group)")
            let inverseEnds = relationship.inverseRelationship.map { $0.isToMany ? 2 : 1 } ?? 0
            let ends = (relationship.isToMany ? 2 : 1) + inverseEnds
            #expect(group.arrowheads == ends, "\(name): \(group)")
        }
        for entity in model.entities {
            for relationship in entity.relationshipsByName.values where relationship.entity === entity {
                let key = "\(entity.name ?? "").\(relationship.name)"
                #expect(drawn.contains(key) && own[key, default: 0] <= 1, "\(name): \(key)")
            }
            if let parent = entity.superentity?.name {
                #expect(drawing.inheritance.contains { $0 == (entity.name ?? "", parent) },
                        "\(name): \(entity.name ?? "")")
            }
        }
    }

    @Test func seedModelsDrawCompletely() throws {
        try Self.check(SeedModels.company(), "Company")
        try Self.check(SeedModels.frozenTime(), "FrozenTime")
        try Self.check(SeedModels.groceryDude(), "GroceryDude")
    }

    @Test(.enabled(if: Corpus.models != nil, "shared/corpus is absent"))
    func everyCorpusModelDrawsCompletely() throws {
        var drawn = 0
        for file in Corpus.files(in: Corpus.models, suffix: ".xml") {
            guard let model = try? NSManagedObjectModel.load(contentsOf: file) else { continue }
            try Self.check(model, file.lastPathComponent)
            drawn += 1
        }
        #expect(drawn >= 50)
    }

    /// The command writes the same drawing; where rsvg-convert is installed, it renders to a PNG.
    @Test func commandWritesTheDrawing() throws {
        let company = SeedModels.examples.appendingPathComponent("Company.xcdatamodel")
        let run = try OCDModelCommandTests.ocd("model", company.path, "--format", "svg")
        #expect(run.status == 0)
        let expected = ModelDiagram.svg(try NSManagedObjectModel.load(contentsOf: company))
        #expect(run.stdout.trimmingCharacters(in: .newlines) == expected)
        let renderer = "/usr/bin/rsvg-convert"
        guard FileManager.default.isExecutableFile(atPath: renderer) else { return }
        let folder = ScratchDirectory.url("ocd-svg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let svg = folder.appendingPathComponent("Company.svg"), png = folder.appendingPathComponent("Company.png")
        try run.stdout.write(to: svg, atomically: true, encoding: .utf8)
        let render = try Subprocess.run([renderer, svg.path, "-o", png.path])
        #expect(render.status == 0, "\(render.output)")
        #expect(try Data(contentsOf: png).prefix(4) == Data([0x89, 0x50, 0x4e, 0x47]))
    }
}
