/// How to order objects by the value of a key path: OpenCoreData's `NSSortDescriptor`.
///
/// Values are compared with `compare:` by default (numbers by value, strings,
/// dates; nil before everything), or with one of NSString's comparison methods
/// named by `selector`, or with a comparator closure. Immutable, so shareable
/// between threads.
public final class NSSortDescriptor: NSObject, NSCopying, @unchecked Sendable {
    /// The key path whose values are compared; nil compares the objects themselves.
    public let key: String?
    /// Whether smaller values come first.
    public let ascending: Bool
    /// The comparison method by Apple's name; nil when a comparator is used.
    public let selector: Selector?
    /// The closure comparing values, when the descriptor was made with one.
    public let comparator: Comparator?

    /// The comparison selectors that can be evaluated without an Objective-C runtime.
    public static let supportedSelectors: Set<String> = [
        "compare:", "caseInsensitiveCompare:", "localizedCompare:",
        "localizedCaseInsensitiveCompare:", "localizedStandardCompare:",
    ]

    /// Orders by `key` with `compare:`.
    public convenience init(key: String?, ascending: Bool) {
        self.init(key: key, ascending: ascending, selector: nil)
    }

    /// Orders by `key` with the comparison method `selector` (`caseInsensitiveCompare:`…).
    ///
    /// Stops the program for selectors outside ``supportedSelectors``: Linux
    /// cannot send arbitrary messages, and failing late, while sorting, would
    /// be harder to trace.
    public init(key: String?, ascending: Bool, selector: Selector?) {
        if let selector {
            precondition(NSSortDescriptor.supportedSelectors.contains(selector.name),
                         "NSSortDescriptor: selector \(selector.name) is not supported on Linux; use one of \(NSSortDescriptor.supportedSelectors.sorted()) or a comparator")
        }
        self.key = key
        self.ascending = ascending
        self.selector = selector ?? Selector("compare:")
        self.comparator = nil
        super.init()
    }

    /// Orders by `key` with a closure comparing the two values.
    public init(key: String?, ascending: Bool, comparator cmptr: @escaping Comparator) {
        self.key = key
        self.ascending = ascending
        self.selector = nil
        self.comparator = cmptr
        super.init()
    }

    /// A descriptor with the opposite order (typed `Any`, as Apple's).
    public var reversedSortDescriptor: Any {
        if let comparator { return NSSortDescriptor(key: key, ascending: !ascending, comparator: comparator) }
        return NSSortDescriptor(key: key, ascending: !ascending, selector: selector)
    }

    /// How `object1` and `object2` are ordered by this descriptor.
    ///
    /// Cost: two key-path reads and one comparison.
    public func compare(_ object1: Any, to object2: Any) -> ComparisonResult {
        compareValues(value(of: object1), value(of: object2))
    }

    /// Does nothing: kept for Apple's API (descriptors are never archived here).
    public func allowEvaluation() {}

    /// The value this descriptor compares for `object`; an unreadable key path is a programmer error.
    func value(of object: Any) -> Any? {
        guard let key else { return Values.normalized(object) }
        do {
            return try KeyPathValue.value(of: object, keyPath: key)
        } catch {
            preconditionFailure("NSSortDescriptor(key: \"\(key)\"): \(error.message)")
        }
    }

    /// Compares two values already read by ``value(of:)``, applying `ascending`.
    func compareValues(_ a: Any?, _ b: Any?) -> ComparisonResult {
        let result = ascendingOrder(Values.normalized(a), Values.normalized(b))
        return ascending ? result : result.reversed
    }

    private func ascendingOrder(_ a: Any?, _ b: Any?) -> ComparisonResult {
        if let comparator {
            return comparator(a ?? NSNull(), b ?? NSNull())
        }
        // nil sorts before every value, as `compare:` messages to nil yield NSOrderedSame/ascending in Cocoa.
        guard let a else { return b == nil ? .orderedSame : .orderedAscending }
        guard let b else { return .orderedDescending }
        let name = selector?.name ?? "compare:"
        if name != "compare:", let x = Values.string(a), let y = Values.string(b) {
            switch name {
            case "caseInsensitiveCompare:": return x.caseInsensitiveCompare(y)
            case "localizedCompare:": return x.localizedCompare(y)
            case "localizedCaseInsensitiveCompare:": return x.localizedCaseInsensitiveCompare(y)
            default: return x.localizedStandardCompare(y)
            }
        }
        if let order = ValueComparison.order(a, b) { return order }
        if let x = a as? Bool, let y = b as? Bool { return x == y ? .orderedSame : (x ? .orderedDescending : .orderedAscending) }
        preconditionFailure("NSSortDescriptor(key: \"\(key ?? "SELF")\"): cannot compare \(type(of: a)) with \(type(of: b)) using \(name)")
    }

    // MARK: NSObject

    /// `(key, ascending|descending, selector)`, for debugging.
    public override var description: String {
        "(\(key ?? "SELF"), \(ascending ? "ascending" : "descending"), \(selector?.name ?? "comparator"))"
    }

    /// Equal when key, direction and selector are; comparator descriptors only to themselves.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSSortDescriptor else { return false }
        if self === other { return true }
        return comparator == nil && other.comparator == nil && key == other.key && ascending == other.ascending && selector == other.selector
    }

    /// A hash consistent with ``isEqual(_:)``.
    public override var hash: Int { (key?.hashValue ?? 0) ^ (ascending ? 1 : 0) }

    /// Sort descriptors are immutable: a copy is the descriptor itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }
}

extension ComparisonResult {
    /// The order of the same two values taken the other way round.
    var reversed: ComparisonResult {
        switch self {
        case .orderedAscending: .orderedDescending
        case .orderedDescending: .orderedAscending
        case .orderedSame: .orderedSame
        }
    }
}
