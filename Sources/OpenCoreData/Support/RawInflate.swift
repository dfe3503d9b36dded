/// Decompresses raw DEFLATE data (RFC 1951, no zlib or gzip header), the
/// format of Core Data's `Z_MODELCACHE` blob (Apple's COMPRESSION_ZLIB).
///
/// Foundation on Linux has no decompression API and none of the project's
/// dependencies offers one; linking zlib would make every application's build
/// need its headers for this one read of a cache. This is the small, slow
/// decoder of zlib's `puff.c`, enough for a few kilobytes read once; it
/// throws on malformed input and stops at `limit` bytes of output.
enum RawInflate {
    struct Malformed: Error {}

    static func inflate(_ input: Data, limit: Int = 64 << 20) throws -> Data {
        var state = State(input: [UInt8](input), limit: limit)
        var last = false
        while !last {
            last = try state.bits(1) == 1
            switch try state.bits(2) {
            case 0: try state.stored()
            case 1: try state.codes(fixed.lengths, fixed.distances)
            case 2: let (lengths, distances) = try state.dynamicTables(); try state.codes(lengths, distances)
            default: throw Malformed()
            }
        }
        return Data(state.output)
    }

    /// A canonical Huffman code: how many symbols have each length, and the symbols in code order.
    struct Huffman {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int] = []

        init(lengths: [Int]) {
            for length in lengths { counts[length] += 1 }
            var offsets = [Int](repeating: 0, count: 16)
            for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
            symbols = [Int](repeating: 0, count: lengths.count)
            for (symbol, length) in lengths.enumerated() where length != 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
        }
    }

    private static let fixed: (lengths: Huffman, distances: Huffman) = (
        Huffman(lengths: [Int](repeating: 8, count: 144) + [Int](repeating: 9, count: 112)
                + [Int](repeating: 7, count: 24) + [Int](repeating: 8, count: 8)),
        Huffman(lengths: [Int](repeating: 5, count: 30)))

    private static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83,
                                     99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5,
                                      5, 0]
    private static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769,
                                       1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    private static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11,
                                        11, 12, 12, 13, 13]
    /// The order code length code lengths are stored in.
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    private struct State {
        let input: [UInt8]
        let limit: Int
        var output: [UInt8] = []
        var position = 0
        var bitBuffer = 0, bitCount = 0

        init(input: [UInt8], limit: Int) { (self.input, self.limit) = (input, limit) }

        mutating func bits(_ count: Int) throws -> Int {
            while bitCount < count {
                guard position < input.count else { throw Malformed() }
                bitBuffer |= Int(input[position]) << bitCount
                position += 1
                bitCount += 8
            }
            let value = bitBuffer & ((1 << count) - 1)
            bitBuffer >>= count
            bitCount -= count
            return value
        }

        mutating func stored() throws {
            (bitBuffer, bitCount) = (0, 0)
            guard position + 4 <= input.count else { throw Malformed() }
            let length = Int(input[position]) | Int(input[position + 1]) << 8
            let complement = Int(input[position + 2]) | Int(input[position + 3]) << 8
            position += 4
            guard length == ~complement & 0xffff, position + length <= input.count,
                  output.count + length <= limit else { throw Malformed() }
            output += input[position..<position + length]
            position += length
        }

        mutating func decode(_ code: Huffman) throws -> Int {
            var value = 0, first = 0, index = 0
            for length in 1...15 {
                value |= try bits(1)
                let count = code.counts[length]
                if value - count < first { return code.symbols[index + value - first] }
                index += count
                first = (first + count) << 1
                value <<= 1
            }
            throw Malformed()
        }

        mutating func codes(_ lengths: Huffman, _ distances: Huffman) throws {
            while true {
                let symbol = try decode(lengths)
                if symbol < 256 {
                    guard output.count < limit else { throw Malformed() }
                    output.append(UInt8(symbol))
                } else if symbol == 256 {
                    return
                } else {
                    let lengthIndex = symbol - 257
                    guard lengthIndex < lengthBase.count else { throw Malformed() }
                    let length = lengthBase[lengthIndex] + (try bits(lengthExtra[lengthIndex]))
                    let distanceIndex = try decode(distances)
                    guard distanceIndex < distanceBase.count else { throw Malformed() }
                    let distance = distanceBase[distanceIndex] + (try bits(distanceExtra[distanceIndex]))
                    guard distance <= output.count, output.count + length <= limit else { throw Malformed() }
                    // Byte by byte: a copy may overlap the bytes it produces.
                    for _ in 0..<length { output.append(output[output.count - distance]) }
                }
            }
        }

        mutating func dynamicTables() throws -> (Huffman, Huffman) {
            let literalCount = try bits(5) + 257, distanceCount = try bits(5) + 1, codeCount = try bits(4) + 4
            guard literalCount <= 286, distanceCount <= 30 else { throw Malformed() }
            var codeLengths = [Int](repeating: 0, count: 19)
            for index in 0..<codeCount { codeLengths[codeLengthOrder[index]] = try bits(3) }
            let lengthCode = Huffman(lengths: codeLengths)
            var lengths: [Int] = []
            while lengths.count < literalCount + distanceCount {
                let symbol = try decode(lengthCode)
                switch symbol {
                case 0..<16: lengths.append(symbol)
                case 16:
                    guard let previous = lengths.last else { throw Malformed() }
                    lengths += repeatElement(previous, count: 3 + (try bits(2)))
                case 17: lengths += repeatElement(0, count: 3 + (try bits(3)))
                default: lengths += repeatElement(0, count: 11 + (try bits(7)))
                }
            }
            guard lengths.count == literalCount + distanceCount, lengths[256] != 0 else { throw Malformed() }
            return (Huffman(lengths: Array(lengths[..<literalCount])),
                    Huffman(lengths: Array(lengths[literalCount...])))
        }
    }
}
