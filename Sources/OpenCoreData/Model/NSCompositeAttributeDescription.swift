/// An attribute made of named elements, each itself an attribute (iOS 17 /
/// macOS 14). In memory its value is a dictionary keyed by element name.
open class NSCompositeAttributeDescription: NSAttributeDescription, @unchecked Sendable {
    /// The elements: attribute descriptions, possibly composite themselves.
    public var elements: [NSAttributeDescription] = [] { willSet { ensureEditable("elements of \(name)") } }

    /// The name of the model-level composite type Xcode defines the elements
    /// under (`<composite name="…">`); kept so that a model file writes back as read.
    public var compositeTypeName: String? { willSet { ensureEditable("composite type of \(name)") } }

    /// An unnamed composite attribute without elements; its `attributeType` is `.compositeAttributeType`.
    public required init() {
        super.init()
        attributeType = .compositeAttributeType
    }

    /// An unfrozen copy, elements copied too.
    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = super.copy(with: zone) as! NSCompositeAttributeDescription
        copy.elements = elements.map { $0.copy() as! NSAttributeDescription }
        copy.compositeTypeName = compositeTypeName
        return copy
    }

    /// Whether `object` is an equal attribute with the same composite type name and equal elements in
    /// the same order.
    open override func isEqual(_ object: Any?) -> Bool {
        guard super.isEqual(object), let other = object as? NSCompositeAttributeDescription else { return false }
        return compositeTypeName == other.compositeTypeName && elements.count == other.elements.count
            && zip(elements, other.elements).allSatisfy { $0.isEqual($1) }
    }
}
