/// The two model digests Core Data writes into a store's metadata next to
/// the entity version hashes.
///
/// Derived black-box from stores Core Data wrote (shared/corpus/stores): for
/// every corpus store that has them, `NSStoreModelVersionChecksumKey` is the
/// SHA-256 of the entity hashes concatenated in entity-name order (7 of 7
/// stores), and `NSStoreModelVersionHashesDigest` is the SHA-512 of each
/// entity's name (UTF-8) followed by its hash, in entity-name order (17 of 17).
/// Both are written base64-encoded.
public enum ModelVersionChecksums {
    /// `NSStoreModelVersionChecksumKey` for `hashes` (entity name → version hash).
    public static func checksum(of hashes: [String: Data]) -> String {
        let bytes = hashes.keys.sorted().flatMap { Array(hashes[$0]!) }
        return Data(SHA256.hash(bytes)).base64EncodedString()
    }

    /// `NSStoreModelVersionHashesDigest` for `hashes` (entity name → version hash).
    public static func digest(of hashes: [String: Data]) -> String {
        let bytes = hashes.keys.sorted().flatMap { Array($0.utf8) + Array(hashes[$0]!) }
        return Data(SHA512.hash(bytes)).base64EncodedString()
    }
}
