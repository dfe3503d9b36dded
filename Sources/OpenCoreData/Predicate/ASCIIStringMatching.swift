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
        guard scan(text, rejectingCarriageReturns: false) else { return body(nil) }
        guard caseInsensitive else { return body(text) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: text.count) { folded in
            for index in text.indices { folded[index] = lowercased(text[index]) }
            return body(UnsafeRawBufferPointer(folded))
        }
    }

    /// Whether every byte is ASCII and none is a carriage return.
    static func isPlainASCII(_ bytes: UnsafeRawBufferPointer) -> Bool { scan(bytes, rejectingCarriageReturns: true) }

    /// Whether every byte is ASCII (and, when asked, none is a carriage
    /// return), eight bytes at a time: a word holds a CR exactly when its
    /// XOR with eight CRs holds a zero byte, which `(x - 0x01…) & ~x & 0x80…` finds.
    private static func scan(_ bytes: UnsafeRawBufferPointer, rejectingCarriageReturns: Bool) -> Bool {
        let high: UInt64 = 0x8080_8080_8080_8080, ones: UInt64 = 0x0101_0101_0101_0101
        var index = 0
        while index + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let crs = word ^ (ones &* 0x0D)
            if word & high != 0 || rejectingCarriageReturns && (crs &- ones) & ~crs & high != 0 { return false }
            index += 8
        }
        while index < bytes.count {
            if bytes[index] >= 0x80 || rejectingCarriageReturns && bytes[index] == 0x0D { return false }
            index += 1
        }
        return true
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
