import Foundation

/// A value as `compare:` tells values apart: a number, a string, a date,
/// nil (or `NSNull`), or anything else, tried in that order.
///
/// Classifying costs the runtime's casts once (~300 to 1,000 instructions);
/// comparing two classified values costs a switch. Predicates classify
/// both sides of each comparison (``ValueComparison/order(_:_:options:)``);
/// a fetched-results controller classifies an object's sort keys once when
/// it places the object, and its binary searches compare them many times
/// (through `NSSortDescriptor`, ~2,500 instructions a comparison).
enum ComparableValue {
    /// nil or `NSNull`.
    case none
    case number(NumericValue)
    case text(String)
    case date(Date)
    /// A value of another kind.
    case other

    init(_ value: Any?) {
        guard let value = Values.normalized(value) else { self = .none; return }
        if let number = NumericValue(value) {
            self = .number(number)
        } else if let text = Values.string(value) {
            self = .text(text)
        } else if let date = Values.date(value) {
            self = .date(date)
        } else {
            self = .other
        }
    }

    /// How `compare:` orders `a` and `b` (strings folded as `options` ask);
    /// nil when their kinds differ, or either is nil or of another kind.
    static func order(_ a: ComparableValue, _ b: ComparableValue,
                      options: ValueComparison.Options = []) -> ComparisonResult? {
        switch (a, b) {
        case (.number(let x), .number(let y)): NumericValue.compare(x, y)
        case (.text(let x), .text(let y)) where options.isEmpty: ValueComparison.compareStrings(x, y)
        case (.text(let x), .text(let y)):
            ValueComparison.compareStrings(ValueComparison.fold(x, options), ValueComparison.fold(y, options))
        case (.date(let x), .date(let y)): x.compare(y)
        default: nil
        }
    }

    /// How an ascending `NSSortDescriptor` ordering by `compare:` places `a`
    /// and `b`: nil before every value, then as ``order(_:_:options:)``; nil
    /// when that has no answer (the descriptor then decides, or reports the
    /// values it cannot compare).
    static func sortOrder(_ a: ComparableValue, _ b: ComparableValue) -> ComparisonResult? {
        switch (a, b) {
        case (.none, .none): .orderedSame
        case (.none, _): .orderedAscending
        case (_, .none): .orderedDescending
        default: order(a, b)
        }
    }
}
