/// Thrown by a store's `save(_:)`, which then has written nothing, when a record would share the values of a
/// uniqueness constraint with another: the context checked the save against the store before writing, so this
/// means another context or program stored such a record in between. The context looks for the conflicts again
/// and hands them to its merge policy.
struct StoreConstraintViolation: Error {
    /// What the store said, for the error if the context finds no conflict to resolve.
    let message: String
}
