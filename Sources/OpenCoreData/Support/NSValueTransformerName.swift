/// The name a ``ValueTransformer`` is registered under, as in Apple's
/// Foundation (NSValueTransformer.h). A transformable attribute's
/// `valueTransformerName` is such a name.
public struct NSValueTransformerName: RawRepresentable, Hashable, Sendable {
    /// The name as registered.
    public let rawValue: String

    /// The name `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The name `rawValue` (Apple's unlabelled form).
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Core Data's default for transformable attributes: a keyed archive, any NSCoding class.
    public static let keyedUnarchiveFromDataTransformerName = NSValueTransformerName("NSKeyedUnarchiveFromData")

    /// A keyed archive decoded with secure coding (``NSSecureUnarchiveFromDataTransformer``).
    public static let secureUnarchiveFromDataTransformerName = NSValueTransformerName("NSSecureUnarchiveFromData")
}
