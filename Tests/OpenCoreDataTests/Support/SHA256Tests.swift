import Testing
@testable import OpenCoreDataCore

/// FIPS 180-4 / NIST CSRC example vectors for SHA-256.
@Suite struct SHA256Tests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func vectors(input: String, expected: String) {
        #expect(Self.hex(SHA256.hash(Array(input.utf8))) == expected)
    }

    @Test func millionAs() {
        var hasher = SHA256()
        for _ in 0..<1000 { hasher.update([UInt8](repeating: 0x61, count: 1000)) }
        #expect(Self.hex(hasher.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func blockBoundaries() {
        // Lengths around the 55/56/64-byte padding edges hash like one-shot input.
        for n in [55, 56, 57, 63, 64, 65, 119, 120] {
            let bytes = [UInt8](repeating: 0x5a, count: n)
            var split = SHA256()
            split.update(Array(bytes.prefix(n / 2))); split.update(Array(bytes.suffix(n - n / 2)))
            #expect(split.finalize() == SHA256.hash(bytes))
        }
    }
}
