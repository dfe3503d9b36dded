/// `FUNCTION(receiver, 'selector', arguments…)` on Linux, where no Objective-C
/// runtime can send an arbitrary selector.
///
/// Resolution order: a receiver that answers the selector itself
/// (``ExpressionFunctionReceiver``), functions registered with ``NSExpression/registerFunction(_:_:)``,
/// then a few NSString/NSNumber methods, then — for a selector without
/// arguments — the receiver's key of that name (KeyValueCoding, dictionaries).
/// Anything else fails with an error naming the selector.
enum CustomFunctions {
    typealias Body = @Sendable (Any?, [Any?]) throws -> Any?

    private static let lock = NSLock()
    nonisolated(unsafe) private static var registered: [String: Body] = [:]

    static func register(_ selector: String, _ body: @escaping Body) {
        lock.lock()
        defer { lock.unlock() }
        registered[selector] = body
    }

    /// Whether a function was registered under `selector`.
    static func isRegistered(_ selector: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return registered[selector] != nil
    }

    static func call(_ selector: String, receiver: Any?, arguments: [Any?]) throws(PredicateEvaluationError) -> Any? {
        if let target = receiver as? ExpressionFunctionReceiver {
            do {
                if case .value(let result) = try target.value(ofFunction: selector, arguments: arguments) {
                    return Values.normalized(result)
                }
            } catch let error as PredicateEvaluationError {
                throw error
            } catch {
                throw PredicateEvaluationError("FUNCTION \(selector) failed: \(error)", underlying: error)
            }
        }
        lock.lock()
        let body = registered[selector]
        lock.unlock()
        if let body {
            do {
                return Values.normalized(try body(receiver, arguments))
            } catch let error as PredicateEvaluationError {
                throw error
            } catch {
                throw PredicateEvaluationError("FUNCTION \(selector) failed: \(error)")
            }
        }
        guard let receiver else { return nil }
        if let string = Values.string(receiver), let result = stringMethod(selector, string, arguments) { return result }
        if let number = NumericValue(receiver), let result = numberMethod(selector, number) { return result }
        if !selector.contains(":"), !(Values.string(receiver) != nil || NumericValue(receiver) != nil) {
            return try KeyPathValue.value(of: receiver, key: selector)
        }
        throw PredicateEvaluationError("FUNCTION selector \(selector) is not supported for \(type(of: receiver)) on Linux; register it with NSExpression.registerFunction")
    }

    private static func stringMethod(_ selector: String, _ s: String, _ arguments: [Any?]) -> Any? {
        let argument = arguments.first.flatMap { $0 }.flatMap(Values.string)
        switch selector {
        case "uppercaseString": return s.uppercased()
        case "lowercaseString": return s.lowercased()
        case "capitalizedString": return s.capitalized
        case "length": return s.utf16.count
        case "description", "self": return s
        case "intValue", "integerValue", "longLongValue": return Int(s.trimmingCharacters(in: .whitespaces)) ?? 0
        case "doubleValue", "floatValue": return Double(s.trimmingCharacters(in: .whitespaces)) ?? 0
        case "stringByAppendingString:": return argument.map { s + $0 }
        case "hasPrefix:": return argument.map { s.hasPrefix($0) }
        case "hasSuffix:": return argument.map { s.hasSuffix($0) }
        case "substringToIndex:", "substringFromIndex:":
            // NSString indexes count UTF-16 units; an index past the end raises there, gives nil here.
            guard let index = arguments.first.flatMap({ $0 }).flatMap(NumericValue.init)?.integer,
                  index >= 0, index <= s.utf16.count else { return nil }
            let cut = String.Index(utf16Offset: index, in: s)
            return selector == "substringToIndex:" ? String(s[..<cut]) : String(s[cut...])
        default: return nil
        }
    }

    private static func numberMethod(_ selector: String, _ n: NumericValue) -> Any? {
        switch selector {
        case "stringValue", "description": return "\(n.boxed)"
        case "intValue", "integerValue", "longLongValue":
            return n.integer ?? NumericValue.double(n.double.rounded(.towardZero)).integer ?? n.double
        case "doubleValue", "floatValue": return n.double
        case "boolValue": return n.double != 0
        case "self": return n.boxed
        default: return nil
        }
    }
}

extension NSExpression {
    /// Makes `FUNCTION(receiver, 'selector', …)` evaluate `body(receiver, arguments)`.
    ///
    /// Linux has no Objective-C runtime to send the selector; register the
    /// selectors your predicates use once, at startup. Thread-safe.
    public static func registerFunction(_ selector: String, _ body: @escaping @Sendable (Any?, [Any?]) throws -> Any?) {
        CustomFunctions.register(selector, body)
    }
}
