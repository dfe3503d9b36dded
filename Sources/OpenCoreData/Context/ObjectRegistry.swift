/// A context's registered objects, found by `NSManagedObject.registryKey`
/// (see `SharedObjectTable`).
typealias ObjectRegistry = SharedObjectTable<NSManagedObject>

extension ObjectRegistry {
    /// The entries below which a context's periodic sweep (`sweepRegistryIfDue()`) does not bother.
    static var minimumSweepCount: Int { 1024 }

    /// The shared object registered for the ID `id`; assigning nil removes the entry.
    subscript(_ id: NSManagedObjectID) -> NSManagedObject? {
        get { self[RegistryKey(id)] }
        set { self[RegistryKey(id)] = newValue }
    }
}

/// `hasTableKey(_:)` and `tableKeyHash(seed:)` are the object's own (they read its ID or temporary number).
extension NSManagedObject: SharedTableElement {
    var tableKey: RegistryKey { registryKey }
    static func tableHash(of key: RegistryKey, seed: Int) -> Int { key._rawHashValue(seed: seed) }
}
