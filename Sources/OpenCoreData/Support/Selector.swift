/// The name of an Objective-C method, as Apple's `Selector` spells it.
///
/// Linux has no Objective-C runtime and Foundation there declares no
/// `Selector`. Core Data APIs take selectors by name (sort descriptors'
/// `caseInsensitiveCompare:`, predicate `FUNCTION(…, 'selector', …)`), so this
/// small value type keeps code written for Apple compiling: both
/// `Selector("compare:")` and a string literal work. It holds only the name;
/// what a name means is decided by the API that receives it.
public struct Selector: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The selector's name, colons included (`"localizedCompare:"`).
    public let name: String

    /// Creates a selector from its name, as `NSSelectorFromString` does.
    public init(_ name: String) { self.name = name }

    /// Creates a selector from a string literal.
    public init(stringLiteral value: String) { self.name = value }

    /// The selector's name.
    public var description: String { name }
}

/// The name of `selector`, as Foundation's `NSStringFromSelector`.
public func NSStringFromSelector(_ selector: Selector) -> String { selector.name }

/// A selector with the given name, as Foundation's `NSSelectorFromString`.
public func NSSelectorFromString(_ name: String) -> Selector { Selector(name) }
