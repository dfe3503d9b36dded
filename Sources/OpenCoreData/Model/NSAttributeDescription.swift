/// An attribute of an entity: a stored or transient value of one `NSAttributeType`.
///
/// Apple's NSAttributeDescription. Values are represented on Linux by Swift's
/// value types: `Int16`/`Int32`/`Int64`, `Decimal`, `Double`, `Float`, `Bool`,
/// `String`, `Date`, `Data`, `UUID`, `URL`.
open class NSAttributeDescription: NSPropertyDescription, @unchecked Sendable {
    /// The type of the attribute's values.
    public var attributeType: NSAttributeType {
        get { attributeTypeStorage }
        set {
            ensureEditable("attributeType of \(name)")
            attributeTypeStorage = newValue
        }
    }
    // Read by every value set through key-value coding; release builds skip
    // its exclusivity check (~76 instructions), debug builds keep it.
    #if DEBUG
    private var attributeTypeStorage: NSAttributeType = .undefinedAttributeType
    #else
    @exclusivity(unchecked) private var attributeTypeStorage: NSAttributeType = .undefinedAttributeType
    #endif

    /// The class name the model states, if any (`attributeValueClassName` defaults it).
    private(set) var explicitValueClassName: String?

    /// The name of the class of the attribute's values. Derived from the type,
    /// except for transformable attributes, whose class the model names
    /// (Xcode's "Custom Class").
    public var attributeValueClassName: String? {
        get { explicitValueClassName ?? attributeType.valueClassName }
        set { ensureEditable("attributeValueClassName of \(name)"); explicitValueClassName = newValue }
    }

    /// The value a new object starts with (retained, not copied, as in Core Data).
    public var defaultValue: Any? { willSet { ensureEditable("defaultValue of \(name)") } }

    /// Whether large binary values may live in files beside the store.
    public var allowsExternalBinaryDataStorage: Bool = false {
        willSet { ensureEditable("allowsExternalBinaryDataStorage of \(name)") }
    }

    /// The value transformer of a transformable attribute; nil means the
    /// default keyed-archiving transformer.
    public var valueTransformerName: String? { willSet { ensureEditable("valueTransformerName of \(name)") } }

    /// Whether the value is kept in persistent history after the object is deleted.
    public var preservesValueInHistoryOnDeletion: Bool = false {
        willSet { ensureEditable("preservesValueInHistoryOnDeletion of \(name)") }
    }

    /// Whether values may be encrypted in CloudKit (kept for model-file fidelity).
    public var allowsCloudEncryption: Bool = false { willSet { ensureEditable("allowsCloudEncryption of \(name)") } }

    /// Xcode's "Use Scalar Type" code-generation setting; nil when the model file
    /// does not say (Xcode then decides by language).
    public var usesScalarValueType: Bool? { willSet { ensureEditable("usesScalarValueType of \(name)") } }

    /// The bounds and pattern of Xcode's validation settings, as the model file
    /// states them. The context checks values against them at save.
    // Read for every attribute of every saved object; written only while the model is edited.
    @exclusivity(unchecked) public var validationRules = AttributeValidationRules() {
        willSet { ensureEditable("validation rules of \(name)") }
    }

    /// Whether this attribute is derived from other values (NSDerivedAttributeDescription).
    public var isDerived: Bool { false }

    /// An unnamed, optional attribute of undefined type; set ``attributeType`` and a name before the
    /// model is used.
    public required init() { super.init() }

    /// An attribute named `name` of `type`.
    public convenience init(name: String, type: NSAttributeType, isOptional: Bool = true, defaultValue: Any? = nil) {
        self.init()
        self.name = name
        self.attributeType = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
    }

    /// An unfrozen copy with every setting and no entity, to add to another entity or model; costs one
    /// allocation per description.
    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = super.copy(with: zone) as! NSAttributeDescription
        copy.attributeType = attributeType
        copy.explicitValueClassName = explicitValueClassName
        copy.defaultValue = defaultValue
        copy.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        copy.valueTransformerName = valueTransformerName
        copy.preservesValueInHistoryOnDeletion = preservesValueInHistoryOnDeletion
        copy.allowsCloudEncryption = allowsCloudEncryption
        copy.usesScalarValueType = usesScalarValueType
        copy.validationRules = validationRules
        return copy
    }

    /// Whether `object` is an attribute with the same name, type, default value, storage and validation
    /// settings, compared property by property.
    open override func isEqual(_ object: Any?) -> Bool {
        guard super.isEqual(object), let other = object as? NSAttributeDescription else { return false }
        return attributeType == other.attributeType && attributeValueClassName == other.attributeValueClassName
            && ValueEquality.equal(defaultValue, other.defaultValue)
            && allowsExternalBinaryDataStorage == other.allowsExternalBinaryDataStorage
            && valueTransformerName == other.valueTransformerName
            && preservesValueInHistoryOnDeletion == other.preservesValueInHistoryOnDeletion
            && allowsCloudEncryption == other.allowsCloudEncryption
            && usesScalarValueType == other.usesScalarValueType
            && validationRules == other.validationRules
    }
}

/// Xcode's validation settings of an attribute, in the model file's own terms.
///
/// For numbers the bounds are values, for strings they are lengths, for dates
/// they are seconds since 2001-01-01 (old model files wrote dates as text such
/// as `12/4/2013`; such bounds are kept as text and not enforced).
public struct AttributeValidationRules: Equatable, Sendable {
    /// `minValueString` of the model file: lower bound of a number or string length.
    public var minValueString: String?
    /// `maxValueString` of the model file: upper bound of a number or string length.
    public var maxValueString: String?
    /// Earliest allowed date, in seconds since 2001-01-01.
    public var minDateTimeInterval: Double?
    /// Latest allowed date, in seconds since 2001-01-01.
    public var maxDateTimeInterval: Double?
    /// A regular expression a string value must match as a whole.
    public var regularExpressionString: String?

    /// Rules with the given bounds and pattern; nil leaves a rule out.
    public init(minValueString: String? = nil, maxValueString: String? = nil,
                minDateTimeInterval: Double? = nil, maxDateTimeInterval: Double? = nil,
                regularExpressionString: String? = nil) {
        self.minValueString = minValueString
        self.maxValueString = maxValueString
        self.minDateTimeInterval = minDateTimeInterval
        self.maxDateTimeInterval = maxDateTimeInterval
        self.regularExpressionString = regularExpressionString
    }

    /// Whether no rule is set.
    public var isEmpty: Bool { self == AttributeValidationRules() }
}
