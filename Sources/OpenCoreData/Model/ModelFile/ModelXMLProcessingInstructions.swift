/// Model files hold no processing instruction besides the XML declaration;
/// FoundationXML stops the program on one without data (`<?e?>`, and
/// `<?xml?>`, which libxml2 takes for one: it reads the missing data as a C
/// string), so the reader refuses them all before parsing, and a declaration
/// without its version too (found by fuzzing the model reader, issue 19).
enum ModelXMLProcessingInstructions {
    /// Throws a ModelFileError naming the line of the first processing
    /// instruction of `data` (UTF-8) outside comments and CDATA sections,
    /// the XML declaration at the start excepted. Linear in the size of `data`.
    static func refuse(in data: Data, file: URL?) throws {
        let bytes = [UInt8](data)
        let newline = UInt8(ascii: "\n")
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        if matches("<?xml", at: index, in: bytes), index + 5 < bytes.count, " \t\r\n".utf8.contains(bytes[index + 5]) {
            let end = skip(past: "?>", from: index + 5, in: bytes)
            // A declaration holds no markup: a "?>" after a "<" closes a processing instruction
            // further on, which the declaration must not hide (a model fuzzer input, issue 19).
            if bytes[index + 1..<end].contains(UInt8(ascii: "<")) {
                throw ModelFileError(.unreadable, "The XML declaration (<?xml …) is not closed by ?> "
                                     + "before the markup that follows it.", file: file, line: 1)
            }
            // A declaration names its version; without one, libxml2 may take it for a processing instruction.
            if bytes[index..<end].firstRange(of: Array("version".utf8)) != nil { index = end }
        }
        var line = 1 + bytes[..<index].lazy.filter { $0 == newline }.count
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                if bytes[index] == newline { line += 1 }
                index += 1
                continue
            }
            if matches("<?", at: index, in: bytes) {
                throw ModelFileError(.unreadable,
                                     "Line \(line) holds a processing instruction (<?…?>); model files have none.",
                                     file: file, line: line)
            }
            let section = [("<!--", "-->"), ("<![CDATA[", "]]>")].first { matches($0.0, at: index, in: bytes) }
            guard let (start, end) = section else {
                index += 1
                continue
            }
            let next = skip(past: end, from: index + start.utf8.count, in: bytes)
            line += bytes[index..<next].lazy.filter { $0 == newline }.count
            index = next
        }
    }

    private static func matches(_ text: String, at index: Int, in bytes: [UInt8]) -> Bool {
        let pattern = text.utf8
        return index + pattern.count <= bytes.count && bytes[index..<index + pattern.count].elementsEqual(pattern)
    }

    /// The index after the first `end` at or after `start`, or the end of `bytes`.
    private static func skip(past end: String, from start: Int, in bytes: [UInt8]) -> Int {
        var index = start
        while index < bytes.count {
            if matches(end, at: index, in: bytes) { return index + end.utf8.count }
            index += 1
        }
        return bytes.count
    }
}
