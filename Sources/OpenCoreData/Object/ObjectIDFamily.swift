/// What the IDs of one entity's records in one store have in common: the
/// entity, the store (weakly) and its identifier, the entity's name and that
/// name's hash. A store makes one family per entity (`NSPersistentStore.idFamily(for:)`);
/// a temporary ID has one of its own.
///
/// Why IDs share it: an ID holding these itself retained its entity and
/// stored a weak reference to its store, and both have side tables (an entity
/// is pointed to weakly by its properties, a store by its IDs), so making and
/// freeing an ID took the runtime's slow reference-counting paths, some 840
/// instructions per fetched row. An ID now costs one allocation and one
/// retain of its family, which nothing references weakly.
final class ObjectIDFamily: @unchecked Sendable {
    let entity: NSEntityDescription
    /// Weak, as Apple's `NSManagedObjectID.persistentStore` is: an ID does not keep its store open.
    private(set) weak var store: NSPersistentStore?
    /// The store's `NSStoreUUIDKey` when the family was made; kept apart from
    /// the weak store so that an ID still names its record after the store is removed.
    let storeIdentifier: String?
    let entityName: String
    let entityNameHash: Int

    init(entity: NSEntityDescription, store: NSPersistentStore?) {
        self.entity = entity
        self.store = store
        storeIdentifier = store?.identifier
        entityName = entity.name ?? ""
        entityNameHash = entity.nameHash
    }

    /// Whether IDs of the two families with equal keys name the same record.
    func namesSameRecords(as other: ObjectIDFamily) -> Bool {
        self === other || (entityName == other.entityName && storeIdentifier == other.storeIdentifier)
    }
}
