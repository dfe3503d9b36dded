/// A number read from any of Swift's and Foundation's numeric types, `Bool` included.
///
/// Predicates compare numbers by value whatever their type (`Int16(5) == 5.0`),
/// as `NSNumber` does; integers stay exact, everything else is a `Double`.
enum NumericValue {
    case integer(Int)
    case double(Double)

    init?(_ value: Any) {
        let type = type(of: value)
        if type == Int.self, let v = value as? Int { self = .integer(v); return }
        if type == Double.self, let v = value as? Double { self = .double(v); return }
        if type == Bool.self, let v = value as? Bool { self = .integer(v ? 1 : 0); return }
        if type == String.self || type == Date.self { return nil }
        // Check the class before casting: `as? NSNumber` would box a Swift Int into a new NSNumber.
        if type is AnyObject.Type {
            guard type is NSNumber.Type, let number = value as? NSNumber else { return nil }
            self.init(number)
            return
        }
        switch value {
        case let v as Int: self = .integer(v)
        case let v as Double: self = .double(v)
        case let v as Bool: self = .integer(v ? 1 : 0)
        case let v as Int64: self = .integer(Int(v))
        case let v as Int32: self = .integer(Int(v))
        case let v as Int16: self = .integer(Int(v))
        case let v as Int8: self = .integer(Int(v))
        case let v as UInt: self = v <= UInt(Int.max) ? .integer(Int(v)) : .double(Double(v))
        case let v as UInt64: self = v <= UInt64(Int.max) ? .integer(Int(v)) : .double(Double(v))
        case let v as UInt32: self = .integer(Int(v))
        case let v as UInt16: self = .integer(Int(v))
        case let v as UInt8: self = .integer(Int(v))
        case let v as Float: self = .double(Double(v))
        case let v as CGFloat: self = .double(Double(v))
        case let v as Decimal: self = .double(NSDecimalNumber(decimal: v).doubleValue)
        default: return nil
        }
    }

    private init(_ number: NSNumber) {
        if let decimal = number as? NSDecimalNumber {
            self = .double(decimal.doubleValue)
            return
        }
        let double = number.doubleValue
        if double.rounded() == double, abs(double) < 9.2e18 {
            self = .integer(number.intValue)
        } else {
            self = .double(double)
        }
    }

    var double: Double {
        switch self {
        case .integer(let i): Double(i)
        case .double(let d): d
        }
    }

    /// The value as an `Int` when it is integral and fits.
    var integer: Int? {
        switch self {
        case .integer(let i): return i
        case .double(let d): return d.rounded() == d && abs(d) < 9.2e18 ? Int(d) : nil
        }
    }

    /// The value as Swift would box it: `Int` or `Double`.
    var boxed: Any {
        switch self {
        case .integer(let i): i
        case .double(let d): d
        }
    }

    static func compare(_ a: NumericValue, _ b: NumericValue) -> ComparisonResult {
        if case .integer(let x) = a, case .integer(let y) = b {
            return x < y ? .orderedAscending : x > y ? .orderedDescending : .orderedSame
        }
        let x = a.double, y = b.double
        return x < y ? .orderedAscending : x > y ? .orderedDescending : .orderedSame
    }
}
