/// One sort key's values by row for ``SQLiteRecordSort``, copied out of the
/// records into memory it allocates and `deallocate()` frees: a plain value,
/// so that comparing two rows retains and releases nothing.
struct SQLiteSortColumn {
    enum Kind {
        /// Strings in `compare:` order (``SQLiteCompareCollation``).
        case string
        /// Integers and booleans: `INTEGER` columns.
        case integer
        /// Floating point and dates: `REAL` values, or `INTEGER` for whole ones.
        case real
    }

    let kind: Kind
    let ascending: Bool
    private let isNull: UnsafeMutablePointer<Bool>
    /// `.integer`: the values; `.real`: their bit patterns; `.string`: where
    /// each row's UTF-8 starts in `bytes` (row i's runs to `numbers[i + 1]`).
    private let numbers: UnsafeMutablePointer<Int64>
    private let bytes: UnsafeMutablePointer<UInt8>?
    /// `.string`: whether each row's string is all ASCII, so that its order with another such is its bytes'.
    private let isASCII: UnsafeMutablePointer<Bool>?
    /// `.string`: each row's first eight bytes as a big-endian number,
    /// zero-padded: unequal prefixes order two ASCII strings without a NUL
    /// (``SQLiteRecordSort`` takes strings read whole, so none has one).
    private let prefixes: UnsafeMutablePointer<UInt64>?
    /// Whether every string is ASCII: then `word(_:)` orders them by their prefixes.
    private let allASCII: Bool

    /// The values of rows `0..<count` (`value(row)`) as a column of `kind`; none is NULL.
    init(_ kind: Kind, ascending: Bool, count: Int, value: (Int) -> SlotValue) {
        self.kind = kind
        self.ascending = ascending
        isNull = .allocate(capacity: count)
        numbers = .allocate(capacity: kind == .string ? count + 1 : count)
        var byteCount = 0
        for row in 0..<count {
            let value = value(row)
            isNull[row] = false
            switch kind {
            case .string:
                numbers[row] = Int64(byteCount)
                if case .string(let string) = value { byteCount += string.utf8.count } else { isNull[row] = true }
            case .integer:
                if let integer = Self.integer(value) { numbers[row] = integer } else { isNull[row] = true }
            case .real:
                if let real = Self.real(value) {
                    numbers[row] = Int64(bitPattern: real.bitPattern)
                } else {
                    isNull[row] = true
                }
            }
        }
        guard kind == .string else {
            (bytes, isASCII, prefixes, allASCII) = (nil, nil, nil, false)
            return
        }
        numbers[count] = Int64(byteCount)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(byteCount, 1)), offsets = numbers
        let ascii = UnsafeMutablePointer<Bool>.allocate(capacity: count)
        let prefix = UnsafeMutablePointer<UInt64>.allocate(capacity: count)
        var allASCII = true
        for row in 0..<count {
            ascii[row] = true
            prefix[row] = 0
            guard case .string(var string) = value(row) else { continue }
            string.withUTF8 { utf8 in
                ascii[row] = ASCIIStringMatching.isASCII(UnsafeRawBufferPointer(utf8), from: 0)
                allASCII = allASCII && ascii[row]
                for index in 0..<min(utf8.count, 8) { prefix[row] |= UInt64(utf8[index]) << UInt64(56 - 8 * index) }
                if let base = utf8.baseAddress {
                    (buffer + Int(offsets[row])).initialize(from: base, count: utf8.count)
                }
            }
        }
        (bytes, isASCII, prefixes, self.allASCII) = (buffer, ascii, prefix, allASCII)
    }

    /// A number whose ascending order agrees with the ascending order of the
    /// rows (two rows with unequal words are in their words' order; equal
    /// words decide nothing): 0 for NULL; the value mapped to an unsigned
    /// order for integers and doubles, its upper 63 bits plus one; the prefix
    /// plus one for strings when all are ASCII (the top bit of an ASCII
    /// prefix is clear), else 1 for every string.
    func word(_ row: Int) -> UInt64 {
        if isNull[row] { return 0 }
        let ordered: UInt64
        switch kind {
        case .string: return allASCII ? prefixes.unsafelyUnwrapped[row] + 1 : 1
        case .integer: ordered = UInt64(bitPattern: numbers[row]) ^ (1 << 63)
        case .real:
            // SQLite orders -0.0 and 0.0 as equal; negative values reversed by flipping every bit.
            let real = Double(bitPattern: UInt64(bitPattern: numbers[row]))
            let bits = (real == 0 ? 0.0 : real).bitPattern
            ordered = bits >> 63 == 1 ? ~bits : bits | (1 << 63)
        }
        return ordered >> 1 + 1
    }

    /// Frees the column's memory; the column is not used again.
    func deallocate() {
        isNull.deallocate()
        numbers.deallocate()
        bytes?.deallocate()
        isASCII?.deallocate()
        prefixes?.deallocate()
    }

    /// -1, 0 or 1 as SQLite orders rows `i` and `j` by this key: NULL first.
    @inline(__always)
    func compare(_ i: Int, _ j: Int) -> Int32 {
        let iIsNull = isNull[i], jIsNull = isNull[j]
        if iIsNull || jIsNull { return iIsNull == jIsNull ? 0 : (iIsNull ? -1 : 1) }
        switch kind {
        case .string:
            let bytes = UnsafeRawPointer(bytes.unsafelyUnwrapped)
            let x = bytes + Int(numbers[i]), xCount = Int(numbers[i + 1] - numbers[i])
            let y = bytes + Int(numbers[j]), yCount = Int(numbers[j + 1] - numbers[j])
            guard isASCII.unsafelyUnwrapped[i] && isASCII.unsafelyUnwrapped[j] else {
                return SQLiteCompareCollation.compare(UnsafeRawBufferPointer(start: x, count: xCount),
                                                      UnsafeRawBufferPointer(start: y, count: yCount))
            }
            let xPrefix = prefixes.unsafelyUnwrapped[i], yPrefix = prefixes.unsafelyUnwrapped[j]
            if xPrefix != yPrefix { return xPrefix < yPrefix ? -1 : 1 }
            let order = memcmp(x, y, min(xCount, yCount))
            if order != 0 { return order < 0 ? -1 : 1 }
            return xCount < yCount ? -1 : (xCount == yCount ? 0 : 1)
        case .integer:
            let x = numbers[i], y = numbers[j]
            return x < y ? -1 : (x == y ? 0 : 1)
        case .real:
            let x = Double(bitPattern: UInt64(bitPattern: numbers[i]))
            let y = Double(bitPattern: UInt64(bitPattern: numbers[j]))
            return x < y ? -1 : (x == y ? 0 : 1)
        }
    }

    /// An integer or boolean slot's value as SQLite stores it.
    static func integer(_ value: SlotValue) -> Int64? {
        switch value {
        case .int64(let v): v
        case .int32(let v): Int64(v)
        case .int16(let v): Int64(v)
        case .bool(let v): v ? 1 : 0
        default: nil
        }
    }

    /// A floating-point or date slot's value as SQLite stores it.
    static func real(_ value: SlotValue) -> Double? {
        switch value {
        case .double(let v): v
        case .float(let v): Double(v)
        case .date(let v): v.timeIntervalSinceReferenceDate
        default: nil
        }
    }
}
