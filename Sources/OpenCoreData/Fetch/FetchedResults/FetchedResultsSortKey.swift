import Foundation

/// A sort key of a fetched object, classified once when the object is
/// placed: the binary searches that place objects compare keys about
/// log n times per change, and comparing two `Any` values through
/// `NSSortDescriptor` casts each of them again (~2,500 instructions a
/// comparison, most of a change event).
///
/// The kinds are those `compare:` tells apart, in the order it tries them
/// (`ValueComparison.order`): numbers, strings, dates. Anything else is
/// compared through the descriptor, as before.
enum FetchedResultsSortKey {
    /// nil or `NSNull`: before every value.
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

    /// How `a` and `b` are ordered by `compare:` in ascending order, as
    /// `NSSortDescriptor` orders their values; nil when one is `.other` or
    /// their kinds differ (the descriptor then decides, or reports the
    /// values it cannot compare).
    static func ascendingOrder(_ a: FetchedResultsSortKey, _ b: FetchedResultsSortKey) -> ComparisonResult? {
        switch (a, b) {
        case (.none, .none): .orderedSame
        case (.none, _): .orderedAscending
        case (_, .none): .orderedDescending
        case (.number(let x), .number(let y)): NumericValue.compare(x, y)
        case (.text(let x), .text(let y)): ValueComparison.compareStrings(x, y)
        case (.date(let x), .date(let y)): x.compare(y)
        default: nil
        }
    }
}
