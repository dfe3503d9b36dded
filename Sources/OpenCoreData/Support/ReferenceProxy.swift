/// What weak references to an object point at instead of the object, so
/// that the object itself is never weakly referenced.
///
/// Swift gives an object a side table once anything references it weakly,
/// and from then on every retain and release of it takes the runtime's slow
/// path (about 50 instructions more each). Entities are weakly referenced by
/// their properties, indexes, sub-entities and relationship sources (Apple's
/// `assign` and `weak` back references), and retained several times per
/// managed object a fetch or a save handles. With a proxy, only the proxy has
/// a side table. The target owns its proxy and clears it first thing in its
/// `deinit`, so a reference never yields an object being destroyed on the
/// same thread.
///
/// Unlike `weak`, a read racing with the target's last release on another
/// thread may yield an object being destroyed. It is for the model graph's
/// back references, which Apple declares `assign` (no safer): the model keeps
/// its entities and relationships alive while anything uses them. Objects
/// released while other threads may still look them up (contexts,
/// coordinators, models in the process-wide registries) keep `weak` references.
final class ReferenceProxy<Target: AnyObject>: @unchecked Sendable {
    /// The target while it lives: set right after its initialization,
    /// cleared when its `deinit` starts.
    unowned(unsafe) var target: Target?

    init() {}
}

/// A weak reference to an object through its `ReferenceProxy`: nil once the
/// object is gone, as a `weak` reference would be.
///
/// The proxy itself is held strongly: it never references its target
/// strongly, so no cycle forms, and it outlives its target only as a small
/// object whose target reads nil. A `weak` hold on the proxy made copying a
/// reference, reading it and dropping it runtime calls through the proxy's
/// side table (~150 instructions a read of a relationship's inverse).
struct ProxiedWeakReference<Target: AnyObject> {
    private let proxy: ReferenceProxy<Target>?

    /// A reference to the object `proxy` stands for; to nothing for nil.
    init(_ proxy: ReferenceProxy<Target>?) { self.proxy = proxy }

    /// The object, while it lives.
    var target: Target? { proxy?.target }
}
