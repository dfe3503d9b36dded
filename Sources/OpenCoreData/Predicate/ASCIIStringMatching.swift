/// BEGINSWITH, ENDSWITH and CONTAINS on the UTF-8 bytes of two strings,
/// without making `String`s: the SQLite store's `NSSTRINGOP` runs once per
/// row, and making, folding and comparing two strings cost it ~1,000
/// instructions a row where comparing the bytes costs a few per byte.
///
/// It answers only where bytes and `StringMatching` must agree: both strings
/// ASCII without a carriage return. There each byte is one `Character` (the
/// only grapheme cluster of several ASCII characters is CR LF), so
/// `hasPrefix`, `hasSuffix` and `contains`, which compare characters, compare
/// bytes; folding `[c]` lowercases the letters and `[d]` changes nothing.
/// Elsewhere it answers nil, and the caller asks `StringMatching`.
enum ASCIIStringMatching {
    typealias Operator = NSComparisonPredicate.Operator

    /// Whether `text` matches `pattern` under `type` (BEGINSWITH, ENDSWITH
    /// or CONTAINS), folding case when `caseInsensitive`; nil for another
    /// operator or for strings this cannot decide.
    static func match(_ type: Operator, _ text: UnsafeRawBufferPointer, _ pattern: UnsafeRawBufferPointer,
                      caseInsensitive: Bool) -> Bool? {
        guard type == .beginsWith || type == .endsWith || type == .contains,
              isPlainASCII(text), isPlainASCII(pattern) else { return nil }
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

    /// Whether every byte is ASCII and none is a carriage return.
    static func isPlainASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for byte in bytes where byte >= 0x80 || byte == 0x0D { return false }
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
