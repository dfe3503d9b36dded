/// A weak, one-way relationship computed by a fetch: the objects of another
/// entity that match a predicate, which may refer to the owner as
/// `$FETCH_SOURCE` (NSFetchedPropertyDescription.h).
open class NSFetchedPropertyDescription: NSPropertyDescription, @unchecked Sendable {
    /// The request that computes the property, in the model's own terms; the
    /// fetch layer exposes it as `fetchRequest`.
    public var fetchRequestDescription: FetchRequestDescription? {
        willSet { ensureEditable("fetchRequest of \(name)") }
    }

    public override var isReadOnly: Bool { true }

    public required init() { super.init() }

    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = super.copy(with: zone) as! NSFetchedPropertyDescription
        copy.fetchRequestDescription = fetchRequestDescription
        return copy
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard super.isEqual(object), let other = object as? NSFetchedPropertyDescription else { return false }
        return fetchRequestDescription == other.fetchRequestDescription
    }
}
