import Testing
@testable import OpenCoreData

/// Model files the fuzzer found stopping the program (issue 19, M1 and M2):
/// each is now a ModelFileError naming the line, never a trap.
@Suite struct ModelReaderBadInputTests {
    static let header = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n"

    static func error(_ bytes: [UInt8]) -> ModelFileError? {
        do {
            _ = try ModelXMLReader.read(data: Data(bytes), file: URL(fileURLWithPath: "/tmp/Bad.xcdatamodel/contents"))
            return nil
        } catch {
            return error as? ModelFileError
        }
    }

    /// M1: FoundationXML trapped on an element or attribute name holding
    /// bytes that are not UTF-8 (libxml2 passes them on for a UTF-8 document).
    @Test func nameBytesThatAreNotUTF8AreAnErrorNamingTheLine() throws {
        let cases: [(bytes: [UInt8], line: Int)] = [
            (Array((Self.header + "<model><e").utf8) + [0xFF] + Array("x/></model>".utf8), 2),
            (Array((Self.header + "<model>\n<entity name=\"A\" a").utf8) + [0xC3] + Array("=\"1\"/>\n</model>".utf8), 3),
            (Array("<model a".utf8) + [0xE9] + Array("=\"1\"/>".utf8), 1),  // no declaration: UTF-8 by default
        ]
        for (bytes, line) in cases {
            let error = try #require(Self.error(bytes))
            #expect(error.kind == .unreadable)
            #expect(error.line == line)
            #expect(error.message.contains("UTF-8"))
            #expect((error as NSError).domain == NSCocoaErrorDomain && (error as NSError).code == CocoaError.fileReadCorruptFile.rawValue)
        }
    }

    /// A document declared in another encoding is transcoded by libxml2, so
    /// its bytes are not UTF-8 and still read.
    @Test func aDocumentDeclaredLatin1StillReads() throws {
        let bytes = Array(#"<?xml version="1.0" encoding="ISO-8859-1"?>"#.utf8) + Array("\n<model>\n<entity name=\"Caf".utf8) + [0xE9]
            + Array("\" representedClassName=\"Cafe\"/>\n</model>".utf8)
        let model = try ModelXMLReader.read(data: Data(bytes))
        #expect(model.entities.map(\.name) == ["Café"])
    }

    /// M2: a memberEntity under a configuration outside <model> indexed an
    /// empty list of configurations.
    @Test func misplacedElementsAreAnErrorNamingLineAndElement() throws {
        let cases: [(body: String, element: String, line: Int)] = [
            ("<model>\n<entity name=\"A\">\n<configuration name=\"C\">\n<memberEntity name=\"A\"/>\n</configuration>\n</entity>\n</model>", "configuration", 4),
            ("<configuration name=\"C\">\n<memberEntity name=\"A\"/>\n</configuration>", "configuration", 2),
            ("<model>\n<memberEntity name=\"A\"/>\n</model>", "memberEntity", 3),
            ("<model>\n<entity name=\"A\">\n<entity name=\"B\"/>\n</entity>\n</model>", "entity", 4),
            ("<model>\n<attribute name=\"x\" attributeType=\"String\"/>\n</model>", "attribute", 3),
            ("<model>\n<entity name=\"A\">\n<attribute name=\"x\" attributeType=\"String\">\n<entry key=\"k\" value=\"v\"/>\n</attribute>\n</entity>\n</model>", "entry", 5),
            ("<model>\n<model/>\n</model>", "model", 3),
        ]
        for (body, element, line) in cases {
            let error = Self.error(Array((Self.header + body).utf8))
            #expect(error?.message.contains("<\(element)>") == true, "\(body): \(String(describing: error))")
            #expect(error?.line == line, "\(body): \(String(describing: error))")
        }
    }
    // Every corpus model still reads with these placement rules: CorpusModelTests loads them all.
}
