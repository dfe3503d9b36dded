import Foundation

/// A reader of binary property lists (`bplist00`), for the plists Core Data
/// stores keep (`Z_METADATA`'s), into the values Foundation's reader gives
/// on Linux, type for type: dictionaries as `[AnyHashable: Any]` with string
/// keys, arrays as `[Any]`, strings, data, dates and booleans as their Swift
/// types, integers and reals as `NSNumber`. (So a metadata dictionary
/// compares with `NSDictionary.isEqual` as it did when Foundation read it.)
///
/// Why not `PropertyListSerialization`: on Linux it builds Foundation
/// objects and bridges them to Swift values, about a million instructions
/// for a store's metadata, a fifth of opening a store. This reads the
/// values in one pass over the bytes.
///
/// The input is untrusted: every offset, count and reference is checked
/// against the data, a container that contains itself is refused, and a
/// damaged list throws `CocoaError(.propertyListReadCorrupt)` (3840), as
/// Foundation does. It throws only where Foundation's reader fails too;
/// whatever this reader does not make (UIDs of keyed archives, integers and
/// counts wider than 64 bits, keys that are not strings, sets, odd markers,
/// nesting past `maximumDepth`) makes `decode` return nil so that the caller
/// can ask Foundation instead.
enum BinaryPropertyList {
    /// The property list in `data`; nil when `data` is not a binary property
    /// list or holds an object this reader leaves to Foundation. O(bytes).
    static func decode(_ data: Data) throws -> Any? {
        let bytes = [UInt8](data)
        guard bytes.starts(with: Array("bplist00".utf8)) else { return nil }
        var reader = try Reader(bytes)
        do {
            return try reader.object(reader.topObject, depth: 0)
        } catch is Unsupported {
            return nil
        }
    }

    /// The big-endian unsigned integer of `size` (1…8) bytes at `start`, the
    /// format's offsets, counts and references; nil past the end or above `Int.max`.
    static func integer(_ bytes: [UInt8], at start: Int, size: Int) -> Int? {
        guard let value = bits(bytes, at: start, size: size) else { return nil }
        return value > UInt64(Int.max) ? nil : Int(value)
    }

    /// The `size` (1…8) bytes at `start` as a big-endian bit pattern; nil past the end.
    static func bits(_ bytes: [UInt8], at start: Int, size: Int) -> UInt64? {
        guard size >= 1, size <= 8, start >= 0, start <= bytes.count - size else { return nil }
        return bytes[start..<start + size].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    /// The deepest nesting of containers read or written; deeper lists are left to Foundation.
    static let maximumDepth = 512

    /// An object of a kind left to Foundation.
    private struct Unsupported: Error {}

    private struct Reader {
        let bytes: [UInt8]
        let offsetSize: Int, referenceSize: Int
        let objectCount: Int, topObject: Int, tableOffset: Int
        /// The containers being read, innermost last: a reference back to one is a cycle.
        var open: [Int] = []
        /// The objects read so far, by index. A list may reference one object
        /// from many places; reading it again at each would take time
        /// exponential in the nesting (arrays of two references to the next).
        var done: [Any?]

        init(_ bytes: [UInt8]) throws {
            self.bytes = bytes
            let trailer = bytes.count - 32
            guard trailer >= 8 else { throw Self.damaged }
            offsetSize = Int(bytes[trailer + 6])
            referenceSize = Int(bytes[trailer + 7])
            // The reference size is checked where references are read: a list
            // without containers reads whatever it says, as with Foundation.
            guard (1...8).contains(offsetSize),
                  let count = BinaryPropertyList.integer(bytes, at: trailer + 8, size: 8),
                  let top = BinaryPropertyList.integer(bytes, at: trailer + 16, size: 8),
                  let table = BinaryPropertyList.integer(bytes, at: trailer + 24, size: 8),
                  table >= 8, table <= trailer, count <= (trailer - table) / offsetSize, top < count
            else { throw Self.damaged }
            objectCount = count
            topObject = top
            tableOffset = table
            done = Array(repeating: nil, count: count)
        }

        static var damaged: CocoaError { CocoaError(.propertyListReadCorrupt) }


        /// The offset, count or reference of `size` bytes at `start` (see `BinaryPropertyList.integer`).
        func integer(at start: Int, size: Int) -> Int? { BinaryPropertyList.integer(bytes, at: start, size: size) }

        /// The bytes `start..<start + count`, checked to lie before the offset table.
        func range(_ start: Int, count: Int) throws -> Range<Int> {
            guard count >= 0, start >= 8, start <= tableOffset, count <= tableOffset - start else { throw Self.damaged }
            return start..<start + count
        }

        /// Where object `index` starts.
        func offset(of index: Int) throws -> Int {
            guard index >= 0, index < objectCount,
                  let offset = integer(at: tableOffset + index * offsetSize, size: offsetSize),
                  offset >= 8, offset < tableOffset else { throw Self.damaged }
            return offset
        }

        /// The count in a marker's low nibble, or in the integer object after it (nibble 0xF);
        /// returns the count and where the object's contents start.
        func count(at offset: Int) throws -> (count: Int, start: Int) {
            let nibble = Int(bytes[offset] & 0x0F)
            guard nibble == 0x0F else { return (nibble, offset + 1) }
            let marker = try bytes[range(offset + 1, count: 1).lowerBound]
            guard marker >> 4 == 0x1 else { throw Self.damaged }
            let size = 1 << Int(marker & 0x0F)
            guard size <= 8 else { throw Unsupported() } // a count wider than 64 bits: Foundation's call
            guard let count = try integer(at: range(offset + 2, count: size).lowerBound, size: size)
            else { throw Self.damaged }
            return (count, offset + 2 + size)
        }

        /// The object references `start..<start + count × referenceSize`.
        func references(at start: Int, count: Int) throws -> [Int] {
            guard count > 0 else { return [] }
            guard (1...8).contains(referenceSize), count <= (tableOffset - min(start, tableOffset)) / referenceSize
            else { throw Self.damaged }
            let span = try range(start, count: count * referenceSize)
            return try stride(from: span.lowerBound, to: span.upperBound, by: referenceSize).map {
                guard let reference = integer(at: $0, size: referenceSize) else { throw Self.damaged }
                return reference
            }
        }

        /// Object `index`, read once.
        mutating func object(_ index: Int, depth: Int) throws -> Any {
            guard index >= 0, index < objectCount else { throw Self.damaged }
            if let known = done[index] { return known }
            let value = try read(index, depth: depth)
            done[index] = value
            return value
        }

        private mutating func read(_ index: Int, depth: Int) throws -> Any {
            let offset = try offset(of: index)
            let marker = bytes[offset]
            switch marker >> 4 {
            case 0x0:
                switch marker {
                case 0x08: return false
                case 0x09: return true
                default: throw Unsupported() // null and fill: no property list holds them
                }
            case 0x1:
                let size = 1 << Int(marker & 0x0F)
                guard size <= 8 else { throw Unsupported() }
                // Eight-byte integers are signed; shorter ones are unsigned.
                return NSNumber(value: Int64(bitPattern: try bits(at: offset + 1, size: size)))
            case 0x2:
                // Four-byte reals (which Core Data does not write) are left to Foundation.
                guard marker & 0x0F == 3 else { throw Unsupported() }
                return NSNumber(value: Double(bitPattern: try bits(at: offset + 1, size: 8)))
            case 0x3:
                guard marker == 0x33 else { throw Unsupported() }
                return Date(timeIntervalSinceReferenceDate: Double(bitPattern: try bits(at: offset + 1, size: 8)))
            case 0x4:
                let (count, start) = try count(at: offset)
                return Data(bytes[try range(start, count: count)])
            case 0x5:
                let (count, start) = try count(at: offset)
                let span = try range(start, count: count)
                // ASCII by the format; what Foundation makes of other bytes is its business.
                guard bytes[span].allSatisfy({ $0 < 0x80 }) else { throw Unsupported() }
                return String(decoding: bytes[span], as: UTF8.self)
            case 0x6:
                let (count, start) = try count(at: offset)
                guard count <= Int.max / 2 else { throw Self.damaged }
                let span = try range(start, count: count * 2)
                let units = stride(from: span.lowerBound, to: span.upperBound, by: 2).map {
                    UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1])
                }
                // Unpaired surrogates are left to Foundation.
                guard let string = String(validating: units, as: UTF16.self) else { throw Unsupported() }
                return string
            case 0xA:
                let (count, start) = try count(at: offset)
                let elements = try references(at: start, count: count)
                return try inside(index, depth: depth) { reader in
                    try elements.map { try reader.object($0, depth: depth + 1) }
                }
            case 0xD:
                let (count, start) = try count(at: offset)
                guard count <= Int.max / 2 else { throw Self.damaged }
                let references = try references(at: start, count: count * 2)
                return try inside(index, depth: depth) { reader in
                    var dictionary: [AnyHashable: Any] = [:]
                    dictionary.reserveCapacity(count)
                    for position in 0..<count {
                        guard let key = try reader.object(references[position], depth: depth + 1) as? String else {
                            throw Unsupported()
                        }
                        // A key given twice (damage) keeps its first value, as Foundation's reader does.
                        guard dictionary[AnyHashable(key)] == nil else { continue }
                        dictionary[AnyHashable(key)] = try reader.object(references[count + position], depth: depth + 1)
                    }
                    return dictionary
                }
            default:
                throw Unsupported() // UIDs (0x8), sets (0xB, 0xC) and unknown markers
            }
        }

        /// The `size` bytes at `start` as a big-endian bit pattern.
        func bits(at start: Int, size: Int) throws -> UInt64 {
            guard let bits = BinaryPropertyList.bits(bytes, at: try range(start, count: size).lowerBound, size: size)
            else { throw Self.damaged }
            return bits
        }

        /// Runs `body` with container `index` open: refuses a cycle, and leaves
        /// a nesting deeper than `maximumDepth` to Foundation.
        mutating func inside<T>(_ index: Int, depth: Int, _ body: (inout Reader) throws -> T) throws -> T {
            guard depth < BinaryPropertyList.maximumDepth else { throw Unsupported() }
            guard !open.contains(index) else { throw Self.damaged }
            open.append(index)
            defer { open.removeLast() }
            return try body(&self)
        }
    }
}
