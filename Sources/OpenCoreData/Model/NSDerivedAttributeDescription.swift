/// An attribute whose value Core Data computes at save from an expression
/// such as `chapters.@count` or `now()` (NSDerivedAttributeDescription.h).
///
/// The model layer keeps the expression as text; the predicate layer parses it.
open class NSDerivedAttributeDescription: NSAttributeDescription, @unchecked Sendable {
    /// The derivation expression in NSExpression format syntax.
    public var derivationExpressionFormat: String? {
        willSet { ensureEditable("derivationExpression of \(name)") }
    }

    /// Always true: the value is computed, never set by the application.
    public override var isDerived: Bool { true }

    /// An unnamed derived attribute without an expression.
    public required init() { super.init() }

    /// An unfrozen copy, expression included.
    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = super.copy(with: zone) as! NSDerivedAttributeDescription
        copy.derivationExpressionFormat = derivationExpressionFormat
        return copy
    }

    /// Whether `object` is an equal attribute with the same derivation expression text.
    open override func isEqual(_ object: Any?) -> Bool {
        guard super.isEqual(object), let other = object as? NSDerivedAttributeDescription else { return false }
        return derivationExpressionFormat == other.derivationExpressionFormat
    }
}
