import Testing
@testable import OpenCoreDataCore

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

    /// Processing instructions other than the XML declaration are refused
    /// before FoundationXML sees them: one without data (`<?e?>`) made it
    /// read a null C string (the model fuzzer's input below, 353,292
    /// executions into a run on 2026-11-24). In comments and CDATA they are text.
    @Test func processingInstructionsAreAnErrorNamingTheLine() throws {
        let cases: [(text: String, line: Int)] = [
            ("<?e?>\n<mo\n</mod/d\neom<l>", 1),
            (Self.header + "<model>\n<?pi?>\n</model>", 3),
            (Self.header + "<model>\n<!-- <?no?>\n -->\n<?target data?></model>", 5),
            ("<!DOCTYPE model [<?e?>]>\n<model/>", 1),
            ("<?xml?>itity=\u{DB}\u{BE}bd", 1),  // like the fuzzer's second input: a declaration without data
            ("<?xml encoding=\"UTF-8\"?>\n<model/>", 1),
        ]
        for (text, line) in cases {
            let error = try #require(Self.error(Array(text.utf8)))
            #expect(error.kind == .unreadable && error.line == line, "\(text)")
            #expect(error.message.contains("processing instruction"))
        }
        // A declaration left open up to a later processing instruction (the model fuzzer, 2026-11-24, 174,823
        // executions into a run on 500e6eb: FoundationXML then read that instruction's missing data).
        for text in ["<?xml version=\"1.0\" standalofetchLimit=<model name=\"\">\n  <entity<?xml?>;\"/></model>",
                     "<?xml version=\"1.0\" <model/><?e?>"] {
            let error = try #require(Self.error(Array(text.utf8)))
            #expect(error.kind == .unreadable && error.line == 1 && error.message.contains("not closed"), "\(text)")
        }
        let commented = Self.header + "<model>\n<!-- <?no?> --><![CDATA[<?x?>]]>\n<entity name=\"A\"/>\n</model>"
        #expect(try ModelXMLReader.read(data: Data(commented.utf8)).entities.map(\.name) == ["A"])
    }

    /// Counts, limits and kinds that are not whole numbers from 0 that fit an
    /// Int are errors: the model fuzzer's `maxCount="1e300"` stopped the
    /// conversion to Int (2026-11-24, 100,710 executions into a run).
    @Test func countsThatAreNotWholeNumbersAreErrors() throws {
        let relationship = #"<entity name="A"><relationship name="r" destinationEntity="A" toMany="YES" %@/></entity>"#
        for count in [#"maxCount="1e300""#, #"minCount="-1""#, #"maxCount="nan""#, #"minCount="inf""#] {
            let text = Self.header + "<model>" + relationship.replacingOccurrences(of: "%@", with: count) + "</model>"
            let error = try #require(Self.error(Array(text.utf8)), "\(count)")
            #expect(error.message.contains("is not a count"), "\(error.message)")
        }
        let request = #"<fetchRequest name="all" entity="A" fetchLimit="1e30"/>"#
        let text = Self.header + #"<model><entity name="A"/>"# + request + "</model>"
        #expect(try #require(Self.error(Array(text.utf8))).message.contains("fetchLimit"))
        let three = relationship.replacingOccurrences(of: "%@", with: #"maxCount="3""#)
        let fine = Self.header + "<model>" + three + "</model>"
        let model = try ModelXMLReader.read(data: Data(fine.utf8))
        #expect(model.entitiesByName["A"]?.relationshipsByName["r"]?.maxCount == 3)
    }

    /// A document declared in another encoding Foundation decodes, or in
    /// UTF-16, is transcoded to UTF-8 before parsing, so it still reads.
    @Test func documentsInOtherEncodingsStillRead() throws {
        let body = "\n<model>\n<entity name=\"Café\" representedClassName=\"Cafe\"/>\n</model>"
        let latin1 = Array(#"<?xml version="1.0" encoding="ISO-8859-1"?>"#.utf8) + Array(body.data(using: .isoLatin1)!)
        #expect(try ModelXMLReader.read(data: Data(latin1)).entities.map(\.name) == ["Café"])
        let utf16 = (#"<?xml version="1.0" encoding="UTF-16"?>"# + body).data(using: .utf16)!  // with a byte order mark
        #expect(try ModelXMLReader.read(data: utf16).entities.map(\.name) == ["Café"])
        let utf16LE = (#"<?xml version="1.0" encoding="UTF-16LE"?>"# + body).data(using: .utf16LittleEndian)!
        #expect(try ModelXMLReader.read(data: utf16LE).entities.map(\.name) == ["Café"])
    }

    /// FuzzModelReader: a declaration naming an encoding libxml2 does not know
    /// (`encoding="UTminValueString=F-8"`) made it take the document for UTF-8
    /// without the check, and FoundationXML trapped on a name that was not.
    /// An encoding that is not supported, or bytes that do not decode as the
    /// declared one, are errors too.
    @Test func unknownOrWrongEncodingsAreErrors() throws {
        let crash: [UInt8] = Array(#"<?xml ver"#.utf8) + [0xF3]
            + Array(#"ion="1.0" encoding="UTminValueString=F-8" "#.utf8)
            + Array(#"standalXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXone="yes"?>"#.utf8)
            + Array("\n<model type=\"com.apZ_3MOODSoreDataModeler.DataModel\" documentVersi".utf8) + [0xEF]
            + Array("n=\"1.0\">\n<entity name=\"A\"><relationship name<\"b\"".utf8) + [0]
            + Array("deletionRule=Arralify\"/></entity>\n</mod na".utf8)
        let latin = Array(#"<?xml version="1.0" encoding="US-ASCII"?><model a"#.utf8) + [0xE9] + Array(#"="1"/>"#.utf8)
        for bytes in [crash, Array(#"<?xml version="1.0" encoding="KOI8-Z"?><model/>"#.utf8), latin] {
            let error = try #require(Self.error(bytes))
            #expect(error.kind == .unreadable && error.line == 1, "\(error)")
        }
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
