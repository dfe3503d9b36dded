// The Swift attribute type API of iOS 15 / macOS 12, beside `attributeType` (which Apple has deprecated
// for Swift). Both name the same stored value.

extension NSAttributeDescription {
    /// The type of an attribute's value (Apple's `NSAttributeDescription.AttributeType`, a struct
    /// with a static member per type), wrapping the `NSAttributeType` it stands for.
    public struct AttributeType: RawRepresentable, Hashable, Sendable {
        /// The `NSAttributeType` this type stands for.
        public let rawValue: NSAttributeType

        /// The type that stands for `rawValue`.
        public init(rawValue: NSAttributeType) { self.rawValue = rawValue }

        /// The type that stands for `type`.
        public init(_ type: NSAttributeType) { self.rawValue = type }

        /// No type: legal only for transient attributes.
        public static let undefined = AttributeType(.undefinedAttributeType)
        /// A 16-bit signed integer.
        public static let integer16 = AttributeType(.integer16AttributeType)
        /// A 32-bit signed integer.
        public static let integer32 = AttributeType(.integer32AttributeType)
        /// A 64-bit signed integer.
        public static let integer64 = AttributeType(.integer64AttributeType)
        /// A decimal number (`NSDecimalNumber`).
        public static let decimal = AttributeType(.decimalAttributeType)
        /// A double-precision floating-point number.
        public static let double = AttributeType(.doubleAttributeType)
        /// A single-precision floating-point number.
        public static let float = AttributeType(.floatAttributeType)
        /// A string.
        public static let string = AttributeType(.stringAttributeType)
        /// A Boolean value.
        public static let boolean = AttributeType(.booleanAttributeType)
        /// A date.
        public static let date = AttributeType(.dateAttributeType)
        /// Binary data.
        public static let binaryData = AttributeType(.binaryDataAttributeType)
        /// A UUID.
        public static let uuid = AttributeType(.UUIDAttributeType)
        /// A URL.
        public static let uri = AttributeType(.URIAttributeType)
        /// A value stored through a value transformer.
        public static let transformable = AttributeType(.transformableAttributeType)
        /// A managed object ID (expression results and dictionary fetches).
        public static let objectID = AttributeType(.objectIDAttributeType)
        /// A composite of other attributes.
        public static let composite = AttributeType(.compositeAttributeType)
    }

    /// The attribute's type as the Swift API names it; reads and sets `attributeType`.
    public var type: AttributeType {
        get { AttributeType(attributeType) }
        set { attributeType = newValue.rawValue }
    }
}

extension NSAttributeType {
    /// The `NSAttributeType` that `type` stands for.
    public init(_ type: NSAttributeDescription.AttributeType) { self = type.rawValue }
}
