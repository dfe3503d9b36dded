/// The ID families of a range of entity numbers (an entity and its
/// sub-entities), looked up once for a read: per row, looking the number up
/// in the mapping and taking the store's family lock cost more than making
/// the ID (~500 instructions).
struct SQLiteIDFamilies {
    let numbers: ClosedRange<Int>
    /// By number minus `numbers.lowerBound`; nil where the number names no entity of the store.
    private let families: [ObjectIDFamily?]

    init(store: SQLiteStore, numbers: ClosedRange<Int>) {
        self.numbers = numbers
        families = numbers.map { store.mapping.entity(number: $0).map(store.idFamily(for:)) }
    }

    /// The family of entity `number`; nil outside `numbers` or for a number of no entity.
    subscript(number: Int) -> ObjectIDFamily? {
        numbers.contains(number) ? families[number - numbers.lowerBound] : nil
    }

    /// The ID of the row `pk` of entity `number`; nil as for the subscript.
    func objectID(entityNumber number: Int, primaryKey pk: Int64) -> NSManagedObjectID? {
        self[number].map { NSManagedObjectID(family: $0, key: .permanent(pk)) }
    }
}
