/// A format string that could not be parsed, with the place where parsing stopped.
///
/// Thrown by ``NSPredicate/parse(_:arguments:)`` and ``NSExpression/parse(_:arguments:)``;
/// the Apple-compatible initialisers (`NSPredicate(format:)`) stop the program
/// with the same ``message``, as Apple's raise `NSInvalidArgumentException`.
/// As an `NSError` it is `NSFormattingError` (2048) in `NSCocoaErrorDomain`.
public struct PredicateSyntaxError: Error, CustomNSError, CustomStringConvertible, Equatable, Sendable {
    /// The format string that failed to parse.
    public let format: String
    /// Where parsing stopped, in UTF-16 code units from the start (`NSString` offsets).
    public let utf16Offset: Int
    /// What the parser expected at ``utf16Offset`` ("an expression", "')'").
    public let expected: String
    /// What it found there ("end of input", "'=='").
    public let found: String

    /// Where parsing stopped, in characters (grapheme clusters) from the start.
    public var characterOffset: Int {
        String(decoding: Array(format.utf16.prefix(utf16Offset)), as: UTF16.self).count
    }

    /// Apple's message, followed by the position and what was expected.
    public var message: String {
        "Unable to parse the format string \"\(format)\" at offset \(utf16Offset): expected \(expected), found \(found)"
    }

    /// ``message``.
    public var description: String { message }

    /// `NSCocoaErrorDomain`, as Foundation reports format-string errors.
    public static var errorDomain: String { NSCocoaErrorDomain }
    /// `NSFormattingError` (2048).
    public var errorCode: Int { 2048 }
    /// The message under `NSLocalizedDescriptionKey`.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
}

/// A predicate or expression that cannot be evaluated against the given object.
///
/// Examples: an unsupported function, a variable without a value, comparing a
/// string with a date. Thrown by the throwing evaluation entry points
/// (``NSPredicate/evaluateThrowing(with:substitutionVariables:)``); the Apple-compatible
/// ones stop the program with ``message``, as Apple raises an exception.
public struct PredicateEvaluationError: Error, CustomNSError, CustomStringConvertible, Sendable {
    /// What went wrong, naming the expression or value involved.
    public let message: String

    /// The error a function receiver threw, when one did: what a caller of
    /// the evaluation (a migration, say) reports instead of this one.
    public let underlying: (any Error)?

    /// Creates an error with the given message.
    public init(_ message: String) {
        self.message = message
        self.underlying = nil
    }

    init(_ message: String, underlying: any Error) {
        self.message = message
        self.underlying = underlying
    }

    /// ``message``.
    public var description: String { message }
    /// `NSCocoaErrorDomain`.
    public static var errorDomain: String { NSCocoaErrorDomain }
    /// `NSFormattingError` (2048): the closest Cocoa code for a malformed predicate.
    public var errorCode: Int { 2048 }
    /// The message under `NSLocalizedDescriptionKey`.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
}
