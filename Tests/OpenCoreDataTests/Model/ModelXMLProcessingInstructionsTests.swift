import Testing
@testable import OpenCoreDataCore

/// `ModelXMLProcessingInstructions.refuse` scans with `memchr`; these tests hold it to the rule written
/// plainly, one byte at a time, on random documents made of the pieces the rule looks at.
@Suite struct ModelXMLProcessingInstructionsTests {
    enum Verdict: Equatable {
        case accepted
        case openDeclaration
        case instruction(line: Int)
    }

    /// The rule, byte by byte: the XML declaration at the start (after a byte order mark) is skipped when it
    /// names its version and holds no "<"; a "<?" anywhere else outside comments and CDATA sections is refused.
    static func reference(_ bytes: [UInt8]) -> Verdict {
        func matches(_ text: String, at index: Int) -> Bool {
            let pattern = Array(text.utf8)
            return index + pattern.count <= bytes.count && Array(bytes[index..<index + pattern.count]) == pattern
        }
        func skip(past text: String, from start: Int) -> Int {
            var index = start
            while index < bytes.count && !matches(text, at: index) { index += 1 }
            return min(index + text.utf8.count, bytes.count)
        }
        var index = matches("\u{FEFF}", at: 0) ? 3 : 0
        if matches("<?xml", at: index), index + 5 < bytes.count, [0x20, 0x09, 0x0D, 0x0A].contains(bytes[index + 5]) {
            let end = skip(past: "?>", from: index + 5)
            if bytes[index + 1..<end].contains(UInt8(ascii: "<")) { return .openDeclaration }
            if (index..<end).contains(where: { matches("version", at: $0) && $0 + 7 <= end }) { index = end }
        }
        while index < bytes.count {
            if matches("<?", at: index) {
                return .instruction(line: 1 + bytes[..<index].filter { $0 == UInt8(ascii: "\n") }.count)
            } else if matches("<!--", at: index) {
                index = skip(past: "-->", from: index + 4)
            } else if matches("<![CDATA[", at: index) {
                index = skip(past: "]]>", from: index + 9)
            } else {
                index += 1
            }
        }
        return .accepted
    }

    static func verdict(_ bytes: [UInt8]) -> Verdict {
        do {
            try ModelXMLProcessingInstructions.refuse(in: Data(bytes), file: nil)
            return .accepted
        } catch let error as ModelFileError {
            return error.message.contains("not closed") ? .openDeclaration : .instruction(line: error.line ?? 0)
        } catch {
            return .instruction(line: -1)
        }
    }

    @Test func agreesWithTheRuleOnRandomDocuments() {
        let pieces = ["<", "?", ">", "?>", "<?", "<?xml ", "<?xml\n", "version", "vers", "\n", "a", " ", "<!--", "-->",
                      "--", "<![CDATA[", "]]>", "]]", "<model>", "\u{FEFF}", "é"]
        var generator = SystemRandomNumberGenerator()
        var seen: Set<String> = []
        for _ in 0..<5_000 {
            let count = Int.random(in: 0...12, using: &generator)
            let text = (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let bytes = Array(text.utf8)
            let expected = Self.reference(bytes)
            seen.insert("\(expected)".prefix(12).description)
            #expect(Self.verdict(bytes) == expected, "\(text.debugDescription)")
        }
        // Every outcome came up: accepted, an open declaration and a refused instruction.
        #expect(seen.count == 3, "\(seen)")
    }

    @Test func edgesOfTheBuffer() {
        let cases: [(String, Verdict)] = [
            ("", .accepted), ("<", .accepted), ("<?", .instruction(line: 1)), ("a\n\n<?", .instruction(line: 3)),
            ("<!--", .accepted), ("<!-- <? -->\n<?", .instruction(line: 2)), ("<![CDATA[<?]]", .accepted),
            ("<?xml version?>", .accepted), ("<?xml version", .accepted), ("<?xml ver?>", .instruction(line: 1)),
            ("<?xml version?><", .accepted), ("<?xml <version?>", .openDeclaration),
            ("\u{FEFF}<?xml version=\"1.0\"?>\n<?x?>", .instruction(line: 2)),
        ]
        for (text, expected) in cases {
            #expect(Self.reference(Array(text.utf8)) == expected, "reference: \(text.debugDescription)")
            #expect(Self.verdict(Array(text.utf8)) == expected, "\(text.debugDescription)")
        }
    }
}
