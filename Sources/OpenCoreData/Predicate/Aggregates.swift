/// Statistics over collections, shared by `@sum`/`@avg`/`@min`/`@max` and the
/// `sum:`, `average:`, `median:`, `mode:`, `stddev:`, `min:`, `max:` functions.
///
/// NULLs are skipped. Sums of integers stay integers while they fit.
enum Aggregates {
    static func numbers(_ values: [Any], _ function: String) throws(PredicateEvaluationError) -> [NumericValue] {
        var numbers: [NumericValue] = []
        numbers.reserveCapacity(values.count)
        for value in values {
            guard let value = Values.normalized(value) else { continue }
            guard let number = NumericValue(value) else {
                throw PredicateEvaluationError("\(function) needs numbers, found \(type(of: value)) \"\(value)\"")
            }
            numbers.append(number)
        }
        return numbers
    }

    static func sum(_ values: [Any]) throws(PredicateEvaluationError) -> Any {
        var integer = 0, double = 0.0, isInteger = true
        for number in try numbers(values, "sum") {
            if isInteger, case .integer(let i) = number {
                let (result, overflow) = integer.addingReportingOverflow(i)
                if !overflow { integer = result; continue }
            }
            if isInteger { double = Double(integer); isInteger = false }
            double += number.double
        }
        return isInteger ? integer : double
    }

    static func average(_ values: [Any]) throws(PredicateEvaluationError) -> Any? {
        let numbers = try numbers(values, "average")
        guard !numbers.isEmpty else { return nil }
        return numbers.reduce(0.0) { $0 + $1.double } / Double(numbers.count)
    }

    static func median(_ values: [Any]) throws(PredicateEvaluationError) -> Any? {
        let sorted = try numbers(values, "median").map(\.double).sorted()
        guard !sorted.isEmpty else { return nil }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The most frequent values (Apple's `mode:` returns an array: there may be ties).
    static func mode(_ values: [Any]) throws(PredicateEvaluationError) -> Any {
        let numbers = try numbers(values, "mode")
        var counts: [Double: Int] = [:]
        for n in numbers { counts[n.double, default: 0] += 1 }
        let top = counts.values.max() ?? 0
        var seen = Set<Double>()
        return numbers.filter { counts[$0.double] == top && seen.insert($0.double).inserted }.map(\.boxed)
    }

    /// Population standard deviation, as Apple's `stddev:`.
    static func standardDeviation(_ values: [Any]) throws(PredicateEvaluationError) -> Any? {
        let numbers = try numbers(values, "stddev").map(\.double)
        guard !numbers.isEmpty else { return nil }
        let mean = numbers.reduce(0, +) / Double(numbers.count)
        let variance = numbers.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(numbers.count)
        return variance.squareRoot()
    }

    /// The smallest or largest value; numbers, strings and dates (not mixed).
    static func extreme(_ values: [Any], wantsMaximum: Bool) throws(PredicateEvaluationError) -> Any? {
        var best: Any?
        for value in values {
            guard let value = Values.normalized(value) else { continue }
            guard let current = best else { best = value; continue }
            guard let order = ValueComparison.order(value, current) else {
                throw PredicateEvaluationError("\(wantsMaximum ? "max" : "min") cannot compare \(type(of: value)) with \(type(of: current))")
            }
            if order == (wantsMaximum ? .orderedDescending : .orderedAscending) { best = value }
        }
        return best
    }

    /// The values without duplicates (by predicate equality), first occurrence kept.
    ///
    /// Cost: linear with hashing; values that are not hashable are compared
    /// with each other, quadratically.
    static func distinct(_ values: [Any]) -> [Any] {
        var result: [Any] = []
        var seen = Set<AnyHashable>()
        var unhashable: [Any] = []
        for value in values {
            if let key = hashKey(value) {
                if seen.insert(key).inserted { result.append(value) }
            } else if !unhashable.contains(where: { ValueComparison.equal($0, value) }) {
                unhashable.append(value)
                result.append(value)
            }
        }
        return result
    }

    /// A key that is equal for values predicates consider equal: numbers of every
    /// type (and Bool) by their Double value, strings and dates as themselves.
    static func hashKey(_ value: Any) -> AnyHashable? {
        guard let value = Values.normalized(value) else { return AnyHashable(NullKey.null) }
        if let number = NumericValue(value) { return AnyHashable(number.double) }
        if let string = Values.string(value) { return AnyHashable(string) }
        if let date = Values.date(value) { return AnyHashable(date) }
        return value as? AnyHashable
    }

    /// The key of nil and NSNull. Not NSNull itself: swift-corelibs-foundation's
    /// NSNull is one object whose `hash` differs from call to call, so a set of
    /// keys holding it found "duplicate elements" and stopped the program
    /// (`distinct({a, 1, b, 1, c})` with a, b, c nil; found by FuzzPredicateParser).
    private enum NullKey: Hashable { case null }
}
