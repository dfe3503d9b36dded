/// An attribute whose value Core Data computes at save from an expression
/// such as `chapters.@count` or `now()` (NSDerivedAttributeDescription.h).
///
/// The model layer keeps the expression as text; the predicate layer parses it.
open class NSDerivedAttributeDescription: NSAttributeDescription, @unchecked Sendable {
    /// The derivation expression in NSExpression format syntax.
    public var derivationExpressionFormat: String? {
        willSet { ensureEditable("derivationExpression of \(name)") }
    }

    public override var isDerived: Bool { true }

    public required init() { super.init() }

    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = super.copy(with: zone) as! NSDerivedAttributeDescription
        copy.derivationExpressionFormat = derivationExpressionFormat
        return copy
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard super.isEqual(object), let other = object as? NSDerivedAttributeDescription else { return false }
        return derivationExpressionFormat == other.derivationExpressionFormat
    }
}
