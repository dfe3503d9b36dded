import Testing
@testable import OpenCoreDataCore

/// The checksum and digest Core Data stores next to the version hashes,
/// recomputed from the hashes of every corpus store that has them.
@Suite struct ModelVersionChecksumsTests {
    @Test(.enabled(if: Corpus.stores != nil)) func corpusChecksumsAndDigestsFollowTheRule() throws {
        var checksums = 0, digests = 0
        for file in Corpus.files(in: Corpus.stores, suffix: ".Z_METADATA.json") {
            let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]])
            let plist = try #require(json.first?["Z_PLIST"] as? [String: Any])
            let encoded = plist["NSStoreModelVersionHashes"] as? [String: [String: String]] ?? [:]
            let hashes = encoded.compactMapValues { $0["$base64"].flatMap { Data(base64Encoded: $0) } }
            if let checksum = plist["NSStoreModelVersionChecksumKey"] as? String {
                #expect(ModelVersionChecksums.checksum(of: hashes) == checksum, "\(file.lastPathComponent)")
                checksums += 1
            }
            if let digest = plist["NSStoreModelVersionHashesDigest"] as? String {
                #expect(ModelVersionChecksums.digest(of: hashes) == digest, "\(file.lastPathComponent)")
                digests += 1
            }
        }
        print("corpus stores: \(checksums) checksums and \(digests) digests recomputed from their version hashes")
        #expect(checksums >= 7 && digests >= 17)
    }
}
