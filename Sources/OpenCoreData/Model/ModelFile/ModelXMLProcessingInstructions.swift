#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        // Through the bytes' address and `memchr`, which go as fast in an application's debug build as in
        // a release one: a loop over `[UInt8]` subscripts was 8% of loading a model at -Onone.
        try data.withUnsafeBytes { raw in
            guard let start = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            try refuse(in: Bytes(start: start, count: raw.count), file: file)
        }
    }

    private static func refuse(in bytes: Bytes, file: URL?) throws {
        var index = bytes.matches([0xEF, 0xBB, 0xBF], at: 0) ? 3 : 0
        if bytes.matches(Array("<?xml".utf8), at: index), index + 5 < bytes.count,
           [0x20, 0x09, 0x0D, 0x0A].contains(bytes[index + 5]) {
            let end = bytes.index(after: Array("?>".utf8), from: index + 5)
            // A declaration holds no markup: a "?>" after a "<" closes a processing instruction
            // further on, which the declaration must not hide (a model fuzzer input, issue 19).
            if bytes.first(UInt8(ascii: "<"), from: index + 1, before: end) != nil {
                throw ModelFileError(.unreadable, "The XML declaration (<?xml …) is not closed by ?> "
                                     + "before the markup that follows it.", file: file, line: 1)
            }
            // A declaration names its version; without one, libxml2 may take it for a processing instruction.
            if bytes.find(Array("version".utf8), from: index, before: end) != nil { index = end }
        }
        let comment = (Array("<!--".utf8), Array("-->".utf8)), cdata = (Array("<![CDATA[".utf8), Array("]]>".utf8))
        while let markup = bytes.first(UInt8(ascii: "<"), from: index, before: bytes.count) {
            if bytes.matches([UInt8(ascii: "<"), UInt8(ascii: "?")], at: markup) {
                let line = 1 + bytes.occurrences(of: UInt8(ascii: "\n"), before: markup)
                throw ModelFileError(.unreadable,
                                     "Line \(line) holds a processing instruction (<?…?>); model files have none.",
                                     file: file, line: line)
            }
            if bytes.matches(comment.0, at: markup) {
                index = bytes.index(after: comment.1, from: markup + comment.0.count)
            } else if bytes.matches(cdata.0, at: markup) {
                index = bytes.index(after: cdata.1, from: markup + cdata.0.count)
            } else {
                index = markup + 1
            }
        }
    }

    /// A file's bytes, read in place.
    private struct Bytes {
        let start: UnsafePointer<UInt8>
        let count: Int

        subscript(index: Int) -> UInt8 { start[index] }

        /// Whether `pattern` starts at `index`.
        func matches(_ pattern: [UInt8], at index: Int) -> Bool {
            guard index >= 0, index + pattern.count <= count else { return false }
            return pattern.withUnsafeBufferPointer { memcmp(start + index, $0.baseAddress!, pattern.count) == 0 }
        }

        /// The index of the first `byte` in `from..<end`.
        func first(_ byte: UInt8, from: Int, before end: Int) -> Int? {
            guard from < end, let found = memchr(start + from, CInt(byte), end - from) else { return nil }
            return UnsafeRawPointer(found) - UnsafeRawPointer(start)
        }

        /// The index of the first `pattern` that starts in `from..<end` and ends by `end`.
        func find(_ pattern: [UInt8], from: Int, before end: Int) -> Int? {
            var index = from
            while let candidate = first(pattern[0], from: index, before: end - pattern.count + 1) {
                if matches(pattern, at: candidate) { return candidate }
                index = candidate + 1
            }
            return nil
        }

        /// The index after the first `pattern` at or after `from`, or the end of the bytes.
        func index(after pattern: [UInt8], from: Int) -> Int {
            find(pattern, from: from, before: count).map { $0 + pattern.count } ?? count
        }

        /// How many `byte`s come before `end`.
        func occurrences(of byte: UInt8, before end: Int) -> Int {
            var found = 0, index = 0
            while let next = first(byte, from: index, before: end) {
                found += 1
                index = next + 1
            }
            return found
        }
    }
}
