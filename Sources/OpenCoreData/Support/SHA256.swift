/// SHA-256 (FIPS 180-4), for model version hashes.
///
/// Foundation on Linux has no CommonCrypto; the one function version hashes
/// need does not justify linking swift-crypto and its BoringSSL build (over a
/// minute per clean CI build on two cores). Checked against the FIPS 180-4
/// example vectors in SHA256Tests. Not constant-time: never use it for secrets.
///
/// Written for debug builds too, where every model load hashes every entity:
/// the rounds use only operations the compiler inlines without optimizing
/// (pointer subscripts, `&+`, `&>>`, `while` loops). Ranges, buffer-pointer
/// subscripts and generic shifts are calls there that look up type metadata
/// each time, which held a debug build under 1 MB/s (about 30 MB/s now, same machine).
struct SHA256 {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    mutating func update(_ bytes: [UInt8]) {
        length &+= UInt64(bytes.count)
        pending += bytes
        let whole = pending.count / 64 * 64
        guard whole > 0 else { return }
        pending.withUnsafeBufferPointer { compress(blocks: $0.baseAddress!, count: whole) }
        pending.removeFirst(whole)
    }

    /// The whole blocks of the `count` bytes (a multiple of 64) at `blocks` into `state`.
    private mutating func compress(blocks: UnsafePointer<UInt8>, count: Int) {
        let schedule = UnsafeMutablePointer<UInt32>.allocate(capacity: 64)
        defer { schedule.deallocate() }
        Self.k.withUnsafeBufferPointer { k in
            var offset = 0
            while offset < count {
                compress(blocks + offset, k: k.baseAddress!, schedule: schedule)
                offset &+= 64
            }
        }
    }

    consuming func finalize() -> [UInt8] {
        let bitLength = length &* 8
        // 0x80, zeros up to 56 bytes past a block boundary, the length in bits as 8 big-endian bytes.
        var tail = [UInt8](repeating: 0, count: 1 + (119 - pending.count) % 64 + 8)
        tail.withUnsafeMutableBufferPointer { buffer in
            let bytes = buffer.baseAddress!
            bytes[0] = 0x80
            var i = 0
            while i < 8 {
                bytes[buffer.count &- 1 &- i] = UInt8(truncatingIfNeeded: bitLength &>> UInt64(8 &* i))
                i &+= 1
            }
        }
        update(tail)
        let (a, b, c, d, e, f, g, h) = state
        let words: [UInt32] = [a, b, c, d, e, f, g, h]
        var digest = [UInt8](repeating: 0, count: 32)
        digest.withUnsafeMutableBufferPointer { buffer in
            let bytes = buffer.baseAddress!
            words.withUnsafeBufferPointer { words in
                var i = 0
                while i < 32 {
                    bytes[i] = UInt8(truncatingIfNeeded: words.baseAddress![i &>> 2] &>> UInt32(24 &- 8 &* (i & 3)))
                    i &+= 1
                }
            }
        }
        return digest
    }

    static func hash(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBufferPointer { hash($0) }
    }

    /// The digest of the bytes `message` points at: its whole blocks hashed where they lie, only the
    /// last partial one copied (`update` copies the whole message into `pending` first).
    static func hash(_ message: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        let whole = message.count / 64 * 64
        if let start = message.baseAddress {
            hasher.compress(blocks: start, count: whole)
            hasher.pending = Array(UnsafeBufferPointer(start: start + whole, count: message.count - whole))
        }
        hasher.length = UInt64(message.count)
        return hasher.finalize()
    }

    /// One 64-byte block at `block` into `state`; `schedule` is room for 64 words.
    private mutating func compress(_ block: UnsafePointer<UInt8>, k: UnsafePointer<UInt32>,
                                   schedule w: UnsafeMutablePointer<UInt32>) {
        var i = 0
        while i < 16 {
            let byte = block + 4 &* i
            w[i] = UInt32(byte[0]) &<< 24 | UInt32(byte[1]) &<< 16 | UInt32(byte[2]) &<< 8 | UInt32(byte[3])
            i &+= 1
        }
        while i < 64 {
            let s0 = rotr(w[i &- 15], 7) ^ rotr(w[i &- 15], 18) ^ (w[i &- 15] &>> 3)
            let s1 = rotr(w[i &- 2], 17) ^ rotr(w[i &- 2], 19) ^ (w[i &- 2] &>> 10)
            w[i] = w[i &- 16] &+ s0 &+ w[i &- 7] &+ s1
            i &+= 1
        }
        var (a, b, c, d, e, f, g, h) = state
        i = 0
        while i < 64 {
            let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
            let t1 = h &+ s1 &+ ((e & f) ^ (~e & g)) &+ k[i] &+ w[i]
            let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
            let t2 = s0 &+ ((a & b) ^ (a & c) ^ (b & c))
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
            i &+= 1
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d,
                 state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h)
    }
}

/// `x` rotated right by `n` bits (0 < n < 32). Transparent, the one form a debug build inlines
/// (`@inline(__always)` is a call there): hashing is 1.7 times faster so.
@_transparent
private func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { x &>> n | x &<< (32 &- n) }
