/// An object that answers `FUNCTION(object, 'selector', arguments…)` itself.
///
/// Linux has no Objective-C runtime to send a selector named in an
/// expression, so a class whose instances are handed to expressions as
/// variables (the migration manager as `$manager`, say) lists the selectors
/// it answers. Tried before the functions registered with
/// ``NSExpression/registerFunction(_:_:)``.
protocol ExpressionFunctionReceiver: AnyObject {
    /// The result of `selector` with `arguments`, or `.notHandled` when this
    /// object does not answer `selector`.
    func value(ofFunction selector: String, arguments: [Any?]) throws -> ExpressionFunctionResult
}

/// What an ``ExpressionFunctionReceiver`` gives back for a selector.
enum ExpressionFunctionResult {
    case value(Any?)
    case notHandled
}
