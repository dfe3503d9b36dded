/// The ID families of the to-one destinations one record read names. A
/// record holds each destination by family and key (`SlotValue.record`):
/// an ID made for every destination read cost an allocation and its release
/// (~550 instructions, a batch of 100 photos naming 100 albums) that nothing
/// used unless the destination was asked for. The store's family lookup
/// takes a lock (~380 instructions), so the reader keeps the last family: the
/// destinations of one read are mostly of one entity.
///
/// Asked for each to-one of each record read, by one reader on one thread.
final class SQLiteDestinationFamilies {
    // Release builds skip the exclusivity checks of this (~76 instructions each access).
    #if DEBUG
    private var last: ObjectIDFamily?
    #else
    @exclusivity(unchecked) private var last: ObjectIDFamily?
    #endif

    /// The family of the IDs of `entity`'s records in `store`.
    func family(of entity: NSEntityDescription, in store: SQLiteStore) -> ObjectIDFamily {
        if let last, last.entity === entity { return last }
        let family = store.idFamily(for: entity)
        last = family
        return family
    }
}
