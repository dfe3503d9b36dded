/// A bookmark in the persistent history of one or more stores (Apple's
/// NSPersistentHistoryToken): for each store, by its identifier, the number of
/// the last transaction seen. Hand it to
/// `NSPersistentHistoryChangeRequest.fetchHistory(after:)` to read what came
/// later; archive it (NSSecureCoding) to keep it across launches.
///
/// Tokens of the same store compare by transaction number (`compare(_:)`);
/// equal tokens name the same transactions.
public final class NSPersistentHistoryToken: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    /// The last transaction number seen, by store identifier.
    let storeTokens: [String: Int64]

    init(storeTokens: [String: Int64]) {
        self.storeTokens = storeTokens
        super.init()
    }

    /// The token's transaction number in the store `identifier`, if it has one.
    func transactionNumber(inStore identifier: String?) -> Int64? {
        identifier.flatMap { storeTokens[$0] }
    }

    /// How this token orders against `other`: by transaction number when both
    /// name exactly one and the same store; nil when they can't be compared.
    func compare(_ other: NSPersistentHistoryToken) -> ComparisonResult? {
        guard storeTokens.count == 1, let (store, number) = storeTokens.first,
              other.storeTokens.count == 1, let theirs = other.storeTokens[store] else { return nil }
        return number < theirs ? .orderedAscending : number > theirs ? .orderedDescending : .orderedSame
    }

    // MARK: NSSecureCoding

    /// True: tokens archive with `NSKeyedArchiver` under secure coding, so they can be kept across
    /// launches.
    public static var supportsSecureCoding: Bool { true }

    /// Archives the store identifiers and transaction numbers.
    public func encode(with coder: NSCoder) {
        let tokens = NSMutableDictionary()
        for (store, number) in storeTokens { tokens[NSString(string: store)] = NSNumber(value: number) }
        coder.encode(tokens, forKey: "storeTokens")
    }

    /// Reads a token archived by `encode(with:)`; nil for anything else.
    public init?(coder: NSCoder) {
        guard let tokens = coder.decodeObject(of: [NSDictionary.self, NSString.self, NSNumber.self],
                                              forKey: "storeTokens") as? NSDictionary else { return nil }
        var decoded: [String: Int64] = [:]
        for (key, value) in tokens {
            guard let store = (key as? NSString).map(String.init), let number = (value as? NSNumber)?.int64Value
            else { return nil }
            decoded[store] = number
        }
        storeTokens = decoded
        super.init()
    }

    /// Tokens are immutable: the copy is the token itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    /// Whether `object` is a token for the same transactions of the same stores.
    public override func isEqual(_ object: Any?) -> Bool {
        (object as? NSPersistentHistoryToken)?.storeTokens == storeTokens
    }

    /// A hash consistent with `isEqual(_:)`.
    public override var hash: Int { storeTokens.hashValue }

    /// The store identifiers and transaction numbers.
    public override var description: String {
        "<NSPersistentHistoryToken: \(storeTokens.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" })>"
    }
}
