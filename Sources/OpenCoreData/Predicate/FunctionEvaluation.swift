/// Evaluating built-in function expressions on already-evaluated arguments.
enum FunctionEvaluation {
    typealias Failure = PredicateEvaluationError

    static func call(_ name: String, _ arguments: [Any?]) throws(Failure) -> Any? {
        func number(_ i: Int) throws(Failure) -> NumericValue {
            guard let value = arguments[i], let number = NumericValue(value) else {
                throw Failure("\(name) needs a number as argument \(i + 1), found \(Values.typeName(arguments[i]))")
            }
            return number
        }
        func integer(_ i: Int) throws(Failure) -> Int {
            guard let integer = try number(i).integer else { throw Failure("\(name) needs an integer as argument \(i + 1)") }
            return integer
        }
        func string(_ i: Int) throws(Failure) -> String? {
            guard let value = arguments[i] else { return nil }
            guard let string = Values.string(value) else { throw Failure("\(name) needs a string, found \(type(of: value))") }
            return string
        }
        func collection(_ i: Int) throws(Failure) -> [Any] {
            guard let value = arguments[i] else { return [] }
            guard let elements = Collections.elements(of: value) else { throw Failure("\(name) needs a collection, found \(type(of: value))") }
            return elements
        }
        func math(_ f: (Double) -> Double) throws(Failure) -> Any { f(try number(0).double) }

        switch name {
        case "sum:": return try Aggregates.sum(try collection(0))
        case "count:": return try collection(0).count
        case "min:": return try Aggregates.extreme(try collection(0), wantsMaximum: false)
        case "max:": return try Aggregates.extreme(try collection(0), wantsMaximum: true)
        case "average:": return try Aggregates.average(try collection(0))
        case "median:": return try Aggregates.median(try collection(0))
        case "mode:": return try Aggregates.mode(try collection(0))
        case "stddev:": return try Aggregates.standardDeviation(try collection(0))
        case "distinct:": return Aggregates.distinct(try collection(0))
        case "add:to:", "from:subtract:", "multiply:by:":
            let a = try number(0), b = try number(1)
            if case .integer(let x) = a, case .integer(let y) = b {
                let (result, overflow) = switch name {
                case "add:to:": x.addingReportingOverflow(y)
                case "from:subtract:": x.subtractingReportingOverflow(y)
                default: x.multipliedReportingOverflow(by: y)
                }
                if !overflow { return result }
            }
            switch name {
            case "add:to:": return a.double + b.double
            case "from:subtract:": return a.double - b.double
            default: return a.double * b.double
            }
        case "divide:by:": return try number(0).double / number(1).double
        case "modulus:by:":
            let a = try number(0), b = try number(1)
            if case .integer(let x) = a, case .integer(let y) = b {
                guard y != 0 else { throw Failure("modulus:by: by zero") }
                return x.remainderReportingOverflow(dividingBy: y).partialValue
            }
            return fmod(a.double, b.double)
        case "raise:toPower:": return pow(try number(0).double, try number(1).double)
        case "sqrt:": return try math { $0.squareRoot() }
        case "log:": return try math(log10)
        case "ln:": return try math(log)
        case "exp:": return try math(exp)
        case "floor:", "ceiling:", "trunc:", "abs:":
            let n = try number(0)
            if case .integer(let i) = n { return name == "abs:" ? (i == .min ? Double(i).magnitude : abs(i)) : i }
            let d = n.double
            switch name {
            case "floor:": return d.rounded(.down)
            case "ceiling:": return d.rounded(.up)
            case "trunc:": return d.rounded(.towardZero)
            default: return d.magnitude
            }
        case "uppercase:": return try string(0)?.uppercased()
        case "lowercase:": return try string(0)?.lowercased()
        // Derived attributes' search form (WWDC 2019 "Making Apps with Core
        // Data"): lowercased, without diacritics.
        case "canonical:": return try string(0)?.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
        case "length:": return try string(0)?.utf16.count
        case "noindex:": return arguments[0]
        case "now": return Date()
        case "random": return Double.random(in: 0..<1)
        case "random:":
            let bound = try integer(0)
            guard bound > 0 else { throw Failure("random: needs a positive bound") }
            return Int.random(in: 0..<bound)
        case "bitwiseAnd:with:": return try integer(0) & integer(1)
        case "bitwiseOr:with:": return try integer(0) | integer(1)
        case "bitwiseXor:with:": return try integer(0) ^ integer(1)
        case "leftshift:by:": return try integer(0) << integer(1)
        case "rightshift:by:": return try integer(0) >> integer(1)
        case "onesComplement:": return try ~integer(0)
        case "castObject:toType:": return try cast(arguments[0], to: try string(1) ?? "")
        default:
            throw Failure("Unsupported function \(name)")
        }
    }

    /// `CAST(value, 'NSDate' | 'NSNumber' | 'NSString')`. Dates are seconds since
    /// 2001-01-01 (reference date), as Core Data stores them.
    static func cast(_ value: Any?, to type: String) throws(Failure) -> Any? {
        guard let value else { return nil }
        switch type {
        case "NSDate", "Date":
            if let date = Values.date(value) { return date }
            if let number = NumericValue(value) { return Date(timeIntervalSinceReferenceDate: number.double) }
            if let string = Values.string(value), let seconds = Double(string) { return Date(timeIntervalSinceReferenceDate: seconds) }
        case "NSNumber", "NSDecimalNumber":
            if let number = NumericValue(value) { return number.boxed }
            if let date = Values.date(value) { return date.timeIntervalSinceReferenceDate }
            if let string = Values.string(value) {
                let trimmed = string.trimmingCharacters(in: .whitespaces)
                return Int(trimmed) ?? Double(trimmed) ?? 0
            }
        case "NSString", "String":
            if let string = Values.string(value) { return string }
            if let number = NumericValue(value) { return "\(number.boxed)" }
            if let date = Values.date(value) { return "\(date)" }
            return String(describing: value)
        default:
            throw Failure("CAST to \(type) is not supported; use NSDate, NSNumber or NSString")
        }
        throw Failure("Cannot CAST \(Swift.type(of: value)) to \(type)")
    }

    /// `collection[index]`, `collection[FIRST]`, `[LAST]`, `[SIZE]`, `dictionary[key]`.
    static func index(_ collection: Any?, _ index: NSExpression, _ indexValue: () throws(Failure) -> Any?) throws(Failure) -> Any? {
        guard let collection else { return nil }
        if case .symbol(let symbol) = index.kind {
            guard let elements = Collections.elements(of: collection) ?? Collections.dictionaryValues(of: collection) else {
                throw Failure("[\(symbol.rawValue)] needs a collection, found \(type(of: collection))")
            }
            switch symbol {
            case .first: return elements.first
            case .last: return elements.last
            default: return elements.count
            }
        }
        let key = try indexValue()
        if let dictionary = collection as? [String: Any], let key = key.flatMap(Values.string) { return dictionary[key] }
        if let dictionary = collection as? NSDictionary, let key = key as? AnyHashable { return dictionary[key] }
        guard let elements = Collections.elements(of: collection) else {
            throw Failure("Subscript needs an array or a dictionary, found \(type(of: collection))")
        }
        guard let key, let position = NumericValue(key)?.integer else { throw Failure("Array index must be an integer") }
        guard elements.indices.contains(position) else {
            throw Failure("Index \(position) beyond bounds [0 .. \(elements.count - 1)]")
        }
        return elements[position]
    }
}
