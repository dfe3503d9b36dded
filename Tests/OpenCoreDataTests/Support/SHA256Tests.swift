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

    /// Runs of "a" at the padding edges (one block, a second block for the length, exact blocks)
    /// and past one block; the digests are GNU coreutils' `sha256sum` of the same bytes.
    @Test(arguments: [
        (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
        (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        (65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
        (119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
        (120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"),
        (1000, "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"),
    ])
    func paddingEdges(count: Int, expected: String) {
        #expect(Self.hex(SHA256.hash([UInt8](repeating: 0x61, count: count))) == expected)
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
