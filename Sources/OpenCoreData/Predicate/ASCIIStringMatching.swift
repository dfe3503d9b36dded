/// BEGINSWITH, ENDSWITH, CONTAINS and LIKE on the UTF-8 bytes of two
/// strings, and `[c]` folding of one, without making `String`s: the SQLite
/// store's `NSSTRINGOP` and `NSFOLD` run once per row, and making, folding
/// and comparing strings cost them ~500–1,000 instructions a row where
/// going through the bytes costs a few per byte.
///
/// It answers only where bytes and `StringMatching` must agree: both strings
/// ASCII without a carriage return. There each byte is one `Character` (the
/// only grapheme cluster of several ASCII characters is CR LF), so
/// `hasPrefix`, `hasSuffix`, `contains` and LIKE, which compare characters,
/// compare bytes; folding `[c]` lowercases the letters and `[d]` changes
/// nothing (`ValueComparison.fold`). Elsewhere it answers nil, and the
/// caller asks `StringMatching`.
enum ASCIIStringMatching {
    typealias Operator = NSComparisonPredicate.Operator

    /// Whether `text` matches `pattern` under `type` (BEGINSWITH, ENDSWITH,
    /// CONTAINS or LIKE), folding case when `caseInsensitive`; nil for
    /// another operator or for strings this cannot decide.
    static func match(_ type: Operator, _ text: UnsafeRawBufferPointer, _ pattern: UnsafeRawBufferPointer,
                      caseInsensitive: Bool) -> Bool? {
        guard type == .beginsWith || type == .endsWith || type == .contains || type == .like,
              isPlainASCII(text), isPlainASCII(pattern) else { return nil }
        if type == .like {
            return StringMatching.like(text, pattern, star: UInt8(ascii: "*"), question: UInt8(ascii: "?"),
                                       escape: UInt8(ascii: "\\")) { a, b in
                a == b || caseInsensitive && lowercased(a) == lowercased(b)
            }
        }
        guard pattern.count <= text.count else { return false }
        switch type {
        case .beginsWith: return equal(text, at: 0, pattern, caseInsensitive: caseInsensitive)
        case .endsWith: return equal(text, at: text.count - pattern.count, pattern, caseInsensitive: caseInsensitive)
        default:
            for start in 0...(text.count - pattern.count)
            where equal(text, at: start, pattern, caseInsensitive: caseInsensitive) { return true }
            return false
        }
    }

    /// `text` folded as `[c]` asks of an ASCII string (letters lowercased;
    /// `[d]` changes nothing): what `ValueComparison.fold` gives it. Calls
    /// `body` with the bytes, or with nil when `text` is not ASCII.
    static func withFolded<Result>(_ text: UnsafeRawBufferPointer, caseInsensitive: Bool,
                                   _ body: (UnsafeRawBufferPointer?) -> Result) -> Result {
        guard isASCII(text, from: 0) else { return body(nil) }
        guard caseInsensitive else { return body(text) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: text.count) { folded in
            for index in text.indices { folded[index] = lowercased(text[index]) }
            return body(UnsafeRawBufferPointer(folded))
        }
    }

    /// Whether every byte is ASCII and none is a carriage return.
    static func isPlainASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        isASCII(bytes, from: 0) && !bytes.contains(0x0D)
    }

    /// Whether every byte from `start` on is below 0x80. A tail shorter than
    /// a word is read as the buffer's last word with the bytes before
    /// `start` masked off, so a string of eight bytes or more never takes
    /// the byte loop.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Bool {
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let count = bytes.count
        var index = start
        guard count >= 8 else {
            while index < count {
                if bytes[index] >= 0x80 { return false }
                index += 1
            }
            return true
        }
        while index + 8 <= count {
            if bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & highBits != 0 { return false }
            index += 8
        }
        guard index < count else { return true }
        let last = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
        let before = index - (count - 8)  // bytes of the last word that precede `index`: 1 to 7
        return last & (highBits << UInt64(before * 8)) == 0
    }

    /// Whether `pattern` is the bytes of `text` from `start` on (ASCII letters folded when `caseInsensitive`).
    private static func equal(_ text: UnsafeRawBufferPointer, at start: Int, _ pattern: UnsafeRawBufferPointer,
                              caseInsensitive: Bool) -> Bool {
        for index in 0..<pattern.count {
            let a = text[start + index], b = pattern[index]
            guard a == b || caseInsensitive && lowercased(a) == lowercased(b) else { return false }
        }
        return true
    }

    @inline(__always)
    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }
}
