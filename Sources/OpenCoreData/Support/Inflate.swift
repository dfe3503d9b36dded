/// Decompression of raw DEFLATE data (RFC 1951), the format of a store's
/// `Z_MODELCACHE`: Foundation on Linux has no zlib API and the package links
/// no zlib, so the few dozen lines of a canonical-Huffman inflater live here
/// (after zlib's reference decoder "puff"). Input is untrusted: every
/// malformed stream throws, and output is capped.
enum Inflate {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The bytes `data` decompresses to. Throws for a malformed stream or
    /// output beyond `limit` bytes. Linear in the output size.
    static func decompress(_ data: [UInt8], limit: Int = 256 << 20) throws -> [UInt8] {
        var state = State(input: data, limit: limit)
        var last = false
        while !last {
            last = try state.bits(1) == 1
            switch try state.bits(2) {
            case 0: try state.stored()
            case 1: try state.codes(Huffman.fixedLengths, Huffman.fixedDistances)
            case 2: try state.dynamic()
            default: throw Failure(description: "invalid block type")
            }
        }
        return state.output
    }

    /// Canonical Huffman code: how many codes of each length, and the symbols in code order.
    struct Huffman {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int]

        init(lengths: [Int]) throws {
            symbols = [Int](repeating: 0, count: lengths.count)
            for length in lengths { counts[length] += 1 }
            var left = 1
            for length in 1...15 {
                left = left * 2 - counts[length]
                guard left >= 0 else { throw Failure(description: "over-subscribed code") }
            }
            var offsets = [Int](repeating: 0, count: 16)
            for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
            for (symbol, length) in lengths.enumerated() where length != 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
        }

        static let fixedLengths = try! Huffman(lengths: Array(repeating: 8, count: 144)
            + Array(repeating: 9, count: 112) + Array(repeating: 7, count: 24) + Array(repeating: 8, count: 8))
        static let fixedDistances = try! Huffman(lengths: Array(repeating: 5, count: 30))
    }

    private static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83,
                                      99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5,
                                       5, 0]
    private static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769,
                                       1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    private static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11,
                                         11, 12, 12, 13, 13]
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    private struct State {
        let input: [UInt8]
        let limit: Int
        var position = 0, bitBuffer = 0, bitCount = 0
        var output: [UInt8] = []

        init(input: [UInt8], limit: Int) { (self.input, self.limit) = (input, limit) }

        /// The next `count` bits, least significant first.
        mutating func bits(_ count: Int) throws -> Int {
            while bitCount < count {
                guard position < input.count else { throw Failure(description: "unexpected end of data") }
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
            guard position + 4 <= input.count else { throw Failure(description: "unexpected end of data") }
            let length = Int(input[position]) | Int(input[position + 1]) << 8
            let check = Int(input[position + 2]) | Int(input[position + 3]) << 8
            guard length == ~check & 0xFFFF else { throw Failure(description: "stored block length mismatch") }
            position += 4
            guard position + length <= input.count, output.count + length <= limit else {
                throw Failure(description: "stored block beyond the data or the limit")
            }
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
            throw Failure(description: "invalid code")
        }

        mutating func codes(_ lengths: Huffman, _ distances: Huffman) throws {
            while true {
                let symbol = try decode(lengths)
                if symbol < 256 {
                    guard output.count < limit else { throw Failure(description: "output beyond the limit") }
                    output.append(UInt8(symbol))
                    continue
                }
                if symbol == 256 { return }
                let index = symbol - 257
                guard index < lengthBase.count else { throw Failure(description: "invalid length symbol") }
                let length = lengthBase[index] + (try bits(lengthExtra[index]))
                let distanceSymbol = try decode(distances)
                guard distanceSymbol < distanceBase.count else { throw Failure(description: "invalid distance") }
                let distance = distanceBase[distanceSymbol] + (try bits(distanceExtra[distanceSymbol]))
                guard distance <= output.count, output.count + length <= limit else {
                    throw Failure(description: "distance before the start or output beyond the limit")
                }
                let start = output.count - distance
                for offset in 0..<length { output.append(output[start + offset]) }
            }
        }

        mutating func dynamic() throws {
            let literalCount = try bits(5) + 257, distanceCount = try bits(5) + 1, codeCount = try bits(4) + 4
            guard literalCount <= 286, distanceCount <= 30 else { throw Failure(description: "too many codes") }
            var codeLengths = [Int](repeating: 0, count: 19)
            for index in 0..<codeCount { codeLengths[codeLengthOrder[index]] = try bits(3) }
            let codeLengthCode = try Huffman(lengths: codeLengths)
            var lengths: [Int] = []
            while lengths.count < literalCount + distanceCount {
                let symbol = try decode(codeLengthCode)
                switch symbol {
                case 0..<16: lengths.append(symbol)
                case 16:
                    guard let previous = lengths.last else { throw Failure(description: "repeat without length") }
                    lengths += Array(repeating: previous, count: 3 + (try bits(2)))
                case 17: lengths += Array(repeating: 0, count: 3 + (try bits(3)))
                default: lengths += Array(repeating: 0, count: 11 + (try bits(7)))
                }
            }
            guard lengths.count == literalCount + distanceCount, lengths[256] != 0 else {
                throw Failure(description: "invalid code lengths")
            }
            try codes(Huffman(lengths: Array(lengths[..<literalCount])),
                      Huffman(lengths: Array(lengths[literalCount...])))
        }
    }
}
