/// A weak, one-way relationship computed by a fetch: the objects of another
/// entity that match a predicate, which may refer to the owner as
/// `$FETCH_SOURCE` (NSFetchedPropertyDescription.h).
open class NSFetchedPropertyDescription: NSPropertyDescription, @unchecked Sendable {
    /// The request that computes the property, in the model's own terms; the
    /// fetch layer exposes it as `fetchRequest`.
    public var fetchRequestDescription: FetchRequestDescription? {
        willSet { ensureEditable("fetchRequest of \(name)") }
    }

    /// Always true: a fetched property's value comes from its fetch and cannot be set.
    public override var isReadOnly: Bool { true }

    /// An unnamed fetched property without a request.
    public required init() { super.init() }

    /// An unfrozen copy, request included.
    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = super.copy(with: zone) as! NSFetchedPropertyDescription
        copy.fetchRequestDescription = fetchRequestDescription
        return copy
    }

    /// Whether `object` is an equal property with an equal request.
    open override func isEqual(_ object: Any?) -> Bool {
        guard super.isEqual(object), let other = object as? NSFetchedPropertyDescription else { return false }
        return fetchRequestDescription == other.fetchRequestDescription
    }
}
