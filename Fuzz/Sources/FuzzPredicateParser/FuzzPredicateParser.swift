import OpenCoreData
import FuzzSupport

// (c) Predicate format strings: the input, as UTF-8, is parsed as a predicate
// and as an expression with fixed arguments. Whatever parses must print to a
// string that parses back to an equal predicate (or expression), and must
// evaluate or throw through the throwing API.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPredicateParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let format = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let predicate = try? NSPredicate.parse(format, arguments: FuzzArguments.values) {
        let printed = predicate.predicateFormat
        let reparsed: NSPredicate
        do {
            reparsed = try NSPredicate.parse(printed)
        } catch {
            fatalError("\(format.debugDescription) printed as \(printed.debugDescription), "
                       + "which does not parse: \(error)")
        }
        guard reparsed == predicate else {
            fatalError("\(format.debugDescription) printed as \(printed.debugDescription), "
                       + "which parses to another predicate")
        }
        _ = try? predicate.evaluateThrowing(with: FuzzArguments.object, substitutionVariables: FuzzArguments.variables)
    }
    if let expression = try? NSExpression.parse(format, arguments: FuzzArguments.values) {
        let printed = expression.description
        guard let reparsed = try? NSExpression.parse(printed) else {
            fatalError("expression \(format.debugDescription) printed as \(printed.debugDescription), "
                       + "which does not parse")
        }
        guard reparsed == expression else {
            fatalError("expression \(format.debugDescription) printed as \(printed.debugDescription), "
                       + "which parses to another expression")
        }
    }
    return 0
}

/// The target's entry point as SwiftPM links it (see ``runLibFuzzer``).
@_cdecl("FuzzPredicateParser_main")
public func fuzzPredicateParserMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzPredicateParser)
}
