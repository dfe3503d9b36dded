/// Equality, ordering and the comparison operators, with Apple's value semantics.
///
/// - NULL equals only NULL; any ordering comparison with NULL is false.
/// - Numbers of different types (and `Bool`) compare by value.
/// - Strings compare with the `[c]`, `[d]` options applied by Unicode folding.
/// - Dates compare by time.
enum ValueComparison {
    typealias Options = NSComparisonPredicate.Options

    /// `value` folded as `[c]` and `[d]` ask (`Straße` → `strasse` under `[c]`).
    static func fold(_ string: String, _ options: Options) -> String {
        guard options.contains(.caseInsensitive) || options.contains(.diacriticInsensitive) else { return string }
        // ASCII has no diacritics and folds case by lowercasing: skip Foundation's (slow) folding.
        if isASCII(string) { return options.contains(.caseInsensitive) ? string.lowercased() : string }
        var folding: String.CompareOptions = []
        if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        return folding.isEmpty ? string : string.folding(options: folding, locale: nil)
    }

    static func isASCII(_ string: String) -> Bool { string.utf8.allSatisfy { $0 < 0x80 } }

    /// `compare:` on strings: for ASCII it orders by code unit, as Swift's `<` does,
    /// so only other strings go through Foundation.
    static func compareStrings(_ x: String, _ y: String) -> ComparisonResult {
        if x == y { return .orderedSame }
        if isASCII(x) && isASCII(y) { return x < y ? .orderedAscending : .orderedDescending }
        return x.compare(y)
    }

    /// Whether two (normalised) values are equal as `==` in a predicate decides.
    static func equal(_ a: Any?, _ b: Any?, options: Options = []) -> Bool {
        let a = Values.normalized(a), b = Values.normalized(b)
        guard let a, let b else { return a == nil && b == nil }
        if let x = NumericValue(a), let y = NumericValue(b) { return NumericValue.compare(x, y) == .orderedSame }
        if let x = Values.string(a), let y = Values.string(b) { return fold(x, options) == fold(y, options) }
        if let x = Values.date(a), let y = Values.date(b) { return x == y }
        if let x = Collections.elements(of: a), let y = Collections.elements(of: b) {
            // Arrays are equal element-wise; sets regardless of order.
            guard x.count == y.count else { return false }
            if Collections.isOrdered(a) && Collections.isOrdered(b) {
                return zip(x, y).allSatisfy { equal($0, $1, options: options) }
            }
            return x.allSatisfy { e in y.contains { equal(e, $0, options: options) } }
        }
        // A managed object, its ID and a store's record of it are one record
        // to a fetch, as in Core Data's stores ("self == %@" with an object ID).
        if let x = a as? PredicateRecordIdentity, let y = b as? PredicateRecordIdentity {
            return x.predicateRecordIdentity == y.predicateRecordIdentity
        }
        if let x = a as? AnyHashable, let y = b as? AnyHashable, x == y { return true }
        if let x = a as? NSObject, let y = b as? NSObject { return x.isEqual(y) }
        if type(of: a) is AnyClass, type(of: b) is AnyClass { return (a as AnyObject) === (b as AnyObject) }
        return false
    }

    /// The order of two non-nil values, or nil when they cannot be ordered
    /// (a string and a date).
    static func order(_ a: Any, _ b: Any, options: Options = []) -> ComparisonResult? {
        ComparableValue.order(ComparableValue(a), ComparableValue(b), options: options)
    }

    /// Applies a comparison operator to one left value and the right value.
    static func evaluate(_ type: NSComparisonPredicate.Operator, _ left: Any?, _ right: Any?, options: Options,
                         customSelector: Selector?, predicate: NSPredicate) throws(PredicateEvaluationError) -> Bool {
        let left = Values.normalized(left), right = Values.normalized(right)
        func fail(_ problem: String) -> PredicateEvaluationError {
            PredicateEvaluationError("\(problem) (\(Values.typeName(left)) and \(Values.typeName(right))) in \(predicate.predicateFormat)")
        }
        switch type {
        case .equalTo: return equal(left, right, options: options)
        case .notEqualTo: return !equal(left, right, options: options)
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            guard let left, let right else { return false }
            guard let result = order(left, right, options: options) else { throw fail("Cannot compare these values") }
            switch type {
            case .lessThan: return result == .orderedAscending
            case .lessThanOrEqualTo: return result != .orderedDescending
            case .greaterThan: return result == .orderedDescending
            default: return result != .orderedAscending
            }
        case .between:
            guard let left, let right else { return false }
            guard let bounds = Collections.elements(of: right), bounds.count == 2 else {
                throw fail("BETWEEN needs a collection of two bounds on the right")
            }
            guard let low = Values.normalized(bounds[0]), let high = Values.normalized(bounds[1]) else { return false }
            guard let lower = order(left, low, options: options), let upper = order(left, high, options: options) else {
                throw fail("Cannot compare these values")
            }
            return lower != .orderedAscending && upper != .orderedDescending
        case .beginsWith, .endsWith, .like, .matches:
            guard let left, let right else { return false }
            guard let text = Values.string(left), let pattern = Values.string(right) else {
                throw fail("Can't do a substring operation with something that isn't a string")
            }
            return try StringMatching.match(type, text, pattern, options: options)
        case .contains:
            guard let left, let right else { return false }
            if let elements = Collections.elements(of: left) {
                return elements.contains { equal($0, right, options: options) }
            }
            if let text = Values.string(left), let part = Values.string(right) {
                return StringMatching.contains(text, part, options: options)
            }
            throw fail("Can't use CONTAINS with something that isn't a collection or a string")
        case .in:
            guard let left, let right else { return false }
            if let elements = Collections.elements(of: right) ?? Collections.dictionaryValues(of: right) {
                return elements.contains { equal(left, $0, options: options) }
            }
            if let container = Values.string(right), let part = Values.string(left) {
                return StringMatching.contains(container, part, options: options)
            }
            throw fail("Can't look for a value in something that isn't a collection")
        case .customSelector:
            guard let name = customSelector?.name, name.hasPrefix("UTI-") else {
                throw fail("Custom selector \(customSelector?.name ?? "nil") cannot be sent on Linux")
            }
            guard let left, let right else { return false }
            guard let a = Values.string(left), let b = Values.string(right) else { throw fail("UTI operators compare strings") }
            if a.caseInsensitiveCompare(b) == .orderedSame { return true }
            if name == "UTI-EQUALS" { return false }
            // Without Apple's UTType database only the universal supertypes are known.
            if ["public.item", "public.data", "public.content"].contains(b.lowercased()) { return true }
            throw fail("UTI-CONFORMS-TO knows no type hierarchy on Linux beyond equality")
        }
    }
}

/// A value that stands for a stored record (a managed object, an object ID,
/// a store's row): predicates compare such values by the record.
protocol PredicateRecordIdentity {
    /// The same for every value standing for the same record.
    var predicateRecordIdentity: AnyHashable { get }
}
