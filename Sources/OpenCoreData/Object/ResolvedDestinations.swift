/// The objects an object's to-one slots resolved to, by the slot's
/// `PropertySlotLayout.toOneOrdinals` (see `PropertyValues.resolvedDestination`).
///
/// One word: most entities have at most one to-one relationship, and the
/// object it resolved to is held in place of an array of one (32 bytes of
/// array header and an allocation per object whose to-one was read).
/// Entities with several keep an array, by ordinal.
struct ResolvedDestinations {
    private enum Storage {
        case none
        /// The object of ordinal 0, for an entity with one to-one relationship.
        case single(NSManagedObject)
        /// Objects by ordinal, for an entity with several.
        case many(ContiguousArray<NSManagedObject?>)
    }

    private var storage = Storage.none

    /// No destination resolved.
    init() {}

    /// The object resolved for `ordinal`; nil for none.
    subscript(ordinal: Int) -> NSManagedObject? {
        switch storage {
        case .none: nil
        case .single(let object): ordinal == 0 ? object : nil
        case .many(let objects): ordinal < objects.count ? objects[ordinal] : nil
        }
    }

    /// Records `object` as resolved for `ordinal` of an entity with
    /// `count` to-one relationships.
    mutating func set(_ object: NSManagedObject, at ordinal: Int, count: Int) {
        precondition(ordinal >= 0 && ordinal < count, "A to-one ordinal is below the entity's to-one count")
        if count == 1 {
            storage = .single(object)
            return
        }
        guard case .many(var objects) = storage else {
            var objects = ContiguousArray<NSManagedObject?>.filled(with: nil, count: count)
            objects[ordinal] = object
            storage = .many(objects)
            return
        }
        storage = .none  // so that the array is uniquely referenced while it changes
        objects[ordinal] = object
        storage = .many(objects)
    }
}
