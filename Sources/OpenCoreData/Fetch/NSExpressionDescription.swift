/// A computed column of dictionary results (Apple's NSExpressionDescription):
/// a name, the expression computing it (a key path, or an aggregate function
/// such as `sum:` over a key path) and the type of the result.
///
///     let total = NSExpressionDescription()
///     total.name = "total"
///     total.expression = NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "price")])
///     total.expressionResultType = .doubleAttributeType
///     request.propertiesToFetch = [total]
open class NSExpressionDescription: NSPropertyDescription, @unchecked Sendable {
    /// What the column computes.
    public var expression: NSExpression?
    /// The attribute type of the computed value.
    public var expressionResultType: NSAttributeType = .undefinedAttributeType
}

extension NSExpressionDescription {
    /// The type of the computed value as the Swift API of iOS 15 names it; reads and sets
    /// `expressionResultType` (Apple's `resultType: NSAttributeDescription.AttributeType`).
    public var resultType: NSAttributeDescription.AttributeType {
        get { NSAttributeDescription.AttributeType(expressionResultType) }
        set { expressionResultType = newValue.rawValue }
    }
}
