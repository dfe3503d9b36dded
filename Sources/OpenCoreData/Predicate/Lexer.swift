/// A reserved word of the predicate language (case-insensitive in the input).
///
/// Source: Apple's Predicate Format String Syntax, "Reserved Words"
/// (reference §5.3). `#word` turns any of them back into a plain key.
enum Keyword: String, CaseIterable {
    case and = "AND", or = "OR", `in` = "IN", not = "NOT", all = "ALL", any = "ANY", some = "SOME"
    case none = "NONE", like = "LIKE", caseInsensitive = "CASEINSENSITIVE", ci = "CI"
    case matches = "MATCHES", contains = "CONTAINS", beginsWith = "BEGINSWITH", endsWith = "ENDSWITH"
    case between = "BETWEEN", null = "NULL", `nil` = "NIL", `self` = "SELF", `true` = "TRUE"
    case yes = "YES", `false` = "FALSE", no = "NO", first = "FIRST", last = "LAST", size = "SIZE"
    case anyKey = "ANYKEY", subquery = "SUBQUERY", fetch = "FETCH", cast = "CAST"
    case truePredicate = "TRUEPREDICATE", falsePredicate = "FALSEPREDICATE"
    case utiConformsTo = "UTI-CONFORMS-TO", utiEquals = "UTI-EQUALS"

    private static let byUppercasedName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

    /// The keyword spelled by `word`, ignoring case.
    init?(word: String) {
        guard let keyword = Keyword.byUppercasedName[word.uppercased()] else { return nil }
        self = keyword
    }

    /// Whether `name` must be written `#name` to be read as a key.
    static func isReserved(_ name: String) -> Bool { Keyword(word: name) != nil }
}

/// One token of a format string, with its UTF-16 range for error messages.
struct Token: Equatable {
    enum Kind: Equatable {
        /// A key (`name`, `#size`) or collection operator (`@count`).
        case identifier(String)
        /// A keyword-style function name such as `modulus:by:`.
        case selectorName(String)
        case keyword(Keyword)
        case string(String)
        case integer(Int)
        case double(Double)
        /// `$NAME`.
        case variable(String)
        /// A `%` conversion without the `%`: `@`, `K`, `d`, `ld`, `f`, `s`…
        case formatArgument(String)
        /// Operators and punctuation: `==`, `<=`, `&&`, `(`, `{`, `.`, `**`, `:=`…
        case symbol(String)
        case end
    }

    var kind: Kind
    /// UTF-16 offset of the first code unit.
    var offset: Int

    /// How the token reads in an error message.
    var quoted: String {
        switch kind {
        case .identifier(let s), .selectorName(let s): return "'\(s)'"
        case .keyword(let k): return "'\(k.rawValue)'"
        case .string(let s): return "string \"\(s)\""
        case .integer(let i): return "number \(i)"
        case .double(let d): return "number \(d)"
        case .variable(let v): return "'$\(v)'"
        case .formatArgument(let f): return "'%\(f)'"
        case .symbol(let s): return "'\(s)'"
        case .end: return "end of input"
        }
    }
}

/// Splits a format string into tokens, in one pass over its UTF-16 code units.
///
/// Working on UTF-16 gives error offsets in the units `NSString` uses. Cost:
/// linear in the length of the input; every step consumes at least one unit,
/// so it cannot loop.
struct Lexer {
    private let units: [UInt16]
    private let format: String
    private var position = 0

    init(_ format: String) {
        self.format = format
        self.units = Array(format.utf16)
    }

    /// All tokens, ending with `.end`.
    static func tokenize(_ format: String) throws(PredicateSyntaxError) -> [Token] {
        var lexer = Lexer(format)
        var tokens: [Token] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private func error(_ expected: String, found: String? = nil, at offset: Int? = nil) -> PredicateSyntaxError {
        let at = offset ?? position
        let shown = found ?? (at < units.count ? "'\(String(decoding: [units[at]], as: UTF16.self))'" : "end of input")
        return PredicateSyntaxError(format: format, utf16Offset: at, expected: expected, found: shown)
    }

    private func peek(_ ahead: Int = 0) -> UInt16? {
        position + ahead < units.count ? units[position + ahead] : nil
    }

    /// C identifiers, plus non-ASCII letters (Swift property names may use them).
    private static func isIdentifierStart(_ u: UInt16) -> Bool {
        if u < 0x80 { return (u >= 65 && u <= 90) || (u >= 97 && u <= 122) || u == 95 }
        guard let scalar = Unicode.Scalar(u) else { return UTF16.isLeadSurrogate(u) || UTF16.isTrailSurrogate(u) }
        return scalar.properties.isAlphabetic
    }

    private static func isIdentifierPart(_ u: UInt16) -> Bool {
        isIdentifierStart(u) || isDigit(u)
    }

    private static func isDigit(_ u: UInt16) -> Bool { u >= 48 && u <= 57 }

    /// The units `range` as a string. ASCII, which nearly every key path and keyword is, is copied byte for
    /// byte: decoding an `ArraySlice` of UTF-16 goes through the standard library's unspecialized generic
    /// transcoding (~400k instructions the first time in a process, then thousands a call).
    private func text(_ range: Range<Int>) -> String {
        units.withUnsafeBufferPointer { all in
            let slice = UnsafeBufferPointer(rebasing: all[range])
            guard slice.allSatisfy({ $0 < 0x80 }) else { return String(decoding: slice, as: UTF16.self) }
            return String(unsafeUninitializedCapacity: slice.count) { bytes in
                for index in slice.indices { bytes[index] = UInt8(truncatingIfNeeded: slice[index]) }
                return slice.count
            }
        }
    }

    mutating func next() throws(PredicateSyntaxError) -> Token {
        while let u = peek(), u == 32 || u == 9 || u == 10 || u == 13 || u == 12 || u == 11 { position += 1 }
        let start = position
        guard let u = peek() else { return Token(kind: .end, offset: start) }
        func symbol(_ s: String) -> Token {
            position += s.utf16.count
            return Token(kind: .symbol(s), offset: start)
        }
        switch u {
        case 34, 39: return try string(quote: u)  // " '
        case 36:  // $
            position += 1
            guard let c = peek(), Lexer.isIdentifierStart(c) else { throw error("a variable name after '$'") }
            return Token(kind: .variable(identifierRun()), offset: start)
        case 37: return try formatArgument()  // %
        case 35:  // #
            position += 1
            guard let c = peek(), Lexer.isIdentifierStart(c) else { throw error("a key after '#'") }
            return Token(kind: .identifier(identifierRun()), offset: start)
        case 64:  // @
            position += 1
            guard let c = peek(), Lexer.isIdentifierStart(c) else { throw error("a collection operator after '@'") }
            return Token(kind: .identifier("@" + identifierRun()), offset: start)
        case 61:  // =
            if peek(1) == 61 { return symbol("==") }
            if peek(1) == 62 { return symbol(">=") }  // =>
            if peek(1) == 60 { return symbol("<=") }  // =<
            position += 1
            return Token(kind: .symbol("=="), offset: start)
        case 33: return peek(1) == 61 ? symbol("!=") : symbol("!")
        case 60:
            if peek(1) == 61 { return symbol("<=") }
            if peek(1) == 62 { return symbol("!=") }  // <>
            return symbol("<")
        case 62: return peek(1) == 61 ? symbol(">=") : symbol(">")
        case 38:
            guard peek(1) == 38 else { throw error("'&&'") }
            return symbol("&&")
        case 124:
            guard peek(1) == 124 else { throw error("'||'") }
            return symbol("||")
        case 42: return peek(1) == 42 ? symbol("**") : symbol("*")
        case 58:
            guard peek(1) == 61 else { throw error("':='") }
            return symbol(":=")
        case 40: return symbol("(")
        case 41: return symbol(")")
        case 123: return symbol("{")
        case 125: return symbol("}")
        case 91: return symbol("[")
        case 93: return symbol("]")
        case 44: return symbol(",")
        case 43: return symbol("+")
        case 45: return symbol("-")
        case 47: return symbol("/")
        case 46:
            if let d = peek(1), Lexer.isDigit(d) { return try number() }
            return symbol(".")
        default:
            if Lexer.isDigit(u) { return try number() }
            if Lexer.isIdentifierStart(u) { return word() }
            throw error("a token")
        }
    }

    private mutating func identifierRun() -> String {
        let start = position
        while let c = peek(), Lexer.isIdentifierPart(c) { position += 1 }
        return text(start..<position)
    }

    /// An identifier, keyword, `UTI-…` operator or `name:by:` selector name.
    private mutating func word() -> Token {
        let start = position
        var word = identifierRun()
        if word.uppercased() == "UTI" {
            for spelled in ["-CONFORMS-TO", "-EQUALS"] {
                let n = spelled.utf16.count
                if position + n <= units.count, text(position..<position + n).uppercased() == spelled {
                    position += n
                    return Token(kind: .keyword(Keyword(word: word + spelled)!), offset: start)
                }
            }
        }
        // `modulus:by:(a, b)`: a keyword-style function name, but not `$x := …`.
        if peek() == 58, peek(1) != 61 {
            while peek() == 58 {
                position += 1
                word += ":"
                if let c = peek(), Lexer.isIdentifierStart(c) { word += identifierRun() }
            }
            return Token(kind: .selectorName(word), offset: start)
        }
        if let keyword = Keyword(word: word) { return Token(kind: .keyword(keyword), offset: start) }
        return Token(kind: .identifier(word), offset: start)
    }

    /// Decimal, `0x` hex, `0o` octal and `0b` binary integers; fixed-point and exponent forms.
    private mutating func number() throws(PredicateSyntaxError) -> Token {
        let start = position
        if peek() == 48, let p = peek(1) {
            let radix: Int? = switch p {
            case 120, 88: 16
            case 111, 79: 8
            case 98, 66: 2
            default: nil
            }
            if let radix {
                position += 2
                let digitsStart = position
                while let c = peek(), Lexer.isIdentifierPart(c) { position += 1 }
                let digits = text(digitsStart..<position)
                guard !digits.isEmpty else { throw error("digits after '\(text(start..<digitsStart))'") }
                if let value = Int(digits, radix: radix) { return Token(kind: .integer(value), offset: start) }
                if let value = UInt64(digits, radix: radix) { return Token(kind: .double(Double(value)), offset: start) }
                throw error("a base-\(radix) number", found: "'\(text(start..<position))'", at: start)
            }
        }
        var isInteger = true
        while let c = peek(), Lexer.isDigit(c) { position += 1 }
        if peek() == 46, let d = peek(1), Lexer.isDigit(d) {
            isInteger = false
            position += 1
            while let c = peek(), Lexer.isDigit(c) { position += 1 }
        } else if peek() == 46, start == position {
            throw error("a number")
        }
        if let e = peek(), e == 101 || e == 69 {
            var ahead = 1
            if let sign = peek(1), sign == 43 || sign == 45 { ahead = 2 }
            if let d = peek(ahead), Lexer.isDigit(d) {
                isInteger = false
                position += ahead
                while let c = peek(), Lexer.isDigit(c) { position += 1 }
            }
        }
        if let c = peek(), Lexer.isIdentifierStart(c) {
            throw error("an operator after a number")
        }
        let spelled = text(start..<position)
        if isInteger, let value = Int(spelled) { return Token(kind: .integer(value), offset: start) }
        guard let value = Double(spelled) else { throw error("a number", found: "'\(spelled)'", at: start) }
        return Token(kind: .double(value), offset: start)
    }

    /// A quoted string. Single and double quotes are equivalent but do not close
    /// each other (reference §5.3); escapes are C's plus `\uHHHH`.
    private mutating func string(quote: UInt16) throws(PredicateSyntaxError) -> Token {
        let start = position
        position += 1
        var out: [UInt16] = []
        while true {
            guard let u = peek() else { throw error("a closing quote for the string", found: "an unterminated string", at: start) }
            position += 1
            if u == quote { break }
            guard u == 92 else { out.append(u); continue }  // backslash
            guard let e = peek() else { throw error("an escaped character", found: "end of input") }
            position += 1
            switch e {
            case 110: out.append(10)  // n
            case 116: out.append(9)  // t
            case 114: out.append(13)  // r
            case 48...55:
                var value = Int(e - 48)
                var digits = 1
                while digits < 3, let d = peek(), d >= 48, d <= 55 {
                    value = value * 8 + Int(d - 48)
                    digits += 1
                    position += 1
                }
                out.append(UInt16(value))
            case 120, 117:  // x, u
                let count = e == 120 ? 2 : 4
                guard position + count <= units.count, let value = UInt16(text(position..<position + count), radix: 16) else {
                    throw error("\(count) hexadecimal digits after '\\\(e == 120 ? "x" : "u")'")
                }
                position += count
                out.append(value)
            default: out.append(e)  // \" \' \\ and any other character stand for themselves
            }
        }
        return Token(kind: .string(String(decoding: out, as: UTF16.self)), offset: start)
    }

    /// `%@`, `%K`, `%%` and printf conversions with optional length modifiers (`%ld`, `%lf`, `%hhu`).
    private mutating func formatArgument() throws(PredicateSyntaxError) -> Token {
        let start = position
        position += 1
        let modifiers: Set<UInt16> = Set("hlqLzjt".utf16)
        let conversions: Set<UInt16> = Set("@KdiouxXDUOfFeEgGaAcCsSp%".utf16)
        let specStart = position
        while let c = peek(), modifiers.contains(c) { position += 1 }
        guard let c = peek(), conversions.contains(c) else {
            throw error("a format specifier after '%'", at: position)
        }
        position += 1
        return Token(kind: .formatArgument(text(specStart..<position)), offset: start)
    }
}
